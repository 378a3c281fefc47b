// make_non_dumpable(): one prctl, kept apart so a test can check it in a child process.
#include "service/ops/hardening.hpp"

#include <sys/prctl.h>

#include <cerrno>

#include "common/errno_text.hpp"

namespace service {

std::optional<std::string> make_non_dumpable() {
    if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        return "prctl(PR_SET_DUMPABLE, 0) failed: " + common::errno_text(errno);
    return std::nullopt;
}

}  // namespace service
