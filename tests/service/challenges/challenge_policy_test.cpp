// ChallengePolicy as a table: one row per rule, each naming the exact Lichess decline reason.
#include "service/challenges/challenge_policy.hpp"

#include <functional>
#include <ostream>

#include <gtest/gtest.h>

#include "tests/service/challenges/lila_fixtures.hpp"

namespace service {
namespace {

// A blitz 3+2 casual standard challenge from a human rated 1500: the default config accepts it.
lichess::ChallengeInfo base_challenge() { return lila_fixtures::challenge("abcd1234", "Alice"); }

SlotSnapshot open_slots() {
    SlotSnapshot s;
    s.limit = 2;
    return s;
}

ChallengeFacts facts(std::optional<int> our_rating, int recent_bot_challenges, bool blocked) {
    ChallengeFacts f;
    f.our_rating = our_rating;
    f.recent_bot_challenges = recent_bot_challenges;
    f.online_blocked = blocked;
    return f;
}

struct PolicyRow {
    const char* name;
    std::function<void(lichess::ChallengeInfo&, config::ChallengeConfig&, SlotSnapshot&)> setup;
    Verdict verdict;
    lichess::DeclineReason reason = lichess::DeclineReason::Generic;
    ChallengeFacts facts{};  // what the Bot knows besides the challenge
};

std::ostream& operator<<(std::ostream& os, const PolicyRow& r) { return os << r.name; }

void clock(lichess::ChallengeInfo& c, const char* speed, int base, int inc) {
    c.speed = speed;
    c.time_control = {};
    c.time_control.type = lichess::TimeControl::Type::Clock;
    c.time_control.limit_s = base;
    c.time_control.increment_s = inc;
}

const PolicyRow kPolicyRows[] = {
    {"accept_default", [](auto&, auto&, auto&) {}, Verdict::Accept},
    {"accept_rated_bot_chess960",
     [](auto& c, auto&, auto&) {
         c.challenger.title = "BOT";
         c.rated = true;
         c.variant.key = "chess960";
         c.initial_fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1";
     },
     Verdict::Accept},
    {"accept_from_position",
     [](auto& c, auto&, auto&) {
         c.variant.key = "fromPosition";
         c.initial_fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
     },
     Verdict::Accept},
    {"accept_correspondence_in_range",
     [](auto& c, auto& cfg, auto&) {
         cfg.time_controls.push_back("correspondence");
         c.speed = "correspondence";
         c.time_control = {};
         c.time_control.type = lichess::TimeControl::Type::Correspondence;
         c.time_control.days_per_turn = 3;
     },
     Verdict::Accept},
    {"accept_unlimited_when_correspondence_allowed",
     [](auto& c, auto& cfg, auto&) {
         cfg.time_controls.push_back("correspondence");
         c.speed = "correspondence";
         c.time_control = {};
     },
     Verdict::Accept},
    {"accept_unrated_challenger_passes_rating",
     [](auto& c, auto& cfg, auto&) {
         cfg.min_rating = 2000;
         c.challenger.rating.reset();
     },
     Verdict::Accept},
    {"accept_allow_listed_case_insensitive",
     [](auto&, auto& cfg, auto&) { cfg.allow_list = {"ALICE"}; }, Verdict::Accept},
    {"accept_last_free_slot",
     [](auto&, auto&, auto& s) {
         s.active = 1;
         s.per_user["bob"] = 1;
     },
     Verdict::Accept},

    {"ignore_own_challenge_by_id", [](auto& c, auto&, auto&) { c.challenger.id = "outpostbot"; },
     Verdict::Ignore},
    {"ignore_own_challenge_by_direction", [](auto& c, auto&, auto&) { c.direction = "out"; },
     Verdict::Ignore},

    {"block_list", [](auto&, auto& cfg, auto&) { cfg.block_list = {"Alice"}; }, Verdict::Decline,
     lichess::DeclineReason::Generic},
    {"allow_list_miss", [](auto&, auto& cfg, auto&) { cfg.allow_list = {"bob"}; }, Verdict::Decline,
     lichess::DeclineReason::Generic},
    {"block_list_beats_capacity",
     [](auto&, auto& cfg, auto& s) {
         cfg.block_list = {"alice"};
         s.active = 2;
     },
     Verdict::Decline, lichess::DeclineReason::Generic},

    // Every Lichess variant is accepted by default; an operator narrows challenge.variants.
    {"accept_crazyhouse", [](auto& c, auto&, auto&) { c.variant.key = "crazyhouse"; },
     Verdict::Accept},
    {"accept_antichess", [](auto& c, auto&, auto&) { c.variant.key = "antichess"; },
     Verdict::Accept},
    {"accept_atomic", [](auto& c, auto&, auto&) { c.variant.key = "atomic"; }, Verdict::Accept},
    {"accept_horde", [](auto& c, auto&, auto&) { c.variant.key = "horde"; }, Verdict::Accept},
    {"accept_king_of_the_hill", [](auto& c, auto&, auto&) { c.variant.key = "kingOfTheHill"; },
     Verdict::Accept},
    {"accept_racing_kings", [](auto& c, auto&, auto&) { c.variant.key = "racingKings"; },
     Verdict::Accept},
    {"accept_three_check", [](auto& c, auto&, auto&) { c.variant.key = "threeCheck"; },
     Verdict::Accept},
    {"variant_key_lichess_may_add_later", [](auto& c, auto&, auto&) { c.variant.key = "duckChess"; },
     Verdict::Decline, lichess::DeclineReason::Variant},
    // lila's keys are exact (Variant.LilaKey): another spelling is no key of its.
    {"variant_key_in_another_case", [](auto& c, auto&, auto&) { c.variant.key = "CrazyHouse"; },
     Verdict::Decline, lichess::DeclineReason::Variant},
    {"variant_key_all_lower_case", [](auto& c, auto&, auto&) { c.variant.key = "kingofthehill"; },
     Verdict::Decline, lichess::DeclineReason::Variant},
    // FENs as scalachess's FenReader reads them, strict off (the API): accepted and played.
    {"from_position_with_nine_pawns",
     [](auto& c, auto&, auto&) {
         c.variant.key = "fromPosition";
         c.initial_fen = "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1";
     },
     Verdict::Accept},
    {"from_position_castling_right_without_its_rook",
     [](auto& c, auto&, auto&) {
         c.variant.key = "fromPosition";
         c.initial_fen = "r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1";
     },
     Verdict::Accept},
    {"from_position_impossible_en_passant_square",
     [](auto& c, auto&, auto&) {
         c.variant.key = "fromPosition";
         c.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1";
     },
     Verdict::Accept},
    // A start that is already over is no game to play (scalachess Position.playable: not end).
    {"racing_kings_start_already_won",
     [](auto& c, auto&, auto&) {
         c.variant.key = "racingKings";
         c.initial_fen = "K7/8/8/8/8/8/k7/8 b - - 0 1";
     },
     Verdict::Decline, lichess::DeclineReason::Variant},
    {"from_position_start_is_mate",
     [](auto& c, auto&, auto&) {
         c.variant.key = "fromPosition";
         c.initial_fen = "k7/1Q6/1K6/8/8/8/8/8 b - - 0 1";
     },
     Verdict::Decline, lichess::DeclineReason::Variant},
    {"variant_narrowed_out",
     [](auto& c, auto& cfg, auto&) {
         cfg.variants = {"standard", "chess960", "crazyhouse"};
         c.variant.key = "atomic";
     },
     Verdict::Decline, lichess::DeclineReason::Variant},
    {"variant_start_fen_that_is_no_position_of_its_variant",
     [](auto& c, auto&, auto&) {
         c.variant.key = "crazyhouse";
         c.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Xq] w KQkq - 0 1";
     },
     Verdict::Decline, lichess::DeclineReason::Variant},
    {"variant_chess960_for_standard_only_bot",
     [](auto& c, auto& cfg, auto&) {
         cfg.variants = {"standard"};
         c.variant.key = "chess960";
     },
     Verdict::Decline, lichess::DeclineReason::Variant},
    {"variant_from_position_with_960_castling_needs_chess960",
     [](auto& c, auto& cfg, auto&) {
         cfg.variants = {"standard", "fromPosition"};
         c.variant.key = "fromPosition";
         c.initial_fen = "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1";
     },
     Verdict::Decline, lichess::DeclineReason::Variant},
    {"variant_beats_bot_rule",
     [](auto& c, auto& cfg, auto&) {
         cfg.accept_bot = false;
         cfg.variants = {"standard"};
         c.challenger.title = "BOT";
         c.variant.key = "horde";
     },
     Verdict::Decline, lichess::DeclineReason::Variant},

