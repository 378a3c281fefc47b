// make_non_dumpable(): one prctl, kept apart so a test can check it in a child process.
#include "service/ops/hardening.hpp"

#include <sys/prctl.h>

#include <cerrno>
#include <cstring>

namespace service {

std::optional<std::string> make_non_dumpable() {
    if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        return std::string("prctl(PR_SET_DUMPABLE, 0) failed: ") + std::strerror(errno);
    return std::nullopt;
}

}  // namespace service
