// RequestRunner against the Lichess emulator in-process: each request's answer comes back to
// `deliver` with what its owner asked (the challenge, the decline's reason), an accept overtakes
// requests the server holds, a withdrawal from an arena waits out a 429 and is sent again, and a
// game's calls run on the game's thread, past the requests the server holds, and are answered
// there.
#include "service/daemon/request_runner.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "emulator_fixture.hpp"
#include "tests/service/daemon/recording_game_api.hpp"

namespace {

// What `deliver` got, in order, and a bounded wait for it.
class Answers {
  public:
    void push(service::LichessAnswer answer) {
        std::lock_guard lock(mutex_);
        answers_.push_back(std::move(answer));
        changed_.notify_all();
    }
    // Waits (at most 20 s) until `n` answers came; a copy of them.
    std::vector<service::LichessAnswer> wait_for(std::size_t n) {
        using namespace std::chrono_literals;
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, 20s, [&] { return answers_.size() >= n; });
        return answers_;
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<service::LichessAnswer> answers_;
};

// The runner's lanes for a game's calls and for chat, over the test's client.
struct GameLanes {
    explicit GameLanes(lichess::Api& api) : games(api), chat(api) {}
    service::LichessGameApi games;
    service::ChatSender chat;
};

lichess::ApiOptions options_for(const emu::EmulatorFixture& fx) {
    lichess::ApiOptions options;
    options.http.base_url = fx.base_url();
    options.http.token = fx.token();
    return options;
}

// Two open challenges; the server holds every decline for 1.5 s.
constexpr const char* kHeldDeclines = R"(
challenges:
  - {id: chal0001, at_ms: 0, challenger: {name: Rival, rating: 1800}, clock: {limit: 180, increment: 2}}
  - {id: chal0002, at_ms: 0, challenger: {name: Other, rating: 1800}, clock: {limit: 180, increment: 2}}
faults:
  - {kind: delay, target: challenge, path: /decline, delay_ms: 1500, count: -1}
)";

// The emulator of kHeldDeclines, a client at it, and what a runner counts and answers.
struct HeldDeclines {
    emu::EmulatorFixture fx{kHeldDeclines};
    lichess::Api api{options_for(fx)};
    service::Metrics metrics;
    Answers answers;
    // Both challenges are open.
    bool open() {
        return fx.wait_until([&] { return fx->challenges().size() == 2; });
    }
};

service::challenge::Decline decline(std::string id, lichess::DeclineReason reason, bool counted) {
    service::challenge::Decline d;
    d.challenge_id = std::move(id);
    d.reason = reason;
    d.counted = counted;
    return d;
}

int requests_to(emu::EmulatorFixture& fx, const std::string& part) {
    int n = 0;
    for (const auto& r : fx->requests()) n += r.path.find(part) != std::string::npos ? 1 : 0;
    return n;
}

TEST(RequestRunner, EachAnswerGoesBackWithWhatItsOwnerAsked) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
account: {username: OutpostBot}
challenges:
  - {id: chal0001, at_ms: 0, challenger: {name: Rival, title: BOT, rating: 1800},
     clock: {limit: 180, increment: 2}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return fx->challenges().size() == 1; }));
    lichess::Api api(options_for(fx));
    service::Metrics metrics;
    Answers answers;
    {
        GameLanes lanes(api);
        service::RequestRunner runner(
            api, lanes.games, lanes.chat, metrics,
            [&](service::LichessAnswer a) { answers.push(std::move(a)); }, 2);
        runner.run(service::challenge::ReadRatings{});
        ASSERT_EQ(answers.wait_for(1).size(), 1u);
        runner.run(decline("chal0001", lichess::DeclineReason::TooFast, true));
        ASSERT_EQ(answers.wait_for(2).size(), 2u);
        runner.run(service::arena::ReadArena{"nosuch01"});
        ASSERT_EQ(answers.wait_for(3).size(), 3u);
        EXPECT_TRUE(runner.wait_idle_until(std::chrono::steady_clock::now() + 10s));
    }
    const auto got = answers.wait_for(3);
    ASSERT_EQ(got.size(), 3u);

    const auto* ratings = std::get_if<service::challenge::RatingsRead>(&got[0]);
    ASSERT_NE(ratings, nullptr);
    ASSERT_TRUE(ratings->account.has_value()) << ratings->error;
    EXPECT_EQ(ratings->account->id, "outpostbot");

    const auto* declined = std::get_if<service::challenge::DeclineAnswered>(&got[1]);
    ASSERT_NE(declined, nullptr);
    EXPECT_FALSE(declined->error.has_value()) << declined->error->describe();
    EXPECT_EQ(declined->decline.challenge_id, "chal0001");
    EXPECT_EQ(declined->decline.reason, lichess::DeclineReason::TooFast);
    EXPECT_EQ(metrics.challenges_declined.get("tooFast"), 1u);
    ASSERT_EQ(fx->challenges().size(), 1u);
    EXPECT_EQ(fx->challenges()[0].status, "declined");

    const auto* arena = std::get_if<service::arena::ArenaRead>(&got[2]);
    ASSERT_NE(arena, nullptr);
    EXPECT_EQ(arena->id, "nosuch01");
    EXPECT_FALSE(arena->arena.has_value());
    ASSERT_TRUE(arena->error.has_value());
    EXPECT_EQ(arena->error->status, 404);
}

