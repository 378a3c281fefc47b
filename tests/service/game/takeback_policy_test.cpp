// TakebackPolicy: yes until max_takebacks_accepted were granted, then no; one answer per
// request however many gameStates carry the flag.
#include "service/game/takeback_policy.hpp"

#include <gtest/gtest.h>

namespace service {
namespace {

TEST(TakebackPolicy, ZeroDeclinesEveryRequest) {
    TakebackPolicy policy(0);
    EXPECT_EQ(policy.answer(true), std::optional(false));
    EXPECT_EQ(policy.answer(false), std::nullopt);
    EXPECT_EQ(policy.answer(true), std::optional(false));
    EXPECT_EQ(policy.accepted(), 0);
}

TEST(TakebackPolicy, GrantsUpToTheLimitThenDeclines) {
    TakebackPolicy policy(2);
    for (int i = 0; i < 2; ++i) {
        ASSERT_EQ(policy.answer(true), std::optional(true)) << "request " << i + 1;
        policy.granted();
        EXPECT_EQ(policy.answer(false), std::nullopt);
    }
    EXPECT_EQ(policy.answer(true), std::optional(false));
    EXPECT_EQ(policy.accepted(), 2);
    EXPECT_EQ(policy.max_accepted(), 2);
}

TEST(TakebackPolicy, RepeatedStatesOfOneRequestGetOneAnswer) {
    TakebackPolicy policy(1);
    EXPECT_EQ(policy.answer(true), std::optional(true));
    EXPECT_EQ(policy.answer(true), std::nullopt);  // the same request on a later state
    EXPECT_EQ(policy.answer(true), std::nullopt);
    // Once a state shows no request, the next flag is a new request.
    EXPECT_EQ(policy.answer(false), std::nullopt);
    EXPECT_EQ(policy.answer(true), std::optional(true));
}

TEST(TakebackPolicy, AYesTheServerRefusedDoesNotCount) {
    TakebackPolicy policy(1);
    EXPECT_EQ(policy.answer(true), std::optional(true));  // not granted(): the POST failed
    EXPECT_EQ(policy.answer(false), std::nullopt);
    EXPECT_EQ(policy.answer(true), std::optional(true));
    policy.granted();
    EXPECT_EQ(policy.answer(false), std::nullopt);
    EXPECT_EQ(policy.answer(true), std::optional(false));
}

}  // namespace
}  // namespace service
