// is_loopback_host(): names and addresses that cannot leave this machine.
#include "common/url.hpp"

#include <array>
#include <charconv>

#include "common/text.hpp"

namespace common {

bool is_loopback_host(std::string_view host) {
    if (iequals(host, "localhost") || host == "::1" || host == "[::1]") return true;
    // Dotted quad 127.a.b.c, every part a decimal number 0..255.
    std::array<int, 4> parts{};
    std::size_t i = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const char* begin = host.data() + i;
        const char* end = host.data() + host.size();
        const auto [ptr, ec] = std::from_chars(begin, end, parts[k]);
        if (ec != std::errc() || ptr == begin || parts[k] < 0 || parts[k] > 255) return false;
        i = static_cast<std::size_t>(ptr - host.data());
        if (k + 1 < parts.size()) {
            if (i >= host.size() || host[i] != '.') return false;
            ++i;
        }
    }
    return i == host.size() && parts[0] == 127;
}

}  // namespace common
