// ArenaDesk as a table: each row is one rule of playing Lichess arenas, played as inputs at given
// times (a arena_tick, an arena's arena_answer, a join's answer, a game's start and end,
// arena_shutdown), with the requests expected after each (log lines left out; a few rows check
// them) and the game slots the arenas hold. No thread, no I/O, no clock.
#include "service/challenges/arena_desk.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "tests/service/challenges/lila_fixtures.hpp"
#include "tests/support/manual_clock.hpp"

namespace service {
namespace {

// An arena as lila's JsonView writes it: a 3+0 standard one that allows bots, 60 minutes long,
// starting `starts_in` from now (negative: started that long ago).
lichess::Tournament lila_arena(const std::string& id, std::chrono::seconds starts_in,
                               std::chrono::system_clock::time_point wall_now) {
    using namespace std::chrono_literals;
    lichess::Tournament t;
    t.id = id;
    t.full_name = "Bot Arena " + id;
    t.minutes = 60;
    t.variant = "standard";
    t.clock_limit_s = 180;
    t.clock_increment_s = 0;
    t.bots_allowed = true;
    const auto starts_at = wall_now + starts_in;
    t.starts_at_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(starts_at.time_since_epoch()).count();
    if (starts_in > 0s) {
        t.seconds_to_start = int(starts_in.count());
    } else {
        t.is_started = true;
        t.seconds_to_finish = int((60min + starts_in).count() / 1);
    }
    return t;
}

const std::function<void(lichess::Tournament&)> kArenaAsIs = [](lichess::Tournament&) {};

struct ArenaHarness {
    config::ChallengeConfig challenge;
    test_support::ManualClock clock;
    std::chrono::system_clock::time_point wall0 =
        std::chrono::system_clock::time_point(std::chrono::hours(490000));  // 2025-11
    std::chrono::steady_clock::time_point t0;
    GameSlots slots;
    ArenaDesk desk;
    std::vector<std::string> logs;

