// Process hardening `outpost run` applies to itself at start: the token lives in its memory.
#pragma once

#include <optional>
#include <string>

namespace service {

// Makes the process non-dumpable (prctl PR_SET_DUMPABLE 0): no core file, and other processes
// of the same user can neither ptrace it nor read its /proc/<pid>/mem or environ. Inherited by
// every thread. Returns an error text when the kernel refused.
[[nodiscard]] std::optional<std::string> make_non_dumpable();

}  // namespace service
