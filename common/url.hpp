// The one rule for plain-http addresses: Outpost speaks plain http only to this machine (tests,
// the emulator), https to everything else. `check-config` and `outpost run` ask the same function.
#pragma once

#include <string_view>

namespace common {

// True for a host that always means this machine: "localhost" (in any letter case), the IPv6
// loopback "::1" (bare or as "[::1]"), and an IPv4 loopback address written in full,
// 127.a.b.c with every part a decimal number from 0 to 255. False for everything else, names that
// only look like it included: "127.example.com" and "127.0.0.1.nip.io" are names a DNS server
// answers for, and "127.1" is a shorthand that resolvers read differently.
[[nodiscard]] bool is_loopback_host(std::string_view host);

}  // namespace common
