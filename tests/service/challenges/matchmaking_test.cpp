// Matchmaker with a hand-moved clock and a fake Lichess that answers its requests at once: when it
// challenges, whom, at what, and what it learns from declines, silence and the daily bot-vs-bot
// limit.
#include "service/challenges/matchmaking.hpp"
#include "tests/service/challenges/lila_fixtures.hpp"
#include "tests/support/manual_clock.hpp"

#include <gtest/gtest.h>

#include <deque>

namespace service {
namespace {

lichess::User bot(std::string name, int rating,
                  std::vector<std::string> perfs = {"bullet", "blitz", "rapid"}) {
    lichess::User u;
    u.id = name;
    for (char& c : u.id) c = char(std::tolower(static_cast<unsigned char>(c)));
    u.username = std::move(name);
    u.title = "BOT";
    for (const auto& p : perfs) u.perfs[p] = lichess::PerfRating{rating, 100, false};
    return u;
}

struct SentChallenge {
    std::string user;
    lichess::ChallengeRequest request;
};

// Answers the matchmaker's requests (match::Request) as Lichess would, and records them.
class FakeApi final {
  public:
    std::vector<lichess::User> online;
    std::map<std::string, int> my_ratings{{"bullet", 1500}, {"blitz", 1500}, {"chess960", 1500}};
    // Errors for the next create_challenge calls, in order; empty: success.
    std::deque<lichess::ApiError> create_errors;
    std::optional<std::chrono::milliseconds> paused;

    std::vector<SentChallenge> sent;
    std::vector<std::string> cancelled;
    int account_calls = 0;
    int online_calls = 0;

    lichess::Result<lichess::Account> account() {
        ++account_calls;
        lichess::Account a;
        a.id = "outpostbot";
        a.username = "OutpostBot";
        for (const auto& [perf, r] : my_ratings) a.perfs[perf] = lichess::PerfRating{r, 10, false};
        return a;
    }
    lichess::Result<std::vector<lichess::User>> bots_online() {
        ++online_calls;
        return online;
    }
    lichess::Result<lichess::ChallengeInfo> create_challenge(
        std::string_view username, const lichess::ChallengeRequest& request) {
        sent.push_back({std::string(username), request});
        if (!create_errors.empty()) {
            lichess::ApiError e = create_errors.front();
            create_errors.pop_front();
            return e;
        }
        lichess::ChallengeInfo c;
        c.id = "chal" + std::to_string(sent.size());
        return c;
    }
    lichess::Result<lichess::Ok> cancel_challenge(std::string_view id) {
        cancelled.emplace_back(id);
        return lichess::Ok{};
    }

    // Carries out `requests` and hands each answer back, until the matchmaker asks no more.
    void serve(Matchmaker& mm, Matchmaker::Requests requests) {
        while (!requests.empty()) {
            Matchmaker::Requests next;
            for (auto& request : requests) {
                Matchmaker::Requests more =
                    std::visit([&](auto& r) { return answer(mm, r); }, request);
                next.insert(next.end(), more.begin(), more.end());
            }
            requests = std::move(next);
        }
    }

  private:
    Matchmaker::Requests answer(Matchmaker& mm, const match::ReadAccount&) {
        auto a = account();
        return mm.on(match::AccountRead{*a, ""});
    }
    Matchmaker::Requests answer(Matchmaker& mm, const match::ListBots&) {
        return mm.on(match::BotsListed{*bots_online(), ""});
    }
    Matchmaker::Requests answer(Matchmaker& mm, const match::CreateChallenge& create) {
        auto c = create_challenge(create.username, create.request);
        if (!c) return mm.on(match::ChallengeCreated{create, std::nullopt, c.error()});
        return mm.on(match::ChallengeCreated{create, *c, std::nullopt});
    }
    Matchmaker::Requests answer(Matchmaker& mm, const match::CancelChallenge& cancel) {
        (void)cancel_challenge(cancel.id);
        mm.on(match::CancelAnswered{cancel, std::nullopt});
        return {};
    }
};

config::MatchmakingConfig enabled_config() {
    config::MatchmakingConfig c;
    c.enabled = true;
    c.challenge_timeout_min = 10;
    c.time_controls = {"3+2"};
    c.variants = {"standard"};
    c.rated = false;
    c.opponent_min_rating = 1000;
    c.opponent_max_rating = 2500;
    c.opponent_rating_difference = 0;
    return c;
}

lichess::ChallengeInfo declined(const std::string& id, const std::string& key) {
    lichess::ChallengeInfo c;
    c.id = id;
    c.status = "declined";
    c.decline_reason_key = key;
    return c;
}

// A Matchmaker with its collaborators; times are short but the clock only moves by hand.
struct Rig {
    explicit Rig(config::MatchmakingConfig c = enabled_config(), int concurrency = 1)
        : cfg(std::move(c)),
          slots(concurrency, std::chrono::seconds(30), [this] { return clock.t; }),
          mm(
              cfg, slots, "OutpostBot", times(), [this] { return clock.t; }, 42) {}