    explicit ArenaHarness(config::ChallengeConfig c)
        : challenge(std::move(c)),
          slots(challenge.concurrency, std::chrono::seconds(30), clock.fn()),
          desk({config::TournamentConfig{"arena001", "", ""}}, challenge, slots, ArenaTimes{}) {
        t0 = clock.now();
    }
    std::chrono::system_clock::time_point wall() const { return wall0 + (clock.now() - t0); }
};

std::function<ArenaDesk::Requests(ArenaHarness&)> arena_tick() {
    return [](ArenaHarness& h) { return h.desk.tick(h.clock.now(), h.wall()); };
}
// lila's answer to a arena_answer: the arena starts `starts_in` from now, shaped by `shape`.
std::function<ArenaDesk::Requests(ArenaHarness&)> arena_answer(
    std::chrono::seconds starts_in, std::function<void(lichess::Tournament&)> shape = kArenaAsIs) {
    return [starts_in, shape](ArenaHarness& h) {
        auto t = lila_arena("arena001", starts_in, h.wall());
        shape(t);
        return h.desk.on(arena::ArenaRead{"arena001", t, std::nullopt}, h.clock.now(), h.wall());
    };
}
std::function<ArenaDesk::Requests(ArenaHarness&)> arena_read_fails(lichess::ApiError error) {
    return [error](ArenaHarness& h) {
        return h.desk.on(arena::ArenaRead{"arena001", std::nullopt, error}, h.clock.now(),
                         h.wall());
    };
}
std::function<ArenaDesk::Requests(ArenaHarness&)> join_answered(
    std::optional<lichess::ApiError> error = std::nullopt) {
    return [error](ArenaHarness& h) {
        return h.desk.on(arena::JoinAnswered{"arena001", error}, h.clock.now());
    };
}
lichess::GameEventInfo arena_game_info(const std::string& id, const std::string& tournament) {
    lichess::GameEventInfo g;
    g.game_id = id;
    g.source = "arena";
    g.tournament_id = tournament;
    g.color = lichess::Color::White;
    g.opponent = lichess::GameOpponent{};
    g.opponent->id = "rival";
    return g;
}
std::function<ArenaDesk::Requests(ArenaHarness&)> arena_game_starts(
    const std::string& id, const std::string& tournament = "arena001") {
    return [id, tournament](ArenaHarness& h) {
        const bool ours = h.desk.on_game_start(arena_game_info(id, tournament));
        ArenaDesk::Requests out;
        if (!ours) out.push_back(arena::Log{common::LogLevel::Debug, "not ours"});
        return out;
    };
}
// gameFinish of an arena game as noStart; `we_won`: the opponent was the one who did not move.
std::function<ArenaDesk::Requests(ArenaHarness&)> arena_no_start(const std::string& id,
                                                                 bool we_won) {
    return [id, we_won](ArenaHarness& h) {
        auto g = arena_game_info(id, "arena001");
        g.status = lichess::GameStatus::NoStart;
        g.winner = we_won ? lichess::Color::White : lichess::Color::Black;
        return h.desk.on_game_finish(g);
    };
}
// The game's session ended: its slot frees (the ChallengeDesk's part), then the arena's turn.
std::function<ArenaDesk::Requests(ArenaHarness&)> arena_session_ends(const std::string& id) {
    return [id](ArenaHarness& h) {
        (void)h.slots.on_game_finish(id);
        return h.desk.on_session_finished(id, h.clock.now());
    };
}
std::function<ArenaDesk::Requests(ArenaHarness&)> arena_shutdown() {
    return [](ArenaHarness& h) { return h.desk.stop(); };
}
// Another game takes (or gives back) a slot.
std::function<ArenaDesk::Requests(ArenaHarness&)> other_game_slot(bool starts) {
    return [starts](ArenaHarness& h) {
        if (starts)
            (void)h.slots.on_game_start("other001", "someone");
        else
            (void)h.slots.on_game_finish("other001");
        return ArenaDesk::Requests{};
    };
}

std::string arena_summary(const arena::Request& request) {
    return std::visit(
        [](const auto& r) -> std::string {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, arena::ReadArena>)
                return "read " + r.id;
            else if constexpr (std::is_same_v<T, arena::JoinArena>)
                return "join " + r.id + (r.join.pair_me_asap ? " asap" : "");
            else if constexpr (std::is_same_v<T, arena::WithdrawArena>)
                return "withdraw " + r.id;
            else
                return r.text == "not ours" ? "not ours" : "";  // other logs
        },
        request);
}

struct ArenaStep {
    std::function<ArenaDesk::Requests(ArenaHarness&)> input;
    std::chrono::milliseconds at;
    std::string expect;  // the requests' summaries, joined by ", "
    // The slots after the step: the arena's reservation, the active games; none: not checked.
    std::optional<std::pair<int, int>> reserved_active = std::nullopt;
    std::optional<bool> in_arena = std::nullopt;  // the arena is in ArenaDesk::joined()
};

struct ArenaRow {
    const char* name;
    std::vector<ArenaStep> steps;
    std::function<void(config::ChallengeConfig&)> config = nullptr;
};

std::ostream& operator<<(std::ostream& os, const ArenaRow& r) { return os << r.name; }

const std::function<void(lichess::Tournament&)> kNoBots = [](lichess::Tournament& t) {
    t.bots_allowed = false;
};
const std::function<void(lichess::Tournament&)> kFinished = [](lichess::Tournament& t) {
    t.is_finished = true;
    t.is_started = false;
    t.seconds_to_finish.reset();
};
const std::function<void(lichess::Tournament&)> kAtomic = [](lichess::Tournament& t) {
    t.variant = "atomic";
};
const std::function<void(lichess::Tournament&)> kBullet = [](lichess::Tournament& t) {
    t.clock_limit_s = 60;
};
const std::function<void(lichess::Tournament&)> kWithdrawn = [](lichess::Tournament& t) {
    t.me = lichess::TournamentMe{true, {}, {}};
};
const std::function<void(lichess::Tournament&)> kPaused = [](lichess::Tournament& t) {
    t.me = lichess::TournamentMe{true, 50, {}};
};
const std::function<void(lichess::Tournament&)> kPlayer = [](lichess::Tournament& t) {
    t.me = lichess::TournamentMe{};
};

// The rows' times are chrono literals; the using that brings them in stays in this block.
namespace arena_table {
using namespace std::chrono_literals;

const std::vector<ArenaRow> kArenaRows = {
    // Joining.
    {"JoinsShortlyBeforeItStartsWithASlotReservedFirst",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(10min), 100ms, "", std::pair(0, 0), false},
      {arena_tick(), 30s, ""},
      {arena_tick(), 60100ms, "read arena001"},
      {arena_answer(9min), 60200ms, ""},
      {arena_tick(), 8min + 200ms, "read arena001"},
      {arena_answer(2min), 8min + 300ms, "join arena001", std::pair(1, 0), false},
      {join_answered(), 8min + 400ms, "", std::pair(1, 0), true}}},
    {"WhileItRunsJoinsOnceWithPairMeAsapAndLetsLilaPair",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-5min), 100ms, "join arena001 asap", std::pair(1, 0)},
      {join_answered(), 200ms, "", std::nullopt, true},
      {arena_tick(), 30s, ""},
      {arena_tick(), 50200ms, ""},
      {arena_tick(), 60200ms, "read arena001"},
      {arena_answer(-6min, kPlayer), 60300ms, ""},
      {arena_tick(), 10min, "read arena001"}}},

    // Skipping, and saying why.
    {"AnArenaWithoutBotsIsSkippedOnceItStarts",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min, kNoBots), 100ms, "", std::pair(0, 0), false},
      {arena_tick(), 2min, ""}}},
    {"AnArenaWithoutBotsYetIsWatchedUntilItAllowsThem",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(90s, kNoBots), 100ms, "", std::pair(0, 0)},
      {arena_tick(), 60100ms, "read arena001"},
      {arena_answer(30s), 60200ms, "join arena001", std::pair(1, 0)}}},
    {"AnEndedArenaIsSkipped",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-2h, kFinished), 100ms, ""},
      {arena_tick(), 5min, ""}}},
    {"AVariantWeDoNotPlayIsSkipped",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min, kAtomic), 100ms, ""},
      {arena_tick(), 5min, ""}},
     [](config::ChallengeConfig& c) {
         c.variants = {"standard", "chess960"};
     }},
    {"ASpeedWeDoNotPlayIsSkipped",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min, kBullet), 100ms, ""},
      {arena_tick(), 5min, ""}},
     [](auto& c) {
         c.time_controls = {"blitz", "rapid"};
     }},
    {"AnArenaLichessDoesNotKnowIsDropped",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_read_fails(lila_fixtures::http_error(404, "Not found")), 100ms, ""},
      {arena_tick(), 5min, ""}}},
    {"AFailedReadIsTriedAgainLater",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_read_fails(lila_fixtures::http_error(502, "Bad Gateway")), 100ms, ""},
      {arena_tick(), 10s, ""},
      {arena_tick(), 30200ms, "read arena001"}}},

    // Its games and its slot.
    {"ItsGameTakesItsSlotAndGivesItBackWhenItEnds",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap"},
      {join_answered(), 200ms, "", std::pair(1, 0)},
      {arena_game_starts("game0001"), 1s, "", std::pair(0, 1)},
      {arena_tick(), 55s, ""},  // no join while we play in it
      {arena_session_ends("game0001"), 80s, "", std::pair(1, 0)},
      // lila pairs us again by itself: no join.
      {arena_tick(), 80100ms, "read arena001"}}},
    {"AGameOfAnArenaJoinedElsewhereIsNotOurs",
     {{arena_game_starts("game0001", "other999"), 0ms, "not ours"}}},
    {"NoFreeSlotMeansNoJoinUntilOneFrees",
     {{other_game_slot(true), 0ms, ""},
      {arena_tick(), 10ms, "read arena001"},
      {arena_answer(-1min), 100ms, "", std::pair(0, 1)},
      {arena_tick(), 2s, ""},
      {other_game_slot(false), 3s, ""},
      {arena_tick(), 4s, "join arena001 asap", std::pair(1, 0)}}},

    // Leaving.
    {"ANoStartLossJoinsAgainOnceItsSessionEnds",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap"},
      {join_answered(), 200ms, ""},
      {arena_game_starts("game0001"), 1s, ""},
      // lila withdraws the player who did not move, with no pause.
      {arena_no_start("game0001", false), 40s, "", std::nullopt, true},
      {arena_tick(), 40100ms, ""},
      {arena_session_ends("game0001"), 41s, "", std::pair(1, 0)},
      {arena_tick(), 41100ms, "join arena001 asap"},
      {join_answered(), 41200ms, "", std::pair(1, 0), true}}},
    {"AnOpponentsNoStartKeepsUsIn",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap"},
      {join_answered(), 200ms, ""},
      {arena_game_starts("game0001"), 1s, ""},
      {arena_no_start("game0001", true), 40s, "", std::nullopt, true},
      {arena_session_ends("game0001"), 41s, "", std::pair(1, 0)}}},
    {"LilasRefusalToLetUsJoinDropsTheArena",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap", std::pair(1, 0)},
      {join_answered(lila_fixtures::http_error(400, "Wrong entry code")), 200ms, "",
       std::pair(0, 0), false},
      {arena_tick(), 2min, ""}}},
    // lila's pause after a withdrawal near the top (ours at shutdown): waited out, then joined.
    {"APauseOnJoinIsReadThenWaitedOutThenJoinedAgain",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap", std::pair(1, 0)},
      {join_answered(lila_fixtures::http_error(400, "Your pause is not over yet")), 200ms, "",
       std::pair(1, 0), false},
      {arena_tick(), 300ms, "read arena001"},
      {arena_answer(-1min, kPaused), 400ms, ""},
      {arena_tick(), 30s, ""},
      {arena_tick(), 51500ms, "join arena001 asap"},
      {join_answered(), 51600ms, "", std::pair(1, 0), true}}},
    {"ARestartInsideThePauseWaitsItOutBeforeJoining",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min, kPaused), 100ms, "", std::pair(0, 0), false},
      {arena_tick(), 40s, ""},
      {arena_tick(), 51200ms, "join arena001 asap", std::pair(1, 0)},
      {join_answered(), 51300ms, "", std::pair(1, 0), true}}},
    {"A429OnAJoinIsTriedAgainAfterItsWait",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap"},
      {join_answered(lila_fixtures::http_error(429, "Too many requests")), 200ms, "",
       std::pair(1, 0), false},
      {arena_tick(), 59s, ""},
      {arena_tick(), 60300ms, "read arena001, join arena001 asap"}}},
    {"AJoinThatFailsOnTheWayIsTriedAgain",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap"},
      {join_answered(lila_fixtures::http_error(503, "Service Unavailable")), 200ms, "",
       std::pair(1, 0), false},
      {arena_tick(), 20s, ""},
      {arena_tick(), 30300ms, "join arena001 asap"}}},
    {"AReadShowingUsWithdrawnJoinsAgain",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap"},
      {join_answered(), 200ms, ""},
      {arena_tick(), 60200ms, "read arena001"},
      {arena_answer(-2min, kWithdrawn), 60300ms, "join arena001 asap", std::pair(1, 0), true}}},
    {"AReadShowingUsPausedWaitsThePauseOut",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap"},
      {join_answered(), 200ms, ""},
      {arena_tick(), 60200ms, "read arena001"},
      {arena_answer(-2min, kPaused), 60300ms, "", std::pair(1, 0), true},
      {arena_tick(), 111400ms, "join arena001 asap"}}},
    {"TheArenasEndFreesItsSlot",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-59min), 100ms, "join arena001 asap"},
      {join_answered(), 200ms, "", std::pair(1, 0), true},
      {arena_tick(), 61s, "", std::pair(0, 0), false}}},
    {"ShutdownWithdrawsFromTheArenasWeAreIn",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap"},
      {join_answered(), 200ms, "", std::pair(1, 0)},
      {arena_shutdown(), 10s, "withdraw arena001", std::pair(0, 0), false},
      {arena_tick(), 5min, ""}}},
    {"AStillReadingArenaIsJoinedWithItsPlayerEntry",
     {{arena_tick(), 0ms, "read arena001"},
      {arena_answer(-1min), 100ms, "join arena001 asap"},
      {join_answered(), 200ms, ""},
      {arena_tick(), 60200ms, "read arena001"},
      {arena_answer(-2min, kPlayer), 60300ms, "", std::pair(1, 0), true}}},
};
}  // namespace arena_table