    {"no_bot",
     [](auto& c, auto& cfg, auto&) {
         cfg.accept_bot = false;
         c.challenger.title = "BOT";
     },
     Verdict::Decline, lichess::DeclineReason::NoBot},
    {"only_bot", [](auto&, auto& cfg, auto&) { cfg.only_bot = true; }, Verdict::Decline,
     lichess::DeclineReason::OnlyBot},
    {"titled_human_is_not_a_bot",
     [](auto& c, auto& cfg, auto&) {
         cfg.only_bot = true;
         c.challenger.title = "GM";
     },
     Verdict::Decline, lichess::DeclineReason::OnlyBot},

    {"rated_not_allowed_says_casual",
     [](auto& c, auto& cfg, auto&) {
         cfg.modes = {"casual"};
         c.rated = true;
     },
     Verdict::Decline, lichess::DeclineReason::Casual},
    {"casual_not_allowed_says_rated", [](auto&, auto& cfg, auto&) { cfg.modes = {"rated"}; },
     Verdict::Decline, lichess::DeclineReason::Rated},

    {"speed_too_fast", [](auto& c, auto&, auto&) { clock(c, "ultraBullet", 15, 0); },
     Verdict::Decline, lichess::DeclineReason::TooFast},
    {"speed_too_slow_correspondence",
     [](auto& c, auto&, auto&) {
         c.speed = "correspondence";
         c.time_control = {};
         c.time_control.type = lichess::TimeControl::Type::Correspondence;
         c.time_control.days_per_turn = 2;
     },
     Verdict::Decline, lichess::DeclineReason::TooSlow},
    {"speed_too_slow_classical",
     [](auto& c, auto& cfg, auto&) {
         cfg.time_controls = {"bullet", "blitz"};
         clock(c, "classical", 1800, 0);
     },
     Verdict::Decline, lichess::DeclineReason::TooSlow},
    {"speed_gap_is_time_control",
     [](auto& c, auto& cfg, auto&) {
         cfg.time_controls = {"bullet", "classical"};
         clock(c, "rapid", 600, 5);
     },
     Verdict::Decline, lichess::DeclineReason::TimeControl},
    {"speed_unknown_is_time_control", [](auto& c, auto&, auto&) { c.speed = "warp"; },
     Verdict::Decline, lichess::DeclineReason::TimeControl},

