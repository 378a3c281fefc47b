// The learnt statistics' update rules: history gravity and the static-eval correction.
#include <gtest/gtest.h>

#include "engine/history.hpp"

namespace engine {
namespace {

TEST(History, AnEntrySaturatesAtTheHistoryMaximum) {
    std::int16_t e = 0;
    for (int i = 0; i < 200; ++i) update_history(e, history_bonus(20));
    EXPECT_LE(e, HISTORY_MAX);
    EXPECT_GT(e, HISTORY_MAX * 9 / 10);
    for (int i = 0; i < 400; ++i) update_history(e, -history_bonus(20));
    EXPECT_GE(e, -HISTORY_MAX);
    EXPECT_LT(e, -HISTORY_MAX * 9 / 10);
}

TEST(Correction, AnEntryConvergesToTheDifferenceSearchesFind) {
    std::int16_t e = 0;
    for (int i = 0; i < 400; ++i) update_correction(e, 30, 10);
    // 30 centipawns in the table's grain, less what integer division loses on the way.
    EXPECT_NEAR(e / double(CORRECTION_GRAIN), 30.0, 0.5);
    for (int i = 0; i < 400; ++i) update_correction(e, -12, 10);
    EXPECT_NEAR(e / double(CORRECTION_GRAIN), -12.0, 0.5);
}

TEST(Correction, ADeeperSearchMovesTheEntryFurther) {
    std::int16_t shallow = 0, deep = 0, deeper = 0;
    update_correction(shallow, 40, 1);
    update_correction(deep, 40, 8);
    update_correction(deeper, 40, 30);
    EXPECT_GT(shallow, 0);
    EXPECT_GT(deep, shallow);
    EXPECT_GT(deeper, deep);
    // Past the weight cap every depth counts the same.
    std::int16_t deepest = 0;
    update_correction(deepest, 40, 60);
    EXPECT_EQ(deepest, deeper);
}

TEST(Correction, AHugeDifferenceIsCappedEitherWay) {
    std::int16_t e = 0;
    // 3000 cp would be 3000 * CORRECTION_GRAIN; the entry stops within a centipawn of the cap.
    for (int i = 0; i < 400; ++i) update_correction(e, 3000, 20);
    EXPECT_LE(e, CORRECTION_MAX);
    EXPECT_GT(e, CORRECTION_MAX - CORRECTION_GRAIN);
    for (int i = 0; i < 400; ++i) update_correction(e, -3000, 20);
    EXPECT_GE(e, -CORRECTION_MAX);
    EXPECT_LT(e, -CORRECTION_MAX + CORRECTION_GRAIN);
}

}  // namespace
}  // namespace engine