class ArenaTable : public ::testing::TestWithParam<ArenaRow> {};

TEST_P(ArenaTable, Plays) {
    const ArenaRow& row = GetParam();
    config::ChallengeConfig config;
    if (row.config) row.config(config);
    ArenaHarness h(config);
    for (std::size_t i = 0; i < row.steps.size(); ++i) {
        const ArenaStep& step = row.steps[i];
        h.clock.t = h.t0 + step.at;
        const auto requests = step.input(h);
        std::string got;
        for (const auto& r : requests) {
            if (const auto* l = std::get_if<arena::Log>(&r)) h.logs.push_back(l->text);
            const std::string one = arena_summary(r);
            if (!one.empty()) got += (got.empty() ? "" : ", ") + one;
        }
        EXPECT_EQ(got, step.expect) << "step " << i + 1;
        if (step.reserved_active) {
            EXPECT_EQ(h.slots.reserved(), step.reserved_active->first) << "step " << i + 1;
            EXPECT_EQ(h.slots.active(), step.reserved_active->second) << "step " << i + 1;
        }
        if (step.in_arena) {
            EXPECT_EQ(h.desk.joined().size(), *step.in_arena ? 1u : 0u) << "step " << i + 1;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(ArenaDesk, ArenaTable, ::testing::ValuesIn(arena_table::kArenaRows),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- what the log says -------------------------------------------------------------------------

std::string arena_logs_of(const ArenaDesk::Requests& requests) {
    std::string text;
    for (const auto& r : requests)
        if (const auto* l = std::get_if<arena::Log>(&r)) text += l->text + "\n";
    return text;
}

TEST(ArenaDesk, EverySkipSaysWhy) {
    using namespace std::chrono_literals;
    struct Why {
        std::function<void(lichess::Tournament&)> shape;
        std::string says;
    };
    const std::vector<Why> rows = {
        {kNoBots, "arena001 (Bot Arena arena001): it does not allow bots; skipped"},
        {kAtomic, "its variant atomic is not in challenge.variants; skipped"},
        {kBullet, "its speed bullet (1+0) is not in challenge.time_controls; skipped"},
        {kFinished, "it has ended; skipped"},
    };
    for (const Why& row : rows) {
        config::ChallengeConfig config;
        config.time_controls = {"blitz"};
        config.variants = {"standard", "chess960"};
        ArenaHarness h(config);
        (void)h.desk.tick(h.clock.now(), h.wall());
        auto t = lila_arena("arena001", -1min, h.wall());
        row.shape(t);
        const std::string text = arena_logs_of(
            h.desk.on(arena::ArenaRead{"arena001", t, std::nullopt}, h.clock.now(), h.wall()));
        EXPECT_NE(text.find(row.says), std::string::npos) << text;
    }
}

TEST(ArenaDesk, LilasRefusalAndANoStartAreLoggedAsWarnings) {
    using namespace std::chrono_literals;
    ArenaHarness h({});
    (void)h.desk.tick(h.clock.now(), h.wall());
    (void)h.desk.on(arena::ArenaRead{"arena001", lila_arena("arena001", -1min, h.wall()), {}},
                    h.clock.now(), h.wall());
    const auto refused = h.desk.on(
        arena::JoinAnswered{"arena001", lila_fixtures::http_error(400, "Wrong entry code")},
        h.clock.now());
    ASSERT_EQ(refused.size(), 1u);
    const auto& line = std::get<arena::Log>(refused[0]);
    EXPECT_EQ(line.level, common::LogLevel::Warn);
    EXPECT_EQ(line.text,
              "arena arena001 (Bot Arena arena001): lila refused to let us join: Wrong entry "
              "code; skipped");
}

// A read and a join run side by side. A read lila answered before it saw our join still shows
// us withdrawn; arriving after the join's answer, it is read again, not joined on a second time.
TEST(ArenaDesk, AReadAskedBeforeOurJoinWasAnsweredDoesNotJoinTwice) {
    using namespace std::chrono_literals;
    ArenaHarness h({});
    const auto count = [](const ArenaDesk::Requests& out, auto kind) {
        return std::count_if(out.begin(), out.end(), [&](const arena::Request& r) {
            return std::holds_alternative<decltype(kind)>(r);
        });
    };
    (void)h.desk.tick(h.clock.now(), h.wall());
    h.clock.advance(100ms);
    (void)arena_answer(-1min, kPaused)(h);  // lila pauses us for 50 s
    h.clock.advance(60s);                   // the pause is over and the next read is due
    const auto both = h.desk.tick(h.clock.now(), h.wall());
    ASSERT_EQ(count(both, arena::ReadArena{}), 1);
    ASSERT_EQ(count(both, arena::JoinArena{}), 1);
    h.clock.advance(100ms);
    (void)join_answered()(h);
    h.clock.advance(100ms);
    const auto stale = arena_answer(-1min, kWithdrawn)(h);  // lila read it before the join
    EXPECT_EQ(count(stale, arena::JoinArena{}), 0);
    const auto again = h.desk.tick(h.clock.now(), h.wall());
    EXPECT_EQ(count(again, arena::ReadArena{}), 1);
    EXPECT_EQ(count(again, arena::JoinArena{}), 0);
    h.clock.advance(100ms);
    // A read asked for after the join shows lila's own verdict, and is acted on.
    EXPECT_EQ(count(arena_answer(-1min, kWithdrawn)(h), arena::JoinArena{}), 1);
}

TEST(ArenaDesk, TheJoinCarriesTheTeamAndTheEntryCode) {
    using namespace std::chrono_literals;
    config::ChallengeConfig challenge;
    test_support::ManualClock clock;
    GameSlots slots(1, 30s, clock.fn());
    ArenaDesk desk({config::TournamentConfig{"battle01", "my-team", "s3cret"}}, challenge, slots);
    const auto wall = std::chrono::system_clock::now();
    (void)desk.tick(clock.now(), wall);
    const auto out = desk.on(arena::ArenaRead{"battle01", lila_arena("battle01", 60s, wall), {}},
                             clock.now(), wall);
    ASSERT_EQ(out.size(), 1u);
    const auto& join = std::get<arena::JoinArena>(out[0]).join;
    EXPECT_EQ(join.team, std::optional<std::string>("my-team"));
    EXPECT_EQ(join.password, std::optional<std::string>("s3cret"));
    EXPECT_FALSE(join.pair_me_asap);  // not started: lila would ignore it
}

TEST(ArenaDesk, JoinedArenasNameTheirEnd) {
    using namespace std::chrono_literals;
    ArenaHarness h({});
    (void)h.desk.tick(h.clock.now(), h.wall());
    const auto t = lila_arena("arena001", -10min, h.wall());
    (void)h.desk.on(arena::ArenaRead{"arena001", t, {}}, h.clock.now(), h.wall());
    (void)h.desk.on(arena::JoinAnswered{"arena001", {}}, h.clock.now());
    const auto in_arenas = h.desk.joined();
    ASSERT_EQ(in_arenas.size(), 1u);
    EXPECT_EQ(in_arenas[0].id, "arena001");
    EXPECT_EQ(in_arenas[0].name, "Bot Arena arena001");
    ASSERT_TRUE(in_arenas[0].ends_at.has_value());
    EXPECT_EQ(*in_arenas[0].ends_at, h.wall() + 50min);
}

}  // namespace
}  // namespace service
