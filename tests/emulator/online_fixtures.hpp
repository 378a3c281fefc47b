// The online sources' table: what the emulated opening explorer, cloud eval, tablebase and
// chessdb answer for a position (a small built-in set shaped like the specs' examples, plus the
// scenario's `online` entries, which replace built-in ones).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "scenario.hpp"

namespace emu {

struct OnlineEntry {
    int status = 200;
    std::string body;  // JSON text
};

class OnlineFixtures {
  public:
    explicit OnlineFixtures(const OnlineSpec& spec);

    // db: masters | lichess | player; an entry for "any" answers every database.
    const OnlineEntry* explorer(const std::string& db, const std::string& key) const;
    const OnlineEntry* cloud_eval(const std::string& key) const;
    const OnlineEntry* tablebase(const std::string& key) const;
    const OnlineEntry* chessdb(const std::string& key) const;

    // The table key of a FEN of a Lichess variant: the variant, then placement (crazyhouse
    // pockets included), side to move and castling of the position as engine::Position prints it
    // (counters and en passant square left out, so the bot's real counters match), or nullopt
    // when the text is not a legal FEN of that variant (or the variant is not Lichess's).
    static std::optional<std::string> position_key(std::string_view fen,
                                                   std::string_view variant = "standard");

  private:
    using Table = std::map<std::string, OnlineEntry>;
    static void add(Table& table, const std::string& fen, OnlineEntry entry,
                    std::string_view variant = "standard");
    std::map<std::string, Table> explorer_;  // by db (masters, lichess, player, any)
    Table cloud_eval_, tablebase_, chessdb_;
};

}  // namespace emu
