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

std::string url_host(std::string_view url) {
    std::string_view rest;
    if (url.starts_with("https://"))
        rest = url.substr(8);
    else if (url.starts_with("http://"))
        rest = url.substr(7);
    else
        return {};
    std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
    if (const auto at = authority.rfind('@'); at != std::string_view::npos)
        authority = authority.substr(at + 1);
    std::string_view host = authority;
    if (host.starts_with('['))
        host = host.substr(
            0, host.find(']') == std::string_view::npos ? host.size() : host.find(']') + 1);
    else
        host = host.substr(0, host.find(':'));
    return lowercase(host);
}

bool token_may_go_to(std::string_view url, std::string_view api_url) {
    if (!url.starts_with("https://")) return false;
    const std::string host = url_host(url);
    if (host.empty()) return false;
    const auto within = [&](std::string_view domain) {
        return host == domain || (host.size() > domain.size() && host.ends_with(domain) &&
                                  host[host.size() - domain.size() - 1] == '.');
    };
    return within("lichess.org") || within("lichess.ovh") ||
           (api_url.starts_with("https://") && host == url_host(api_url));
}

}  // namespace common