TEST(RequestRunner, AnAcceptOvertakesDeclinesTheServerHolds) {
    using namespace std::chrono_literals;
    // Every decline is held for 1.5 s; the accept posted after two of them (one on each thread)
    // comes back first.
    HeldDeclines held;
    auto& [fx, api, metrics, answers] = held;
    ASSERT_TRUE(held.open());
    GameLanes lanes(api);
    service::RequestRunner runner(
        api, lanes.games, lanes.chat, metrics,
        [&](service::LichessAnswer a) { answers.push(std::move(a)); }, 2);
    for (int i = 0; i < 2; ++i)
        runner.run(decline("chal0002", lichess::DeclineReason::Generic, false));
    lichess::ChallengeInfo challenge;
    challenge.id = "chal0001";
    runner.run(service::challenge::Accept{challenge, "Rival", false});
    const auto got = answers.wait_for(1);
    ASSERT_GE(got.size(), 1u);
    const auto* accepted = std::get_if<service::challenge::AcceptAnswered>(&got[0]);
    ASSERT_NE(accepted, nullptr) << "the first answer was " << got[0].index();
    EXPECT_EQ(accepted->accept.who, "Rival");
    EXPECT_FALSE(accepted->error.has_value()) << accepted->error->describe();
    EXPECT_EQ(metrics.challenges_accepted.load(), 1);
    EXPECT_EQ(answers.wait_for(3).size(), 3u);
}

TEST(RequestRunner, AWithdrawalWaitsOutA429AndIsSentAgain) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
tournaments:
  - {id: arena001, name: Bot Arena, bots_allowed: true, clock: {limit: 180, increment: 0},
     starts_at_ms: 600000, duration_ms: 600000}
faults:
  - {kind: http_429, target: any, path: /withdraw, count: 1, retry_after_s: 1}
)");
    lichess::Api api(options_for(fx));
    service::Metrics metrics;
    Answers answers;
    {
        GameLanes lanes(api);
        service::RequestRunner runner(
            api, lanes.games, lanes.chat, metrics,
            [&](service::LichessAnswer a) { answers.push(std::move(a)); }, 2);
        runner.run(service::arena::WithdrawArena{"arena001"});
        EXPECT_TRUE(runner.wait_idle_until(std::chrono::steady_clock::now() + 20s));
    }
    EXPECT_EQ(requests_to(fx, "/withdraw"), 2);
    EXPECT_EQ(fx->faults_fired().size(), 1u);
    EXPECT_TRUE(answers.wait_for(0).empty());  // nobody waits on a withdrawal's answer
}

TEST(RequestRunner, AGamesCallsRunOnItsThreadPastHeldRequestsAndAreAnsweredThere) {
    using namespace std::chrono_literals;
    // The one thread of the pool is held by declines (1.5 s each); the game's calls do not wait.
    HeldDeclines held;
    auto& [fx, api, metrics, answers] = held;
    ASSERT_TRUE(held.open());
    test_support::RecordingGameApi games;
    games.abort_fails_ = true;
    service::ChatSender chat(api, "", 1ms);
    service::RequestRunner runner(
        api, games, chat, metrics, [&](service::LichessAnswer a) { answers.push(std::move(a)); },
        1);
    for (int i = 0; i < 2; ++i)
        runner.run(decline("chal0002", lichess::DeclineReason::Generic, false));

    service::game::PostMove move{.uci = "e2e4", .offer_draw = false, .give_up_at = {}, .ply = 1};
    const auto posted =
        runner.run_for_game({.game_id = "game0001", .call = move, .still_on = [] { return true; }});
    ASSERT_TRUE(posted.has_value());
    const auto* post = std::get_if<service::game::MovePosted>(&*posted);
    ASSERT_NE(post, nullptr) << "answered " << posted->index();
    EXPECT_TRUE(post->outcome.ok) << post->outcome.error;
    EXPECT_EQ(metrics.moves_played.load(), 1u);

    const auto taken = runner.run_for_game(
        {.game_id = "game0001", .call = service::game::AnswerTakeback{.accept = true}});
    ASSERT_TRUE(taken.has_value());
    const auto* takeback = std::get_if<service::game::TakebackAnswered>(&*taken);
    ASSERT_NE(takeback, nullptr);
    EXPECT_TRUE(takeback->accepted);

    // Leaving aborts; lila refusing the abort, the runner resigns.
    EXPECT_FALSE(
        runner
            .run_for_game({.game_id = "game0001", .call = service::game::LeaveGame{.abort = true}})
            .has_value());
    const auto resigned =
        runner.run_for_game({.game_id = "game0001", .call = service::game::Resign{}});
    ASSERT_TRUE(resigned.has_value());
    EXPECT_NE(std::get_if<service::game::ResignAnswered>(&*resigned), nullptr);

    // Every call ran here, before the pool answered any decline.
    EXPECT_TRUE(answers.wait_for(0).empty()) << "a decline came back before the game's calls";
    EXPECT_EQ(games.calls(),
              (std::vector<std::string>{"move e2e4", "takeback yes", "abort", "resign", "resign"}));
    for (const auto& thread : games.threads()) EXPECT_EQ(thread, std::this_thread::get_id());

    // A chat line goes to the chat's own paced lane.
    EXPECT_FALSE(
        runner
            .run_for_game({.game_id = "game0001", .call = service::game::Say{.text = "good game"}})
            .has_value());
    EXPECT_TRUE(fx.wait_until([&] { return requests_to(fx, "/chat") == 1; }));
    EXPECT_EQ(answers.wait_for(2).size(), 2u);
}

}  // namespace