    static MatchmakingTimes times() {
        using namespace std::chrono_literals;
        MatchmakingTimes t;
        t.answer_timeout = 25s;
        t.between_challenges = 60s;
        return t;
    }
    // Moves the clock in steps of the Bot's tick, ticking the matchmaker each time.
    void run_for(std::chrono::milliseconds d) {
        using namespace std::chrono_literals;
        for (auto end = clock.t + d; clock.t < end;) {
            clock.advance(200ms);
            api.serve(mm, mm.tick(api.paused));
        }
    }
    // The first 10 idle minutes (challenge_timeout_min), after which exactly one was sent.
    [[nodiscard]] bool first_challenge_sent() {
        using namespace std::chrono_literals;
        run_for(10min);
        return api.sent.size() == 1;
    }

    test_support::ManualClock clock;
    config::MatchmakingConfig cfg;
    FakeApi api;
    GameSlots slots;
    Matchmaker mm;
};

TEST(Matchmaker, ChallengesAFittingBotOnceIdleForTheTimeout) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("OutpostBot", 1500), bot("Rival", 1600)};
    rig.run_for(9min + 59s);
    EXPECT_TRUE(rig.api.sent.empty());
    rig.run_for(2s);
    ASSERT_EQ(rig.api.sent.size(), 1u);
    const auto& s = rig.api.sent[0];
    EXPECT_EQ(s.user, "Rival");  // never ourselves
    EXPECT_EQ(s.request.clock_limit_s, 180);
    EXPECT_EQ(s.request.clock_increment_s, 2);
    EXPECT_FALSE(s.request.days.has_value());
    EXPECT_FALSE(s.request.rated);
    EXPECT_EQ(s.request.variant, "standard");
    EXPECT_EQ(s.request.color, "random");
    // The challenge holds the only slot, against that opponent.
    EXPECT_EQ(rig.mm.pending_challenge(), std::optional<std::string>("chal1"));
    EXPECT_EQ(rig.slots.reserved(), 1);
    EXPECT_EQ(rig.slots.free(), 0);
    EXPECT_EQ(rig.slots.games_with("rival"), 1);
    // Waiting for an answer sends nothing more.
    rig.run_for(20s);
    EXPECT_EQ(rig.api.sent.size(), 1u);
}

TEST(Matchmaker, ARoundAsksOneThingAtATimeAndNoMoreWhileItWaits) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Rival", 1600)};
    rig.clock.advance(10min + 1s);
    auto first = rig.mm.tick(std::nullopt);
    ASSERT_EQ(first.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<match::ReadAccount>(first[0]));  // our ratings first
    rig.clock.advance(2min);
    EXPECT_TRUE(rig.mm.tick(std::nullopt).empty());  // its answer has not come yet
    auto next = rig.mm.on(match::AccountRead{*rig.api.account(), ""});
    ASSERT_EQ(next.size(), 1u);
    EXPECT_TRUE(std::holds_alternative<match::ListBots>(next[0]));
    EXPECT_TRUE(rig.mm.tick(std::nullopt).empty());
    rig.api.serve(rig.mm, std::move(next));
    ASSERT_EQ(rig.api.sent.size(), 1u);
    EXPECT_EQ(rig.api.sent[0].user, "Rival");
    EXPECT_EQ(rig.mm.pending_challenge(), std::optional<std::string>("chal1"));
}

