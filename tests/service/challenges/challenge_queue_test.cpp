// ChallengeQueue: lichess-bot's order (sort_by, preference), the bound, removal and expiry;
// RecentBotChallenges: counts within the age only.
#include "service/challenges/challenge_queue.hpp"

#include <gtest/gtest.h>

namespace service {
namespace {

lichess::ChallengeInfo challenge(std::string id, std::string name, int rating, bool bot = false,
                                 bool rated = false, std::optional<std::string> title = {}) {
    lichess::ChallengeInfo c;
    c.id = std::move(id);
    c.challenger.name = name;
    for (char& ch : name) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    c.challenger.id = name;
    c.challenger.rating = rating;
    c.challenger.title = bot ? std::optional<std::string>("BOT") : title;
    c.rated = rated;
    return c;
}

std::vector<std::string> ids(ChallengeQueue& q) {
    std::vector<std::string> out;
    for (const auto& e : q.entries()) out.push_back(e.challenge.id);
    return out;
}

TEST(ChallengeQueue, BestPutsTheHighestScoreFirstAndKeepsArrivalOrderOnTies) {
    ChallengeQueue q("best", "none", 10);
    ASSERT_TRUE(q.push(challenge("a", "A", 1500)));
    ASSERT_TRUE(q.push(challenge("b", "B", 1900)));
    ASSERT_TRUE(q.push(challenge("c", "C", 1500)));
    ASSERT_TRUE(q.push(challenge("d", "D", 1400, false, true)));         // rated: +200 -> 1600
    ASSERT_TRUE(q.push(challenge("e", "E", 1500, false, false, "GM")));  // titled human: 1700
    ASSERT_TRUE(q.push(challenge("f", "F", 1650, true)));                // BOT title: no bonus
    EXPECT_EQ(ids(q), (std::vector<std::string>{"b", "e", "f", "d", "a", "c"}));
}

TEST(ChallengeQueue, FirstKeepsArrivalOrder) {
    ChallengeQueue q("first", "none", 10);
    for (auto [id, r] : {std::pair{"a", 1200}, {"b", 2500}, {"c", 1800}})
        ASSERT_TRUE(q.push(challenge(id, id, r)));
    EXPECT_EQ(ids(q), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(ChallengeQueue, PreferenceHumanOrBotGoesFirstKeepingTheOrderInside) {
    ChallengeQueue humans("best", "human", 10), bots("best", "bot", 10);
    for (ChallengeQueue* q : {&humans, &bots}) {
        ASSERT_TRUE(q->push(challenge("b1", "Bot1", 2000, true)));
        ASSERT_TRUE(q->push(challenge("h1", "Hum1", 1200)));
        ASSERT_TRUE(q->push(challenge("b2", "Bot2", 2400, true)));
        ASSERT_TRUE(q->push(challenge("h2", "Hum2", 1600)));
    }
    EXPECT_EQ(ids(humans), (std::vector<std::string>{"h2", "h1", "b2", "b1"}));
    EXPECT_EQ(ids(bots), (std::vector<std::string>{"b2", "b1", "h2", "h1"}));
    ChallengeQueue first_humans("first", "human", 10);
    ASSERT_TRUE(first_humans.push(challenge("b1", "Bot1", 2000, true)));
    ASSERT_TRUE(first_humans.push(challenge("h1", "Hum1", 1200)));
    ASSERT_TRUE(first_humans.push(challenge("h2", "Hum2", 1600)));
    EXPECT_EQ(ids(first_humans), (std::vector<std::string>{"h1", "h2", "b1"}));
}

TEST(ChallengeQueue, IsBoundedAndARepeatedIdKeepsOneEntry) {
    ChallengeQueue q("best", "none", 2);
    ASSERT_TRUE(q.push(challenge("a", "A", 1500)));
    ASSERT_TRUE(q.push(challenge("a", "A", 1500)));  // the event stream sent it again
    EXPECT_EQ(q.size(), 1u);
    ASSERT_TRUE(q.push(challenge("b", "B", 1500)));
    EXPECT_TRUE(q.full());
    EXPECT_FALSE(q.push(challenge("c", "C", 3000)));
    EXPECT_FALSE(q.contains("c"));
    ChallengeQueue none("best", "none", 0);
    EXPECT_FALSE(none.push(challenge("a", "A", 1500)));
}

TEST(ChallengeQueue, PopFirstSkipsWhatMayNotBeTakenAndRemoveTakesOut) {
    ChallengeQueue q("best", "none", 10);
    ASSERT_TRUE(q.push(challenge("bot", "SomeBot", 2500, true)));
    ASSERT_TRUE(q.push(challenge("hum", "Alice", 1500)));
    ASSERT_TRUE(q.push(challenge("hum2", "Bob", 1400)));
    // No bot slot free: the human behind the bot is taken, the bot keeps its place.
    auto next = q.pop_first([](const auto& c) { return !c.challenger.is_bot(); });
    ASSERT_TRUE(next);
    EXPECT_EQ(next->id, "hum");
    EXPECT_EQ(ids(q), (std::vector<std::string>{"bot", "hum2"}));
    EXPECT_EQ(q.names(), (std::vector<std::string>{"SomeBot", "Bob"}));
    EXPECT_EQ(q.per_user().at("somebot"), 1);
    EXPECT_TRUE(q.remove("bot"));
    EXPECT_FALSE(q.remove("bot"));
    EXPECT_FALSE(q.pop_first([](const auto&) { return false; }));
    EXPECT_EQ(q.drain().size(), 1u);
    EXPECT_TRUE(q.empty());
}

TEST(ChallengeQueue, ExpireDropsOnlyOldEntries) {
    using namespace std::chrono_literals;
    ChallengeQueue q("first", "none", 10);
    const ChallengeQueue::Clock::time_point t0{};
    ASSERT_TRUE(q.push(challenge("old", "A", 1500), t0));
    ASSERT_TRUE(q.push(challenge("new", "B", 1500), t0 + 2h));
    const auto gone = q.expire(t0 + 1h);
    ASSERT_EQ(gone.size(), 1u);
    EXPECT_EQ(gone[0].id, "old");
    EXPECT_EQ(ids(q), (std::vector<std::string>{"new"}));
}

TEST(RecentBotChallenges, CountsOnlyWithinTheAge) {
    using namespace std::chrono_literals;
    RecentBotChallenges recent(60s);
    const ChallengeQueue::Clock::time_point t0{};
    recent.record("SomeBot", t0);
    recent.record("somebot", t0 + 30s);
    EXPECT_EQ(recent.count("SOMEBOT", t0 + 31s), 2);
    EXPECT_EQ(recent.count("somebot", t0 + 60s), 1);
    EXPECT_EQ(recent.count("somebot", t0 + 90s), 0);
    EXPECT_EQ(recent.count("other", t0), 0);
    RecentBotChallenges off(0s);
    off.record("somebot", t0);
    EXPECT_EQ(off.count("somebot", t0), 0);
}

}  // namespace
}  // namespace service
