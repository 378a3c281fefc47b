// make_non_dumpable(): checked in a forked child, so the test process itself stays dumpable.
#include "service/ops/hardening.hpp"

#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

TEST(Hardening, MakesTheProcessNonDumpable) {
    ASSERT_EQ(::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 1) << "the test process starts dumpable";
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const bool ok = !service::make_non_dumpable().has_value();
        const int dumpable = ::prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
        ::_exit(ok && dumpable == 0 ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "still dumpable after make_non_dumpable()";
}

}  // namespace