    {"base_below_min", [](auto&, auto& cfg, auto&) { cfg.min_base = 300; }, Verdict::Decline,
     lichess::DeclineReason::TooFast},
    {"base_above_max", [](auto&, auto& cfg, auto&) { cfg.max_base = 120; }, Verdict::Decline,
     lichess::DeclineReason::TooSlow},
    {"increment_below_min", [](auto&, auto& cfg, auto&) { cfg.min_increment = 3; },
     Verdict::Decline, lichess::DeclineReason::TimeControl},
    {"increment_above_max", [](auto&, auto& cfg, auto&) { cfg.max_increment = 1; },
     Verdict::Decline, lichess::DeclineReason::TimeControl},
    {"correspondence_days_out_of_range",
     [](auto& c, auto& cfg, auto&) {
         cfg.time_controls.push_back("correspondence");
         cfg.max_days = 3;
         c.speed = "correspondence";
         c.time_control = {};
         c.time_control.type = lichess::TimeControl::Type::Correspondence;
         c.time_control.days_per_turn = 7;
     },
     Verdict::Decline, lichess::DeclineReason::TimeControl},
    {"unlimited_without_correspondence_is_too_slow",
     [](auto& c, auto& cfg, auto&) {
         // A speed field that claims an allowed speed must not let an unlimited game through.
         c.time_control = {};
         cfg.time_controls = {"blitz"};
     },
     Verdict::Decline, lichess::DeclineReason::TooSlow},

