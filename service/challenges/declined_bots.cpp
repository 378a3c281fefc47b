// DeclinedBotsFile: {"declined": [{"bot", "speed", "variant", "mode", "until"}]}, `until` in ms
// since the Unix epoch.
#include "service/challenges/declined_bots.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>

#include "common/bounded_file.hpp"
#include "common/errno_text.hpp"
#include "common/text.hpp"

namespace service {

namespace {

// No refusal is kept longer than this (the matchmaker remembers a decline 24 h): an end further
// off in a file is cut to it, so no forged or corrupt `until` overflows the steady clock.
constexpr std::int64_t kLongestMemoryMs = 7LL * 24 * 3600 * 1000;

std::int64_t unix_ms(DeclinedBotsFile::WallTime t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

}  // namespace

DeclinedBotsFile::Loaded DeclinedBotsFile::load(SteadyTime now, WallTime wall_now) const {
    Loaded out;
    // Checked before a byte is read: a FIFO cannot block start-up, nor a huge file fill memory.
    auto read = common::read_bounded_file(path_, kMaxDeclinedBotsFileBytes);
    if (!read) {
        if (read.error().message != common::kNoSuchFile)
            out.warning = path_ + ": " + read.error().message + "; starting afresh";
        return out;  // no file yet: nothing remembered
    }
    const std::string& body = *read;
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
    // A fresh name beside the file, made with O_EXCL (mkstemp): nothing planted at a guessable
    // name (a symbolic link at FILE.tmp) is followed or overwritten.
    std::string temp = (std::filesystem::path(path_).parent_path() /
                        ("." + std::filesystem::path(path_).filename().string() + ".XXXXXX"))
                           .string();
    const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
    if (fd < 0)
        return "cannot write a temporary file beside " + path_ + ": " + common::errno_text(errno);
    ::fchmod(fd, 0644);
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

void keep_declines(const std::string& path, Matchmaker& matchmaker) {
    if (path.empty()) return;
    auto file = std::make_shared<DeclinedBotsFile>(path);
    auto loaded = file->load(std::chrono::steady_clock::now(), std::chrono::system_clock::now());
    if (loaded.warning)
        spdlog::warn("matchmaking.declined_bots_file: {}", *loaded.warning);
    else if (!loaded.refusals.empty())
        spdlog::info("matchmaking: {} decline(s) remembered from {}", loaded.refusals.size(), path);
    matchmaker.restore(std::move(loaded.refusals));
    matchmaker.on_remember([file](const std::vector<Refusal>& refusals) {
        if (const auto error = file->save(refusals, std::chrono::steady_clock::now(),
                                          std::chrono::system_clock::now()))
            spdlog::warn("matchmaking.declined_bots_file: {}", *error);
    });
}

}  // namespace service
