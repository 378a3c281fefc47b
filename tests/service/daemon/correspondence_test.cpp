// CorrespondenceDesk with a fake clock, check-ins answered from a fake playing list, and fake
// sessions: who gets a session when, the line, check-ins, parking, ends; nothing sleeps.
#include "service/daemon/correspondence.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

namespace service {
namespace {

// What a test controls of one fake session.
struct SessionState {
    std::string game_id;
    ParkingRules rules;
    bool finished = false;
    bool game_over = false;
    bool destroyed = false;
    std::optional<GamePolicies> policies;  // what the session hands back once finished
};

class FakeSession final : public DeskSession {
  public:
    explicit FakeSession(std::shared_ptr<SessionState> s) : s_(std::move(s)) {}
    ~FakeSession() override { s_->destroyed = true; }
    bool finished() const override { return s_->finished; }
    bool game_over() const override { return s_->game_over; }
    std::optional<GamePolicies> policies() const override { return s_->policies; }

  private:
    std::shared_ptr<SessionState> s_;
};

lichess::GameEventInfo corr(const std::string& id, std::optional<bool> my_turn,
                            std::optional<bool> has_moved = true,
                            const std::string& opponent = "rival") {
    lichess::GameEventInfo g;
    g.game_id = id;
    g.speed = "correspondence";
    g.is_my_turn = my_turn;
    g.has_moved = has_moved;
    lichess::GameOpponent who;
    who.id = opponent;
    who.username = opponent;
    g.opponent = who;
    return g;
}

// The desk with everything it talks to faked.
class DeskTest : public ::testing::Test {
  protected:
    DeskTest() : desk_(make_settings(2), make_hooks()) {}

    static DeskSettings make_settings(int max_sessions) {
        using namespace std::chrono_literals;
        DeskSettings s;
        s.checkin_period = 60s;
        s.max_sessions = max_sessions;
        s.linger = 15s;
        s.playing_page = 50;
        return s;
    }

    DeskHooks make_hooks() {
        DeskHooks h;
        h.now = [this] { return now_; };
        h.start_session = [this](const std::string& id,
                                 ParkingRules rules) -> std::unique_ptr<DeskSession> {
            if (start_fails_)
                throw std::system_error(
                    std::make_error_code(std::errc::resource_unavailable_try_again));
            auto s = std::make_shared<SessionState>();
            s->game_id = id;
            s->rules = std::move(rules);
            sessions_.push_back(s);
            return std::make_unique<FakeSession>(s);
        };
        return h;
    }

    // A round of the desk; a check-in it asks for is answered at once from the fake list.
    void tick() {
        if (!desk_.tick()) return;
        ++list_calls_;
        if (list_fails_)
            desk_.on(correspondence::CheckedIn{std::nullopt, "HTTP 503: down"});
        else
            desk_.on(correspondence::CheckedIn{playing_.now_playing, ""});
    }

    std::vector<std::string> started() const {
        std::vector<std::string> ids;
        for (const auto& s : sessions_) ids.push_back(s->game_id);
        return ids;
    }
    std::shared_ptr<SessionState> last_session(const std::string& id) const {
        for (auto it = sessions_.rbegin(); it != sessions_.rend(); ++it)
            if ((*it)->game_id == id) return *it;
        return nullptr;
    }
    void park(const std::string& id) { last_session(id)->finished = true; }
    void end(const std::string& id) {
        last_session(id)->finished = true;
        last_session(id)->game_over = true;
    }

