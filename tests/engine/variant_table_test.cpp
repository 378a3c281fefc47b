// The game-type table (engine/variant_table.hpp) walked row by row: every name a row gives reads
// back to its row, and every start FEN is the variant's start position, counted by perft against
// the start counts of scalachess's and the Chess Programming Wiki's suites (tests/data/perft).
#include "engine/variant_table.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <set>
#include <string>

#include "engine/perft.hpp"
#include "engine/position.hpp"

namespace engine {
namespace {

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// Leaves at depth 3 from each variant's start (tests/data/perft: standard.epd, variants/*.perft).
std::uint64_t start_perft3(Variant v) {
    switch (v) {
        case Variant::ANTICHESS:
            return 8067;
        case Variant::HORDE:
            return 1274;
        case Variant::RACING_KINGS:
            return 11264;
        default:  // no capture can be dropped, no third check, no king on the hill by ply 3
            return 8902;
    }
}

TEST(GameTypeTable, HasLichessTenGameTypesWithUniqueKeysAndNames) {
    std::set<std::string_view> keys, names, short_names;
    for (const GameType& row : GAME_TYPES) {
        EXPECT_TRUE(keys.insert(row.key).second) << row.key;
        EXPECT_TRUE(names.insert(row.name).second) << row.name;
        EXPECT_TRUE(short_names.insert(row.short_name).second) << row.short_name;
        EXPECT_FALSE(row.uci.empty()) << row.key;
    }
    EXPECT_EQ(keys.size(), 10u);
    EXPECT_EQ(GAME_TYPES[0].key, "standard");
}

TEST(GameTypeTable, EveryVariantHasItsOwnFirstRow) {
    for (const Variant v : ALL_VARIANTS) {
        const GameType& row = game_type(v);
        EXPECT_EQ(row.variant, v);
        EXPECT_FALSE(row.chess960);
        EXPECT_FALSE(row.needs_fen);
        EXPECT_EQ(lichess_key(v), row.key);
        EXPECT_EQ(uci_name(v), row.uci);
        EXPECT_EQ(start_fen(v), row.start_fen);
    }
}

TEST(GameTypeTable, EveryNameOfARowReadsBackToItsVariant) {
    for (const GameType& row : GAME_TYPES) {
        EXPECT_EQ(find_game_type(row.key), &row) << row.key;
        EXPECT_EQ(from_lichess_key(row.key), row.variant) << row.key;
        EXPECT_EQ(parse_variant(row.key), row.variant) << row.key;
        EXPECT_EQ(parse_variant(upper(row.key)), row.variant) << row.key;
        EXPECT_EQ(parse_variant(row.uci), row.variant) << row.uci;
        EXPECT_EQ(parse_variant(row.name), row.variant) << row.name;
        EXPECT_EQ(castles_as_chess960(row.key), row.chess960) << row.key;
        EXPECT_EQ(&game_type_or_standard(row.key), &row) << row.key;
        // lila's keys are exact: another spelling is no row (a different key where it differs).
        if (upper(row.key) != row.key) {
            EXPECT_EQ(find_game_type(upper(row.key)), nullptr) << row.key;
        }
    }
    EXPECT_EQ(find_game_type("duckChess"), nullptr);
    EXPECT_EQ(game_type_or_standard("duckChess").key, "standard");
    EXPECT_FALSE(castles_as_chess960("duckChess"));
    EXPECT_EQ(CHESS960_GAME_TYPE.key, "chess960");
    EXPECT_TRUE(CHESS960_GAME_TYPE.chess960);
}

TEST(GameTypeTable, PerfIsTheRowsOwnOrTheSpeed) {
    for (const GameType& row : GAME_TYPES) {
        if (row.perf.empty())
            EXPECT_EQ(perf_of(row.key, "blitz"), "blitz") << row.key;
        else
            EXPECT_EQ(perf_of(row.key, "blitz"), row.perf) << row.key;
    }
    EXPECT_EQ(perf_of("standard", "bullet"), "bullet");
    EXPECT_EQ(perf_of("fromPosition", "rapid"), "rapid");
    EXPECT_EQ(perf_of("chess960", "rapid"), "chess960");
    EXPECT_EQ(perf_of("kingOfTheHill", "rapid"), "kingOfTheHill");
}

TEST(GameTypeTable, EveryStartFenIsItsVariantsStartPosition) {
    for (const GameType& row : GAME_TYPES) {
        const auto pos = Position::from_fen(row.start_fen, row.variant, row.chess960);
        ASSERT_TRUE(pos.ok()) << row.key << ": " << pos.error();
        EXPECT_EQ(pos->fen(), row.start_fen) << row.key;
        EXPECT_EQ(pos->fen(), Position::start(row.variant).fen()) << row.key;
        EXPECT_EQ(perft(*pos, 3), start_perft3(row.variant)) << row.key;
    }
}

}  // namespace
}  // namespace engine
