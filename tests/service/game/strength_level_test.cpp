// engine.strength per game, as a table: fixed levels, the opponent's rating for the game's perf
// (each speed, a variant's own perf), offset, min/max, provisional and missing ratings, bots.
#include <gtest/gtest.h>

#include "service/game/strength_level.hpp"

namespace service {
namespace {

config::StrengthConfig matching(int offset = 0, int min = 800, int max = 2800,
                                bool match_bots = false) {
    config::StrengthConfig c;
    c.match_opponent = true;
    c.offset = offset;
    c.min = min;
    c.max = max;
    c.match_bots = match_bots;
    return c;
}

config::StrengthConfig fixed(std::string elo) {
    config::StrengthConfig c;
    c.elo = std::move(elo);
    return c;
}

// A human with a different rating in every perf, so the row shows which one was read.
LevelOpponent human() {
    LevelOpponent o;
    o.ratings = {{"ultraBullet", {1000, false}}, {"bullet", {1100, false}},
                 {"blitz", {1200, false}},       {"rapid", {1300, false}},
                 {"classical", {1400, false}},   {"correspondence", {1600, false}},
                 {"chess960", {1700, false}},    {"crazyhouse", {1800, false}},
                 {"atomic", {1900, true}}};
    return o;
}

LevelOpponent bot() {
    LevelOpponent o = human();
    o.bot = true;
    return o;
}

struct Row {
    const char* name;
    config::StrengthConfig config;
    LevelOpponent opponent;
    const char* variant;
    const char* speed;
    std::optional<int> level;
    const char* why_has;
};

TEST(GameLevel, Table) {
    const std::vector<Row> rows = {
        {"default: full", config::StrengthConfig{}, human(), "standard", "blitz", std::nullopt,
         "is full"},
        {"fixed level", fixed("1500"), human(), "standard", "blitz", 1500, "engine.strength.elo"},
        {"fixed level, bot", fixed("1500"), bot(), "standard", "blitz", 1500, "elo"},
        {"bullet", matching(), human(), "standard", "bullet", 1100, "bullet rating 1100"},
        {"blitz", matching(), human(), "standard", "blitz", 1200, "blitz rating 1200"},
        {"rapid", matching(), human(), "standard", "rapid", 1300, "rapid rating 1300"},
        {"classical", matching(), human(), "standard", "classical", 1400, "classical"},
        {"correspondence", matching(), human(), "standard", "correspondence", 1600,
         "correspondence rating 1600"},
        {"from position: its speed", matching(), human(), "fromPosition", "rapid", 1300, "rapid"},
        {"chess960's own perf", matching(), human(), "chess960", "blitz", 1700, "chess960"},
        {"crazyhouse's own perf", matching(), human(), "crazyhouse", "bullet", 1800,
         "crazyhouse rating 1800"},
        {"offset down", matching(-200), human(), "standard", "blitz", 1000, "offset -200"},
        {"offset up", matching(150), human(), "standard", "rapid", 1450, "offset +150"},
        {"below min", matching(-300, 1000, 2000), human(), "standard", "bullet", 1000,
         "kept within 1000..2000"},
        {"above max", matching(0, 800, 1250), human(), "standard", "classical", 1250,
         "kept within 800..1250"},
        {"below the engine's floor", matching(-900), human(), "standard", "bullet", 800,
         "kept within 800..2800"},
        {"provisional: halfway to 1500", matching(), human(), "atomic", "blitz", 1700,
         "provisional atomic rating 1900"},
        {"missing rating: 1500", matching(), human(), "horde", "blitz", 1500, "no horde rating"},
        {"missing rating, offset", matching(-100), LevelOpponent{}, "standard", "blitz", 1400,
         "no blitz rating"},
        {"bot: full", matching(), bot(), "standard", "blitz", std::nullopt, "match_bots is false"},
        {"bot matched", matching(0, 800, 2800, true), bot(), "standard", "blitz", 1200, "blitz"},
    };
    for (const Row& row : rows) {
        const GameLevel got = game_level(row.config, row.opponent, row.variant, row.speed);
        EXPECT_EQ(got.elo, row.level) << row.name;
        EXPECT_NE(got.why.find(row.why_has), std::string::npos) << row.name << ": " << got.why;
    }
}

TEST(GameLevel, PerfKeys) {
    EXPECT_EQ(perf_key("standard", "blitz"), "blitz");
    EXPECT_EQ(perf_key("fromPosition", "classical"), "classical");
    EXPECT_EQ(perf_key("standard", "ultraBullet"), "ultraBullet");
    EXPECT_EQ(perf_key("kingOfTheHill", "blitz"), "kingOfTheHill");
    EXPECT_EQ(perf_key("threeCheck", "correspondence"), "threeCheck");
}

TEST(GameLevel, Text) {
    EXPECT_EQ(level_text(1400), "level 1400");
    EXPECT_EQ(level_text(std::nullopt), "full strength");
}

}  // namespace
}  // namespace service