TEST(Matchmaker, DisabledNeverCallsLichess) {
    using namespace std::chrono_literals;
    auto cfg = enabled_config();
    cfg.enabled = false;
    Rig rig(cfg);
    rig.api.online = {bot("Rival", 1600)};
    rig.run_for(2h);
    EXPECT_TRUE(rig.api.sent.empty());
    EXPECT_EQ(rig.api.online_calls, 0);
    EXPECT_EQ(rig.api.account_calls, 0);
}

TEST(Matchmaker, AGameResetsTheIdleTimeUnlessAllowedDuringGames) {
    using namespace std::chrono_literals;
    Rig rig(enabled_config(), 2);
    rig.api.online = {bot("Rival", 1600)};
    rig.run_for(9min);
    ASSERT_EQ(rig.slots.on_game_start("game0001", "human"), Admission::Admitted);
    rig.run_for(30min);  // busy all along
    EXPECT_TRUE(rig.api.sent.empty());
    rig.slots.on_game_finish("game0001");
    rig.run_for(9min + 50s);  // idle again, but not yet for 10 minutes since the game ended
    EXPECT_TRUE(rig.api.sent.empty());
    rig.run_for(20s);
    EXPECT_EQ(rig.api.sent.size(), 1u);

    auto cfg = enabled_config();
    cfg.allow_during_games = true;
    Rig during(cfg, 2);
    during.api.online = {bot("Rival", 1600)};
    ASSERT_EQ(during.slots.on_game_start("game0001", "human"), Admission::Admitted);
    during.run_for(10min);
    EXPECT_EQ(during.api.sent.size(), 1u);  // a second slot was free
}

TEST(Matchmaker, NoFreeSlotNoChallenge) {
    using namespace std::chrono_literals;
    auto cfg = enabled_config();
    cfg.allow_during_games = true;
    Rig rig(cfg, 1);
    rig.api.online = {bot("Rival", 1600)};
    ASSERT_EQ(rig.slots.on_game_start("game0001", "human"), Admission::Admitted);
    rig.run_for(1h);
    EXPECT_TRUE(rig.api.sent.empty());
}

TEST(Matchmaker, AnAcceptedChallengeWaitingForItsGameIsNotIdle) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Rival", 1600)};
    rig.run_for(9min);
    ASSERT_TRUE(rig.slots.try_reserve("incoming", "human", 5min));
    rig.run_for(5min);
    EXPECT_TRUE(rig.api.sent.empty());
}

TEST(Matchmaker, RatingWindowBlockListAndPerfDecideWhoFits) {
    auto cfg = enabled_config();
    cfg.block_list = {"blocked"};
    cfg.opponent_rating_difference = 200;
    Rig rig(cfg);
    rig.api.my_ratings["blitz"] = 1800;
    rig.api.online = {
        bot("TooWeak", 900),               // below opponent_min_rating
        bot("TooStrong", 2600),            // above opponent_max_rating
        bot("FarBelow", 1550),             // in the window, but 250 below our 1800
        bot("Blocked", 1800),              // block_list, matched case-insensitively
        bot("NoBlitz", 1800, {"bullet"}),  // no rating for the chosen speed
        bot("Human", 1800),
        bot("Right", 1950),
    };
    rig.api.online[5].title = "GM";
    ASSERT_TRUE(rig.first_challenge_sent());
    EXPECT_EQ(rig.api.sent[0].user, "Right");
    EXPECT_EQ(rig.api.account_calls, 1);
}

TEST(Matchmaker, Chess960IsJudgedByTheChess960Rating) {
    auto cfg = enabled_config();
    cfg.variants = {"chess960"};
    Rig rig(cfg);
    rig.api.online = {bot("BlitzOnly", 1600), bot("Fischer", 2000, {"chess960"})};
    ASSERT_TRUE(rig.first_challenge_sent());
    EXPECT_EQ(rig.api.sent[0].user, "Fischer");
    EXPECT_EQ(rig.api.sent[0].request.variant, "chess960");
}

TEST(Matchmaker, AVariantIsJudgedByThatVariantsRating) {
    auto cfg = enabled_config();
    cfg.variants = {"crazyhouse"};
    Rig rig(cfg);
    rig.api.my_ratings["crazyhouse"] = 1700;
    rig.api.online = {bot("BlitzOnly", 1700), bot("Housey", 1800, {"crazyhouse"})};
    ASSERT_TRUE(rig.first_challenge_sent());
    EXPECT_EQ(rig.api.sent[0].user, "Housey");
    EXPECT_EQ(rig.api.sent[0].request.variant, "crazyhouse");
}