    {"rating_below_min", [](auto&, auto& cfg, auto&) { cfg.min_rating = 1600; }, Verdict::Decline,
     lichess::DeclineReason::Generic},
    {"rating_above_max", [](auto&, auto& cfg, auto&) { cfg.max_rating = 1400; }, Verdict::Decline,
     lichess::DeclineReason::Generic},

    {"per_user_limit",
     [](auto&, auto& cfg, auto& s) {
         cfg.max_simultaneous_games_per_user = 1;
         s.active = 1;
         s.per_user["alice"] = 1;
     },
     Verdict::Decline, lichess::DeclineReason::Later},
    {"no_free_slot_queues",
     [](auto&, auto&, auto& s) {
         s.active = 1;
         s.reserved = 1;
     },
     Verdict::Queue},
    {"correspondence_needs_no_free_slot",
     [](auto& c, auto& cfg, auto& s) {
         cfg.time_controls.push_back("correspondence");
         c.speed = "correspondence";
         c.time_control = {};
         c.time_control.type = lichess::TimeControl::Type::Correspondence;
         c.time_control.days_per_turn = 3;
         s.active = 1;
     },
     Verdict::Accept},
    {"correspondence_still_counts_games_per_user",
     [](auto& c, auto& cfg, auto& s) {
         cfg.time_controls.push_back("correspondence");
         cfg.max_simultaneous_games_per_user = 2;
         c.speed = "correspondence";
         c.time_control = {};
         s.per_user["alice"] = 2;
     },
     Verdict::Decline, lichess::DeclineReason::Later},
    {"concurrency_zero_declines_later", [](auto&, auto&, auto& s) { s.limit = 0; },
     Verdict::Decline, lichess::DeclineReason::Later},

