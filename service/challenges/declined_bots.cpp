// DeclinedBotsFile: {"declined": [{"bot", "speed", "variant", "mode", "until"}]}, `until` in ms
// since the Unix epoch.
#include "service/challenges/declined_bots.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/errno_text.hpp"
#include "common/text.hpp"

namespace service {

namespace {

// A file of many thousands of declines is still far below this; a larger one is not ours.
constexpr std::size_t kMaxFileBytes = 1024 * 1024;
// No refusal is kept longer than this (the matchmaker remembers a decline 24 h): an end further
// off in a file is cut to it, so no forged or corrupt `until` overflows the steady clock.
constexpr std::int64_t kLongestMemoryMs = 7LL * 24 * 3600 * 1000;

std::int64_t unix_ms(DeclinedBotsFile::WallTime t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

}  // namespace

DeclinedBotsFile::Loaded DeclinedBotsFile::load(SteadyTime now, WallTime wall_now) const {
    Loaded out;
    std::ifstream in(path_, std::ios::binary);
    if (!in) {
        if (errno != ENOENT)
            out.warning = "cannot read " + path_ + ": " + common::errno_text(errno);
        return out;  // no file yet: nothing remembered
    }
    std::ostringstream text;
    text << in.rdbuf();
    const std::string body = text.str();
    if (body.size() > kMaxFileBytes) {
        out.warning = path_ + " is larger than 1 MB; starting afresh";
        return out;
    }
    try {
        const auto j = nlohmann::json::parse(body);
        const std::int64_t wall = unix_ms(wall_now);
        for (const auto& e : j.at("declined")) {
            Refusal r;
            r.bot = common::lowercase(e.at("bot").get<std::string>());
            r.speed = e.value("speed", "");
            r.variant = e.value("variant", "");
            r.mode = e.value("mode", "");
            const std::int64_t until = e.at("until").get<std::int64_t>();
            if (r.bot.empty() || until <= wall) continue;
            r.until = now + std::chrono::milliseconds(std::min(until - wall, kLongestMemoryMs));
            out.refusals.push_back(std::move(r));
        }
    } catch (const std::exception& e) {
        out.refusals.clear();
        out.warning = path_ + " is not a list of declined bots (" + common::printable(e.what()) +
                      "); starting afresh";
    }
    return out;
}

std::optional<std::string> DeclinedBotsFile::save(const std::vector<Refusal>& refusals,
                                                  SteadyTime now, WallTime wall_now) const {
    nlohmann::json list = nlohmann::json::array();
    for (const Refusal& r : refusals) {
        if (r.until <= now) continue;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(r.until - now);
        list.push_back({{"bot", r.bot},
                        {"speed", r.speed},
                        {"variant", r.variant},
                        {"mode", r.mode},
                        {"until", unix_ms(wall_now) + left.count()}});
    }
    const std::string body = nlohmann::json{{"declined", list}}.dump(1) + "\n";
    const std::string temp = path_ + ".tmp";
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return "cannot write " + temp + ": " + common::errno_text(errno);
    std::size_t done = 0;
    while (done < body.size()) {
        const ssize_t n = ::write(fd, body.data() + done, body.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const std::string why = common::errno_text(errno);
            ::close(fd);
            ::unlink(temp.c_str());
            return "cannot write " + temp + ": " + why;
        }
        done += static_cast<std::size_t>(n);
    }
    const bool synced = ::fsync(fd) == 0;
    ::close(fd);
    if (!synced || ::rename(temp.c_str(), path_.c_str()) != 0) {
        const std::string why = common::errno_text(errno);
        ::unlink(temp.c_str());
        return "cannot replace " + path_ + ": " + why;
    }
    return std::nullopt;
}

}  // namespace service