TEST(Matchmaker, NobodyFitsTriesAgainAfterAPause) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("TooWeak", 500)};
    rig.run_for(10min);
    EXPECT_EQ(rig.api.online_calls, 1);
    rig.run_for(59s);
    EXPECT_EQ(rig.api.online_calls, 1);
    rig.api.online.push_back(bot("Rival", 1600));
    rig.run_for(2s);
    EXPECT_EQ(rig.api.online_calls, 2);
    ASSERT_EQ(rig.api.sent.size(), 1u);
}

TEST(Matchmaker, UnansweredChallengeIsCancelledAfter25Seconds) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Sleepy", 1600)};
    ASSERT_TRUE(rig.first_challenge_sent());
    rig.run_for(24s);
    EXPECT_TRUE(rig.api.cancelled.empty());
    rig.run_for(2s);
    ASSERT_EQ(rig.api.cancelled.size(), 1u);
    EXPECT_EQ(rig.api.cancelled[0], "chal1");
    EXPECT_FALSE(rig.mm.pending_challenge().has_value());
    EXPECT_EQ(rig.slots.reserved(), 0);  // the slot is free again
    // Sleepy is not asked the same again for an hour; someone else is, a minute after the
    // last challenge.
    rig.run_for(10min);
    EXPECT_EQ(rig.api.sent.size(), 1u);
    rig.api.online.push_back(bot("Awake", 1600));
    rig.run_for(1min);
    ASSERT_EQ(rig.api.sent.size(), 2u);
    EXPECT_EQ(rig.api.sent[1].user, "Awake");
    rig.mm.on_declined(declined("chal2", "generic"));
    rig.run_for(50min);
    ASSERT_EQ(rig.api.sent.size(), 3u);
    EXPECT_EQ(rig.api.sent[2].user, "Sleepy");
}

TEST(Matchmaker, AcceptedChallengeBecomesTheGame) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Rival", 1600)};
    ASSERT_TRUE(rig.first_challenge_sent());
    // What the Bot does with the gameStart: GameSlots first, then the matchmaker.
    EXPECT_EQ(rig.slots.on_game_start("chal1", "rival"), Admission::Admitted);
    rig.mm.on_game_start("chal1");
    EXPECT_FALSE(rig.mm.pending_challenge().has_value());
    rig.run_for(5min);
    EXPECT_TRUE(rig.api.cancelled.empty());  // never cancel a challenge that became a game
    EXPECT_EQ(rig.api.sent.size(), 1u);      // playing: not idle
    EXPECT_EQ(rig.slots.active(), 1);
}

TEST(Matchmaker, DeclineIsNotRepeatedForThatSpeedVariantAndModeForADay) {
    using namespace std::chrono_literals;
    auto cfg = enabled_config();
    cfg.time_controls = {"1+0", "3+2"};  // bullet and blitz
    Rig rig(cfg);
    rig.api.online = {bot("Picky", 1600)};
    ASSERT_TRUE(rig.first_challenge_sent());
    const int first_limit = *rig.api.sent[0].request.clock_limit_s;
    rig.mm.on_declined(declined("chal1", "generic"));
    EXPECT_FALSE(rig.mm.pending_challenge().has_value());
    EXPECT_EQ(rig.slots.reserved(), 0);
    // The other time control is still worth asking for; the declined one is not.
    rig.run_for(61s);
    ASSERT_EQ(rig.api.sent.size(), 2u);
    EXPECT_EQ(rig.api.sent[1].user, "Picky");
    EXPECT_NE(*rig.api.sent[1].request.clock_limit_s, first_limit);
    rig.mm.on_declined(declined("chal2", "later"));
    // Both declined now: nobody to ask until a day after the first decline.
    rig.run_for(23h + 58min);
    EXPECT_EQ(rig.api.sent.size(), 2u);
    rig.run_for(2min);
    ASSERT_EQ(rig.api.sent.size(), 3u);
    EXPECT_EQ(*rig.api.sent[2].request.clock_limit_s, first_limit);
}

TEST(Matchmaker, ADeclineOfOthersChallengesIsIgnored) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Rival", 1600)};
    rig.run_for(10min);
    rig.mm.on_declined(declined("someone-else", "generic"));
    EXPECT_EQ(rig.mm.pending_challenge(), std::optional<std::string>("chal1"));
}