    // lichess-bot's other filters and the slots kept for humans.
    {"online_block_list", [](auto&, auto&, auto&) {}, Verdict::Decline, lichess::DeclineReason::Generic,
     facts(std::nullopt, 0, true)},
    {"online_block_list_beats_capacity", [](auto&, auto&, auto& s) { s.active = 2; },
     Verdict::Decline, lichess::DeclineReason::Generic, facts(std::nullopt, 0, true)},
    {"bullet_requires_increment_bot",
     [](auto& c, auto& cfg, auto&) {
         cfg.bullet_requires_increment = true;
         c.challenger.title = "BOT";
         clock(c, "bullet", 60, 0);
     },
     Verdict::Decline, lichess::DeclineReason::TimeControl},
    {"bullet_requires_increment_bot_with_increment",
     [](auto& c, auto& cfg, auto&) {
         cfg.bullet_requires_increment = true;
         c.challenger.title = "BOT";
         clock(c, "bullet", 60, 1);
     },
     Verdict::Accept},
    {"bullet_requires_increment_not_for_humans",
     [](auto& c, auto& cfg, auto&) {
         cfg.bullet_requires_increment = true;
         clock(c, "bullet", 60, 0);
     },
     Verdict::Accept},
    {"bullet_without_increment_from_bot_when_off",
     [](auto& c, auto&, auto&) {
         c.challenger.title = "BOT";
         clock(c, "bullet", 60, 0);
     },
     Verdict::Accept},
    {"bullet_requires_increment_leaves_blitz",
     [](auto& c, auto& cfg, auto&) {
         cfg.bullet_requires_increment = true;
         c.challenger.title = "BOT";
         clock(c, "blitz", 180, 0);
     },
     Verdict::Accept},
    {"rating_difference_too_far",
     [](auto& c, auto& cfg, auto&) {
         cfg.rating_difference = 100;
         c.challenger.rating = 1700;
     },
     Verdict::Decline, lichess::DeclineReason::Generic, facts(1500, 0, false)},
    {"rating_difference_close_enough",
     [](auto& c, auto& cfg, auto&) {
         cfg.rating_difference = 100;
         c.challenger.rating = 1400;
     },
     Verdict::Accept, lichess::DeclineReason::Generic, facts(1500, 0, false)},
    {"rating_difference_narrows_min_rating_never_widens",
     [](auto& c, auto& cfg, auto&) {
         cfg.rating_difference = 300;
         cfg.min_rating = 1450;
         c.challenger.rating = 1400;  // within 300 of ours, below min_rating
     },
     Verdict::Decline, lichess::DeclineReason::Generic, facts(1500, 0, false)},
    {"rating_difference_without_our_rating_uses_min_max",
     [](auto& c, auto& cfg, auto&) {
         cfg.rating_difference = 100;
         c.challenger.rating = 2500;
     },
     Verdict::Accept},
    {"rating_difference_zero_is_off", [](auto& c, auto&, auto&) { c.challenger.rating = 2500; },
     Verdict::Accept, lichess::DeclineReason::Generic, facts(1500, 0, false)},
    {"recent_bot_challenges_reached",
     [](auto& c, auto& cfg, auto&) {
         cfg.recent_bot_challenge_age = 60;
         cfg.max_recent_bot_challenges = 2;
         c.challenger.title = "BOT";
     },
     Verdict::Decline, lichess::DeclineReason::Later, facts(std::nullopt, 2, false)},
    {"recent_bot_challenges_below_max",
     [](auto& c, auto& cfg, auto&) {
         cfg.recent_bot_challenge_age = 60;
         cfg.max_recent_bot_challenges = 2;
         c.challenger.title = "BOT";
     },
     Verdict::Accept, lichess::DeclineReason::Generic, facts(std::nullopt, 1, false)},
    {"recent_bot_challenges_not_for_humans",
     [](auto&, auto& cfg, auto&) {
         cfg.recent_bot_challenge_age = 60;
         cfg.max_recent_bot_challenges = 2;
     },
     Verdict::Accept, lichess::DeclineReason::Generic, facts(std::nullopt, 5, false)},
    {"recent_bot_challenges_off_without_age",
     [](auto& c, auto& cfg, auto&) {
         cfg.max_recent_bot_challenges = 2;
         c.challenger.title = "BOT";
     },
     Verdict::Accept, lichess::DeclineReason::Generic, facts(std::nullopt, 5, false)},
    {"reserved_for_humans_bot_waits",
     [](auto& c, auto&, auto& s) {
         c.challenger.title = "BOT";
         s.bot_limit = 1;  // concurrency 2, games_reserved_for_humans 1
         s.bot_games = 1;
         s.active = 1;
     },
     Verdict::Queue},
    {"reserved_for_humans_human_accepted",
     [](auto&, auto&, auto& s) {
         s.bot_limit = 1;
         s.bot_games = 1;
         s.active = 1;
     },
     Verdict::Accept},
    {"reserved_for_humans_first_bot_accepted",
     [](auto& c, auto&, auto& s) {
         c.challenger.title = "BOT";
         s.bot_limit = 1;
     },
     Verdict::Accept},
    {"reserved_for_humans_leaves_bots_nothing",
     [](auto& c, auto&, auto& s) {
         c.challenger.title = "BOT";
         s.bot_limit = 0;
     },
     Verdict::Decline, lichess::DeclineReason::Later},
    {"per_user_limit_beats_the_queue",
     [](auto&, auto& cfg, auto& s) {
         cfg.max_simultaneous_games_per_user = 1;
         s.active = 2;
         s.per_user["alice"] = 1;  // e.g. a challenge of hers waiting in the queue
     },
     Verdict::Decline, lichess::DeclineReason::Later},
    {"time_control_beats_capacity",
     [](auto&, auto& cfg, auto& s) {
         cfg.max_base = 60;
         s.active = 2;
     },
     Verdict::Decline, lichess::DeclineReason::TooSlow},
};

class PolicyTable : public ::testing::TestWithParam<PolicyRow> {};

TEST_P(PolicyTable, Decides) {
    const PolicyRow& row = GetParam();
    lichess::ChallengeInfo c = base_challenge();
    config::ChallengeConfig cfg;
    SlotSnapshot slots = open_slots();
    row.setup(c, cfg, slots);

    const Decision d = judge_challenge(c, cfg, "outpostbot", slots, row.facts);
    EXPECT_EQ(d.verdict, row.verdict) << to_string(d.verdict) << ": " << d.explanation;
    if (row.verdict == Verdict::Decline) {
        EXPECT_EQ(d.reason, row.reason) << lichess::to_string(d.reason) << " vs "
                                        << lichess::to_string(row.reason) << ": " << d.explanation;
    }
    EXPECT_FALSE(d.explanation.empty());
    // The class form decides the same.
    const ChallengePolicy policy(cfg, "outpostbot");
    EXPECT_EQ(policy.judge(c, slots, row.facts).verdict, d.verdict);
}

INSTANTIATE_TEST_SUITE_P(Rules, PolicyTable, ::testing::ValuesIn(kPolicyRows),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ChallengePolicy, EveryDeclineReasonIsCovered) {
    bool seen[11] = {};
    for (const PolicyRow& r : kPolicyRows)
        if (r.verdict == Verdict::Decline) seen[int(r.reason)] = true;
    for (lichess::DeclineReason r :
         {lichess::DeclineReason::Generic, lichess::DeclineReason::Later,
          lichess::DeclineReason::TooFast, lichess::DeclineReason::TooSlow,
          lichess::DeclineReason::TimeControl, lichess::DeclineReason::Rated,
          lichess::DeclineReason::Casual, lichess::DeclineReason::Variant,
          lichess::DeclineReason::NoBot, lichess::DeclineReason::OnlyBot})
        EXPECT_TRUE(seen[int(r)]) << lichess::to_string(r);
}

TEST(ChallengePolicy, SnapshotFromGameSlotsCountsReservations) {
    GameSlots slots(1, std::chrono::seconds(30));
    ASSERT_TRUE(slots.try_reserve("other123", "bob"));
    const Decision d = judge_challenge(base_challenge(), {}, "outpostbot", slots.snapshot());
    EXPECT_EQ(d.verdict, Verdict::Queue) << d.explanation;
}

TEST(ChallengePolicy, PerfKeyNamesTheAccountPerf) {
    lichess::ChallengeInfo c = base_challenge();
    EXPECT_EQ(perf_key(c), "blitz");
    c.variant.key = "chess960";
    EXPECT_EQ(perf_key(c), "chess960");
    c.variant.key = "fromPosition";
    c.speed = "rapid";
    EXPECT_EQ(perf_key(c), "rapid");
    // Each variant is rated in its own perf, whatever the speed (lila's PerfType).
    for (const char* key : {"crazyhouse", "antichess", "atomic", "horde", "kingOfTheHill",
                            "racingKings", "threeCheck"}) {
        c.variant.key = key;
        EXPECT_EQ(perf_key(c), key);
    }
}

}  // namespace
}  // namespace service
