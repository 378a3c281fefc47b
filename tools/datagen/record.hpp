// The binary form of outpost-datagen's data: a 64-byte file header, then one 32-byte record a
// position, each game's records together and its last one flagged, so a reader can tell a
// complete game from one cut off mid-write. The exact layout is in docs/NNUE.md ("Data format").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/board.hpp"
#include "engine/types.hpp"

namespace datagen {

inline constexpr std::size_t HEADER_SIZE = 64;
inline constexpr std::size_t RECORD_SIZE = 32;
inline constexpr char MAGIC[8] = {'O', 'P', 'D', 'A', 'T', 'A', '0', '1'};
inline constexpr std::uint32_t FORMAT_VERSION = 1;
inline constexpr std::uint64_t MAX_GAMES = std::uint64_t(1) << 27;  // the game index's 27 bits

using Record = std::array<unsigned char, RECORD_SIZE>;
using Header = std::array<unsigned char, HEADER_SIZE>;

// What decides a run's games besides the program itself: a run is resumed only with the same,
// or the games after the restart would not be the ones the seed and index promise.
struct RunParams {
    std::uint64_t seed = 0;
    std::uint32_t nodes = 0;
    std::uint32_t random_plies = 0;
    std::uint32_t hash_mb = 0;
    std::uint64_t net_hash = 0;  // fnv1a64 of the net file's bytes; 0: the hand-crafted eval
    bool operator==(const RunParams&) const = default;
};

std::uint64_t fnv1a64(const unsigned char* data, std::size_t size);

Header encode_header(const RunParams& params);
// The parameters of a header, or what is wrong with it (not a data file, another version, a
// damaged header).
engine::Result<RunParams> decode_header(const unsigned char* data, std::size_t size);
// The fields in which two runs differ, e.g. "seed 14 vs 15", empty when none.
std::string describe_difference(const RunParams& file, const RunParams& wanted);

// One recorded position as the record holds it.
struct Decoded {
    engine::Board board;
    int score_white = 0;  // the search score in centipawns, white's view
    float result = 0.5f;  // the game's result, white's view: 1, 0.5 or 0
    std::uint64_t game = 0;
    bool last = false;  // the last record of its game
};

// The record of a standard-chess position, or why it has none: a Chess960 board, more than 32
// pieces, a halfmove clock above 127, a fullmove number above 1023, a score outside int16, a
// result other than 1, 0.5 or 0, or a game index of MAX_GAMES or more.
engine::Result<Record> encode_record(const engine::Board& board, int score_white, float result,
                                     std::uint64_t game, bool last);

// The position and labels of a record, every field checked (the position also by the FEN
// parser's rules), or what is wrong with it.
engine::Result<Decoded> decode_record(const Record& record);

// The fields a resuming generator needs, without decoding the position.
std::uint64_t record_game(const Record& record);
bool record_last(const Record& record);
// Flags a record as its game's last (the generator learns which one that is after encoding).
void mark_last(Record& record);

}  // namespace datagen