TEST(Matchmaker, DeclineReasonNamesTheAspectToAvoid) {
    const auto r = [](std::string_view key) {
        return refusal_for(key, "picky", "blitz", "chess960", "rated");
    };
    const auto aspect = [](const Refusal& x) { return x.speed + "/" + x.variant + "/" + x.mode; };
    EXPECT_EQ(aspect(r("toofast")), "blitz//");
    EXPECT_EQ(aspect(r("tooSlow")), "blitz//");
    EXPECT_EQ(aspect(r("timecontrol")), "blitz//");
    EXPECT_EQ(aspect(r("rated")), "//rated");
    EXPECT_EQ(aspect(r("casual")), "//rated");
    EXPECT_EQ(aspect(r("standard")), "/chess960/");
    EXPECT_EQ(aspect(r("variant")), "/chess960/");
    EXPECT_EQ(aspect(r("nobot")), "//");
    EXPECT_EQ(aspect(r("generic")), "blitz/chess960/rated");
    EXPECT_EQ(aspect(r("later")), "blitz/chess960/rated");
    EXPECT_EQ(aspect(r("somethingnew")), "blitz/chess960/rated");
    EXPECT_EQ(r("generic").bot, "picky");
}

TEST(Matchmaker, NoBotDeclineRulesOutTheBotForEverySetting) {
    using namespace std::chrono_literals;
    auto cfg = enabled_config();
    cfg.time_controls = {"1+0", "3+2", "10+0"};
    cfg.variants = {"standard", "chess960"};
    Rig rig(cfg);
    auto picky = bot("NoBots", 1600, {"bullet", "blitz", "rapid", "chess960"});
    rig.api.online = {picky};
    ASSERT_TRUE(rig.first_challenge_sent());
    rig.mm.on_declined(declined("chal1", "nobot"));
    rig.run_for(2h);
    EXPECT_EQ(rig.api.sent.size(), 1u);
}

TEST(Matchmaker, DailyBotLimitPausesMatchmakingForTheSecondsGiven) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Rival", 1600), bot("Other", 1700)};
    rig.api.create_errors.push_back(lila_fixtures::http_error(
        429,
        "You played 100 games against other bots today, please wait before challenging "
        "another bot.",
        "bot.vsBot.day", 3h));
    ASSERT_TRUE(rig.first_challenge_sent());
    ASSERT_TRUE(rig.mm.paused_for().has_value());
    EXPECT_GT(*rig.mm.paused_for(), 2h + 59min);
    EXPECT_EQ(rig.slots.reserved(), 0);
    rig.run_for(2h + 59min);
    EXPECT_EQ(rig.api.sent.size(), 1u);
    const int online_calls = rig.api.online_calls;
    rig.run_for(1min + 30s);
    EXPECT_EQ(rig.api.sent.size(), 2u);
    EXPECT_EQ(rig.api.online_calls, online_calls + 1);
}

TEST(Matchmaker, ClientPauseOfChallengeCreationIsRespected) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Rival", 1600)};
    rig.api.paused = 5min;
    rig.run_for(12min);
    EXPECT_TRUE(rig.api.sent.empty());
    EXPECT_EQ(rig.api.online_calls, 0);
    rig.api.paused.reset();
    rig.run_for(3min + 30s);  // the pause read at 10 min ends at 15 min
    EXPECT_EQ(rig.api.sent.size(), 1u);
}

TEST(Matchmaker, OpponentOutOfBotGamesIsSkippedNotAPause) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Tired", 1600)};
    rig.api.create_errors.push_back(lila_fixtures::http_error(
        400,
        "Tired played 100 games against other bots today, please wait until "
        "2030-01-01T00:00:00Z to challenge them."));
    ASSERT_TRUE(rig.first_challenge_sent());
    EXPECT_FALSE(rig.mm.paused_for().has_value());
    rig.api.online.push_back(bot("Fresh", 1600));
    rig.run_for(61s);
    ASSERT_EQ(rig.api.sent.size(), 2u);
    EXPECT_EQ(rig.api.sent[1].user, "Fresh");
}

