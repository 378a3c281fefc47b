// The online sources' answers as moves (online_moves.*): what the explorer, a cloud evaluation,
// a tablebase or the chessdb book says to play in our position, each checked legal there, and
// the deadline a lookup gets. Pure: no I/O, no clock.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"
#include "lichess_client/online_sources.hpp"
#include "service/game/move_source.hpp"

namespace service {

using OnlineRng = std::mt19937_64;

// A move an online source chose, in our position's notation.
struct OnlineChoice {
    MoveSource source = MoveSource::Explorer;
    std::string uci;
    // From our side: a cloud evaluation's, a tablebase result's (win/loss as a mate-like score).
    std::optional<engine::Score> score;
    std::string note;  // for the log: "1234 games", "depth 42", "win, dtm 13"
    // online_egtb.move_quality suggest: the search chooses among these (uci), not the table.
    std::vector<std::string> search_among;
};

// ---- the choices, pure: one per source, on the service's reply -----------------------------

// A legal move of `position` from any notation a service sends: UCI (castling king-two-squares
// or king-to-rook) or SAN; nullopt when it is neither or not legal here.
[[nodiscard]] std::optional<engine::Move> legal_move(const engine::Position& position,
                                                     std::string_view text);

[[nodiscard]] std::optional<OnlineChoice> choose_explorer_move(
    const lichess::ExplorerReply& reply, const config::OpeningExplorerConfig& config,
    const engine::Position& position);
[[nodiscard]] std::optional<OnlineChoice> choose_cloud_move(
    const lichess::CloudEvalReply& reply, const config::CloudAnalysisConfig& config,
    const engine::Position& position, OnlineRng& rng);
[[nodiscard]] std::optional<OnlineChoice> choose_tablebase_move(
    const lichess::TablebaseReply& reply, const config::OnlineTablebaseConfig& config,
    const engine::Position& position);
[[nodiscard]] std::optional<OnlineChoice> choose_chessdb_move(const lichess::ChessdbReply& reply,
                                                              const std::string& move_quality,
                                                              const engine::Position& position,
                                                              OnlineRng& rng);

// The deadline of one lookup: a small share of the time the move may take (a twentieth of our
// usable clock, at most 2 s), and none (0) below 50 ms.
[[nodiscard]] std::chrono::milliseconds online_deadline(std::int64_t our_ms, bool real_time);

}  // namespace service
