// The one rule for plain-http addresses: Outpost speaks plain http only to this machine (tests,
// the emulator), https to everything else. `check-config` and `outpost run` ask the same function.
#pragma once

#include <string>
#include <string_view>

namespace common {

// True for a host that always means this machine: "localhost" (in any letter case), the IPv6
// loopback "::1" (bare or as "[::1]"), and an IPv4 loopback address written in full,
// 127.a.b.c with every part a decimal number from 0 to 255. False for everything else, names that
// only look like it included: "127.example.com" and "127.0.0.1.nip.io" are names a DNS server
// answers for, and "127.1" is a shorthand that resolvers read differently.
[[nodiscard]] bool is_loopback_host(std::string_view host);

// The host of an http(s) URL, lowercase, without user info, port or IPv6 brackets kept as
// written ("https://Tablebase.Lichess.org:443/x" -> "tablebase.lichess.org"); empty for a URL
// that is not http(s) or names no host.
[[nodiscard]] std::string url_host(std::string_view url);

// Whether the Lichess token may travel to `url`: never over plain http (not even to this
// machine), and only to Lichess's own services: lichess.org, lichess.ovh and their subdomains
// (the explorer, the cloud eval, the tablebase), or the host of `api_url`, the Bot API address
// the token is for.
[[nodiscard]] bool token_may_go_to(std::string_view url, std::string_view api_url);

}  // namespace common