TEST(Matchmaker, OtherRefusalsOfTheRequestCountAsADecline) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Closed", 1600)};
    rig.api.create_errors.push_back(
        lila_fixtures::http_error(400, "Closed does not accept challenges."));
    ASSERT_TRUE(rig.first_challenge_sent());
    rig.run_for(3h);
    EXPECT_EQ(rig.api.sent.size(), 1u);
}

TEST(Matchmaker, NetworkFailureIsRetriedLater) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Rival", 1600)};
    lichess::ApiError down;
    down.kind = lichess::ApiError::Kind::Network;
    down.message = "connection refused";
    rig.api.create_errors.push_back(down);
    ASSERT_TRUE(rig.first_challenge_sent());
    rig.run_for(61s);
    ASSERT_EQ(rig.api.sent.size(), 2u);
    EXPECT_EQ(rig.api.sent[1].user, "Rival");
}

TEST(Matchmaker, StopCancelsThePendingChallengeAndSendsNoMore) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Rival", 1600)};
    ASSERT_TRUE(rig.first_challenge_sent());
    rig.api.serve(rig.mm, rig.mm.stop());
    EXPECT_EQ(rig.api.cancelled, std::vector<std::string>{"chal1"});
    EXPECT_EQ(rig.slots.reserved(), 0);
    rig.run_for(2h);
    EXPECT_EQ(rig.api.sent.size(), 1u);
}

TEST(Matchmaker, OurRatingsAreReadAgainAfterAGame) {
    using namespace std::chrono_literals;
    auto cfg = enabled_config();
    cfg.opponent_rating_difference = 100;
    Rig rig(cfg);
    rig.api.online = {bot("Near", 1550)};
    ASSERT_TRUE(rig.first_challenge_sent());
    EXPECT_EQ(rig.api.account_calls, 1);
    ASSERT_EQ(rig.slots.on_game_start("chal1", "near"), Admission::Admitted);
    rig.mm.on_game_start("chal1");
    rig.run_for(1min);
    rig.api.my_ratings["blitz"] = 1700;  // we won a lot
    rig.slots.on_game_finish("chal1");
    rig.run_for(11min);
    EXPECT_EQ(rig.api.account_calls, 2);
    EXPECT_EQ(rig.api.sent.size(), 1u);  // Near (1550) is now 150 below us
}

TEST(Matchmaker, ABotOnAnOnlineBlockListIsNeverChallenged) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Blocked", 1600), bot("Welcome", 1600)};
    rig.mm.set_online_block_list([](std::string_view name) { return name == "Blocked"; });
    ASSERT_TRUE(rig.first_challenge_sent());
    EXPECT_EQ(rig.api.sent[0].user, "Welcome");
    // With only the blocked bot online, nobody fits.
    rig.api.online = {bot("Blocked", 1600)};
    rig.mm.on_declined(declined("chal1", "generic"));
    rig.run_for(30min);
    EXPECT_EQ(rig.api.sent.size(), 1u);
}

TEST(Matchmaker, DeclinesRememberedBeforeARestartStillHold) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Grumpy", 1600)};
    // What a restart reads back: Grumpy declined any speed an hour ago, for 24 h; an old entry
    // already over is dropped.
    rig.mm.restore({Refusal{"GRUMPY", "", "", "", rig.clock.t + 23h},
                    Refusal{"other", "", "", "", rig.clock.t - 1s}});
    EXPECT_EQ(rig.mm.refusals().size(), 1u);
    EXPECT_EQ(rig.mm.refusals()[0].bot, "grumpy");
    rig.run_for(30min);
    EXPECT_TRUE(rig.api.sent.empty());
}

TEST(Matchmaker, EveryDeclineIsHandedOverToBeSaved) {
    using namespace std::chrono_literals;
    Rig rig;
    rig.api.online = {bot("Rival", 1600)};
    std::vector<std::vector<Refusal>> saved;
    rig.mm.on_remember([&](const std::vector<Refusal>& r) { saved.push_back(r); });
    ASSERT_TRUE(rig.first_challenge_sent());
    rig.mm.on_declined(declined("chal1", "tooFast"));
    ASSERT_EQ(saved.size(), 1u);
    ASSERT_EQ(saved[0].size(), 1u);
    EXPECT_EQ(saved[0][0].bot, "rival");
    EXPECT_EQ(saved[0][0].speed, "blitz");
    EXPECT_EQ(saved[0][0].until, rig.clock.t + 24h);
}

}  // namespace
}  // namespace service