    std::chrono::steady_clock::time_point now_ =
        std::chrono::steady_clock::time_point(std::chrono::hours(1));
    lichess::Playing playing_;
    bool list_fails_ = false;
    bool start_fails_ = false;  // sessions cannot start (the process at its task limit)
    int list_calls_ = 0;
    std::vector<std::shared_ptr<SessionState>> sessions_;
    CorrespondenceDesk desk_;
};

TEST(Correspondence, IsTheSpeedOrThePerf) {
    lichess::GameEventInfo g;
    EXPECT_FALSE(is_correspondence(g));  // unknown: played as real-time, engine held
    g.speed = "blitz";
    EXPECT_FALSE(is_correspondence(g));
    g.speed = "correspondence";
    EXPECT_TRUE(is_correspondence(g));
    g.speed.reset();
    g.perf = "correspondence";
    EXPECT_TRUE(is_correspondence(g));
}

TEST(Correspondence, SettingsComeFromTheConfig) {
    using namespace std::chrono_literals;
    config::CorrespondenceConfig c;
    c.checkin_period_s = 7;
    c.max_concurrent_searches = 3;
    c.disconnect_time_s = 0;
    const DeskSettings s = DeskSettings::from(c, {}, 2);
    EXPECT_EQ(s.checkin_period, 7s);
    EXPECT_EQ(s.max_sessions, 3);
    EXPECT_EQ(s.linger, 0s);
    EXPECT_EQ(s.max_takebacks_accepted, 2);
    EXPECT_EQ(DeskSettings::from({}).linger, 15s);
}

TEST_F(DeskTest, AtMostMaxSessionsRunAndTheRestWaitInArrivalOrder) {
    for (const char* id : {"g1", "g2", "g3", "g4", "g5"}) desk_.on_game_start(corr(id, true));
    tick();
    EXPECT_EQ(started(), (std::vector<std::string>{"g1", "g2"}));
    auto c = desk_.counts();
    EXPECT_EQ(c.running, 2);
    EXPECT_EQ(c.waiting, 3);
    EXPECT_TRUE(desk_.someone_waiting());

    park("g2");
    tick();
    EXPECT_EQ(started(), (std::vector<std::string>{"g1", "g2", "g3"}));
    EXPECT_TRUE(last_session("g2")->destroyed);  // its threads are joined when it is reaped
    end("g1");
    park("g3");
    tick();
    EXPECT_EQ(started(), (std::vector<std::string>{"g1", "g2", "g3", "g4", "g5"}));
    c = desk_.counts();
    EXPECT_EQ(c.games, 4);  // g1 is over
    EXPECT_EQ(c.parked, 2);
    EXPECT_EQ(c.running, 2);
    EXPECT_EQ(c.waiting, 0);
    EXPECT_EQ(c.peak_running, 2);
    EXPECT_FALSE(desk_.someone_waiting());
    EXPECT_EQ(list_calls_, 0);  // no check-in before the period is over
}

TEST_F(DeskTest, SessionsParkEarlyOnlyWhileAGameWaits) {
    using namespace std::chrono_literals;
    for (const char* id : {"g1", "g2", "g3"}) desk_.on_game_start(corr(id, true));
    tick();
    const auto rules = last_session("g1")->rules;
    EXPECT_EQ(rules.linger, 15s);
    ASSERT_TRUE(rules.games_waiting);
    EXPECT_EQ(rules.games_waiting->load(), 1);  // g3 waits
    park("g2");
    tick();
    EXPECT_EQ(rules.games_waiting->load(), 0);
}

TEST_F(DeskTest, AGameOnTheOpponentsMoveIsParkedUntilACheckInFindsItOnOurs) {
    using namespace std::chrono_literals;
    desk_.on_game_start(corr("g1", false));  // resumed at start-up: we have moved, their turn
    tick();
    EXPECT_TRUE(started().empty());
    EXPECT_EQ(desk_.counts().parked, 1);

    playing_.now_playing = {corr("g1", true)};
    now_ += 59s;
    tick();
    EXPECT_EQ(list_calls_, 0);
    now_ += 1s;
    tick();
    EXPECT_EQ(list_calls_, 1);
    ASSERT_EQ(started(), (std::vector<std::string>{"g1"}));
    EXPECT_TRUE(last_session("g1")->rules.first_visit);

    park("g1");
    tick();
    EXPECT_EQ(desk_.counts().parked, 1);
    now_ += 60s;
    tick();
    EXPECT_EQ(list_calls_, 2);
    ASSERT_EQ(started().size(), 2u);
    EXPECT_FALSE(last_session("g1")->rules.first_visit);  // no second hello
}

TEST_F(DeskTest, AGamesDrawResignStreaksLastAcrossItsSessions) {
    using namespace std::chrono_literals;
    playing_.now_playing = {corr("g1", true), corr("g2", true)};
    desk_.on_game_start(corr("g1", true));
    desk_.on_game_start(corr("g2", true));
    tick();
    ASSERT_EQ(started().size(), 2u);
    ASSERT_TRUE(last_session("g1")->rules.policies.has_value());
    // The session's rules feed a lost score to their own copy and hand it back at the end.
    GamePolicies g1 = *last_session("g1")->rules.policies;
    (void)g1.draw_resign.after_search(-5000, 20, 30);
    last_session("g1")->policies = g1;

    park("g1");
    tick();
    now_ += 60s;  // the check-in finds g1 on our turn again
    tick();
    ASSERT_EQ(started().size(), 3u);
    ASSERT_TRUE(last_session("g1")->rules.policies.has_value());
    EXPECT_EQ(last_session("g1")->rules.policies->draw_resign.losing_streak(), 1);
    // One policy per game: g2's session was given a fresh one and still has it.
    ASSERT_TRUE(last_session("g2")->rules.policies.has_value());
    EXPECT_EQ(last_session("g2")->rules.policies->draw_resign.losing_streak(), 0);
}

TEST_F(DeskTest, ASessionThatHandsNoPoliciesBackLeavesTheGamesAsTheyWere) {
    using namespace std::chrono_literals;
    playing_.now_playing = {corr("g1", true)};
    desk_.on_game_start(corr("g1", true));
    tick();
    ASSERT_EQ(started().size(), 1u);
    GamePolicies g1 = *last_session("g1")->rules.policies;
    g1.takebacks.granted();
    last_session("g1")->policies = g1;
    park("g1");
    tick();
    now_ += 60s;
    tick();
    ASSERT_EQ(started().size(), 2u);
    park("g1");  // this session hands nothing back
    tick();
    now_ += 60s;
    tick();
    ASSERT_EQ(started().size(), 3u);
    EXPECT_EQ(last_session("g1")->rules.policies->takebacks.accepted(), 1);
}

TEST_F(DeskTest, AGamesGrantedTakebacksCountAcrossItsSessions) {
    using namespace std::chrono_literals;
    playing_.now_playing = {corr("g1", true), corr("g2", true)};
    desk_.on_game_start(corr("g1", true));
    desk_.on_game_start(corr("g2", true));
    tick();
    ASSERT_EQ(started().size(), 2u);
    ASSERT_TRUE(last_session("g1")->rules.policies.has_value());
    GamePolicies g1 = *last_session("g1")->rules.policies;
    g1.takebacks.granted();  // as a session does when the server took its yes
    last_session("g1")->policies = g1;

    park("g1");
    tick();
    now_ += 60s;
    tick();
    ASSERT_EQ(started().size(), 3u);
    EXPECT_EQ(last_session("g1")->rules.policies->takebacks.accepted(), 1);
    EXPECT_EQ(last_session("g2")->rules.policies->takebacks.accepted(), 0);  // one count per game
}

TEST_F(DeskTest, ANewGameGetsASessionEvenOnTheOpponentsMove) {
    desk_.on_game_start(corr("g1", false, /*has_moved=*/false));  // we are black
    desk_.on_game_start(corr("g2", std::nullopt, std::nullopt));  // nothing known: look
    tick();
    EXPECT_EQ(started(), (std::vector<std::string>{"g1", "g2"}));
}

TEST_F(DeskTest, ReplayedGameStartsLineAGameUpOnlyOnce) {
    desk_.on_game_start(corr("g1", true));
    desk_.on_game_start(corr("g2", true));
    desk_.on_game_start(corr("g3", true));
    desk_.on_game_start(corr("g3", true));  // the event stream reconnected
    tick();
    desk_.on_game_start(corr("g1", true));  // running: nothing to do
    EXPECT_EQ(desk_.counts().waiting, 1);
    park("g1");
    park("g2");
    tick();
    EXPECT_EQ(started(), (std::vector<std::string>{"g1", "g2", "g3"}));
    EXPECT_EQ(desk_.counts().games, 3);
}

TEST_F(DeskTest, AGameStartOnOurTurnLinesUpAParkedGame) {
    desk_.on_game_start(corr("g1", false));
    tick();
    desk_.on_game_start(corr("g1", false));
    tick();
    EXPECT_TRUE(started().empty());
    desk_.on_game_start(corr("g1", true));
    tick();
    EXPECT_EQ(started(), (std::vector<std::string>{"g1"}));
}

TEST_F(DeskTest, AParkedGameThatFinishesGetsOneLastSessionThenIsDropped) {
    desk_.on_game_start(corr("g1", false));
    desk_.on_game_finish("unknown1");  // not ours: ignored
    tick();
    desk_.on_game_finish("g1");
    tick();
    ASSERT_EQ(started(), (std::vector<std::string>{"g1"}));  // result, PGN, goodbye
    park("g1");  // even a session that saw no end: the game is not on any more
    tick();
    EXPECT_EQ(desk_.counts().games, 0);
    EXPECT_FALSE(desk_.someone_waiting());
}

TEST_F(DeskTest, AGameThatFinishesWhileItsSessionRunsIsDroppedAfterIt) {
    desk_.on_game_start(corr("g1", true));
    tick();
    desk_.on_game_finish("g1");
    tick();
    EXPECT_EQ(started().size(), 1u);  // its session sees the end
    end("g1");
    tick();
    EXPECT_EQ(started().size(), 1u);
    EXPECT_EQ(desk_.counts().games, 0);
}

TEST_F(DeskTest, AGameThatFinishesAsItsSessionParksGetsOneLastSession) {
    desk_.on_game_start(corr("g1", true));
    tick();
    park("g1");                  // parked on the opponent's move ...
    desk_.on_game_finish("g1");  // ... who resigned before the desk reaped the session
    tick();
    ASSERT_EQ(started().size(), 2u);
    EXPECT_EQ(desk_.counts().running, 1);
    park("g1");  // even when the last session sees no end, the game is dropped
    tick();
    EXPECT_EQ(started().size(), 2u);
    EXPECT_EQ(desk_.counts().games, 0);
}

TEST_F(DeskTest, CheckInsAddNewGamesAndIgnoreRealTimeOnes) {
    using namespace std::chrono_literals;
    auto blitz = corr("b1", true);
    blitz.speed = "blitz";
    playing_.now_playing = {corr("g1", true), blitz, corr("g2", false)};
    now_ += 60s;
    tick();
    EXPECT_EQ(started(), (std::vector<std::string>{"g1"}));
    EXPECT_EQ(desk_.counts().games, 2);
    EXPECT_EQ(desk_.counts().parked, 1);
}

TEST_F(DeskTest, AParkedGameMissingFromAWholeListIsWrappedUp) {
    using namespace std::chrono_literals;
    desk_.on_game_start(corr("g1", false));
    desk_.on_game_start(corr("g2", false));
    tick();
    playing_.now_playing = {corr("g2", false)};  // g1 ended while the event stream was down
    now_ += 60s;
    tick();
    EXPECT_EQ(started(), (std::vector<std::string>{"g1"}));
    end("g1");
    tick();
    EXPECT_EQ(desk_.counts().games, 1);
}

TEST_F(DeskTest, AParkedGameMissingFromAFullPageIsKept) {
    using namespace std::chrono_literals;
    desk_.on_game_start(corr("g1", false));
    tick();
    for (int i = 0; i < 50; ++i)
        playing_.now_playing.push_back(corr("p" + std::to_string(i), false));
    now_ += 60s;
    tick();
    EXPECT_TRUE(started().empty());  // the list was cut at a page: g1 may be beyond it
    EXPECT_EQ(desk_.counts().games, 51);
    EXPECT_EQ(desk_.counts().parked, 51);
}

TEST_F(DeskTest, AFailedCheckInChangesNothingAndTheNextPeriodTriesAgain) {
    using namespace std::chrono_literals;
    desk_.on_game_start(corr("g1", false));
    list_fails_ = true;
    now_ += 60s;
    tick();
    EXPECT_EQ(list_calls_, 1);
    EXPECT_EQ(desk_.counts().parked, 1);
    EXPECT_TRUE(started().empty());
    list_fails_ = false;
    playing_.now_playing = {corr("g1", true)};
    now_ += 30s;
    tick();
    EXPECT_EQ(list_calls_, 1);
    now_ += 30s;
    tick();
    EXPECT_EQ(list_calls_, 2);
    EXPECT_EQ(started(), (std::vector<std::string>{"g1"}));
}

TEST_F(DeskTest, GamesCountPerOpponent) {
    desk_.on_game_start(corr("g1", false, true, "alice"));
    desk_.on_game_start(corr("g2", false, true, "alice"));
    desk_.on_game_start(corr("g3", false, true, "bob"));
    const auto per_user = desk_.games_per_user();
    EXPECT_EQ(per_user, (std::map<std::string, int, std::less<>>{{"alice", 2}, {"bob", 1}}));
}

TEST_F(DeskTest, StopEndsEverySessionAndStartsNoMore) {
    using namespace std::chrono_literals;
    for (const char* id : {"g1", "g2", "g3"}) desk_.on_game_start(corr(id, true));
    tick();
    desk_.stop();
    EXPECT_TRUE(last_session("g1")->destroyed);
    EXPECT_TRUE(last_session("g2")->destroyed);
    tick();
    now_ += 60s;
    tick();
    EXPECT_EQ(started().size(), 2u);
    EXPECT_EQ(list_calls_, 0);
    EXPECT_EQ(desk_.counts().running, 0);
}

TEST_F(DeskTest, AsksNoSecondCheckInWhileOneIsOnItsWay) {
    using namespace std::chrono_literals;
    now_ += 61s;
    EXPECT_TRUE(desk_.tick().has_value());
    now_ += 61s;
    EXPECT_FALSE(desk_.tick().has_value());  // the first one's answer has not come yet
    desk_.on(correspondence::CheckedIn{std::vector<lichess::GameEventInfo>{}, ""});
    EXPECT_TRUE(desk_.tick().has_value());  // answered, and the period is over again
}

TEST_F(DeskTest, ASessionThatCannotStartLeavesItsGameParked) {
    start_fails_ = true;
    desk_.on_game_start(corr("g1", true));
    EXPECT_NO_THROW(tick());
    EXPECT_TRUE(sessions_.empty());
    EXPECT_EQ(desk_.counts().parked, 1);
    EXPECT_EQ(desk_.counts().running, 0);
    // Threads to be had again: the next check-in that finds it on our turn starts its session.
    start_fails_ = false;
    playing_.now_playing = {corr("g1", true)};
    now_ += std::chrono::seconds(61);
    tick();
    EXPECT_EQ(started(), std::vector<std::string>{"g1"});
}

TEST(CorrespondenceDeskOrder, OneSessionAtATimeServesTheLineInOrder) {
    // The default: one correspondence game with a session at a time.
    std::vector<std::string> started;
    std::vector<std::shared_ptr<SessionState>> states;
    DeskHooks h;
    h.start_session = [&](const std::string& id, ParkingRules) -> std::unique_ptr<DeskSession> {
        started.push_back(id);
        states.push_back(std::make_shared<SessionState>());
        return std::make_unique<FakeSession>(states.back());
    };
    CorrespondenceDesk desk(DeskSettings::from({}), h);
    for (int i = 0; i < 10; ++i) desk.on_game_start(corr("g" + std::to_string(i), true));
    for (int i = 0; i < 10; ++i) {
        EXPECT_FALSE(desk.tick().has_value());  // no check-in before the period is over
        ASSERT_EQ(started.size(), std::size_t(i + 1));
        EXPECT_EQ(started.back(), "g" + std::to_string(i));
        EXPECT_EQ(desk.counts().running, 1);
        states.back()->finished = true;
    }
    EXPECT_FALSE(desk.tick().has_value());
    EXPECT_EQ(desk.counts().parked, 10);
    EXPECT_EQ(desk.counts().peak_running, 1);
}

}  // namespace
}  // namespace service
