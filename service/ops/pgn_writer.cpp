// PGN records: headers, SAN movetext replayed on engine::Position (any variant), and the atomic
// file write.
#include "service/ops/pgn_writer.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <system_error>
#include <utility>

#include "common/errno_text.hpp"
#include "common/text.hpp"
#include "engine/fen.hpp"
#include "engine/position.hpp"
#include "engine/variant_table.hpp"
#include "service/game/pgn_tags.hpp"

namespace service {

namespace {

constexpr std::size_t kLineWidth = 80;

// A PGN string value: what a terminal would act on (ESC, other controls, bytes that are not
// UTF-8) as common::printable shows it, then backslash and quote escaped as PGN wants. A
// backslash of the text stays one backslash (UTF-8 never has 0x5c inside a character, so the
// runs between backslashes are whole text).
std::string quoted(std::string_view s) {
    std::string shown;
    for (std::size_t at = 0; at <= s.size();) {
        const std::size_t slash = std::min(s.find('\\', at), s.size());
        shown += common::printable(s.substr(at, slash - at));
        if (slash < s.size()) shown += '\\';
        at = slash + 1;
    }
    std::string out = "\"";
    for (const char c : shown) {
        if (c == '\\' || c == '"') out += '\\';
        out += c;
    }
    return out + "\"";
}

// Text from outside inside a PGN comment: printable, and no brace that would end the comment.
std::string comment_text(std::string_view s) {
    std::string shown = common::printable(s);
    std::replace(shown.begin(), shown.end(), '}', ')');
    std::replace(shown.begin(), shown.end(), '{', '(');
    return shown;
}

void header(std::string& out, std::string_view name, std::string_view value) {
    out += '[';
    out += name;
    out += ' ';
    out += quoted(value);
    out += "]\n";
}

struct UtcTime {
    int year, month, day, hour, minute, second;
};

UtcTime utc(std::chrono::system_clock::time_point t) {
    using namespace std::chrono;
    const auto day = floor<days>(t);
    const year_month_day ymd{day};
    const hh_mm_ss hms{floor<seconds>(t - day)};
    return {int(ymd.year()),          int(unsigned(ymd.month())), int(unsigned(ymd.day())),
            int(hms.hours().count()), int(hms.minutes().count()), int(hms.seconds().count())};
}

std::string two(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

std::string date(const UtcTime& u, char sep) {
    return std::to_string(u.year) + sep + two(u.month) + sep + two(u.day);
}

// [%clk H:MM:SS], whole seconds rounded down as Lichess's own exports show them.
std::string clock_text(std::int64_t ms) {
    const std::int64_t s = std::max<std::int64_t>(0, ms) / 1000;
    return std::to_string(s / 3600) + ":" + two(int(s / 60 % 60)) + ":" + two(int(s % 60));
}

// [%eval 0.35,12] / [%eval #-3], from White's point of view.
std::string eval_text(const PgnEval& e, engine::Color mover) {
    const int sign = mover == engine::WHITE ? 1 : -1;
    std::string text;
    if (e.kind == PgnEval::Kind::Mate) {
        text = "#" + std::to_string(sign * e.value);
    } else {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.2f", sign * e.value / 100.0);
        text = buf;
    }
    if (e.depth > 0) text += "," + std::to_string(e.depth);
    return text;
}

// The game's type; standard chess for a key we do not know (the movetext then says the record
// cannot be read, if it cannot).
const engine::GameType& game_type(const GameRecord& r) {
    return engine::game_type_or_standard(r.variant);
}

// Whether the game started from its variant's own start position.
bool is_start(const GameRecord& r) {
    const std::string_view fen = r.initial_fen;
    return fen.empty() || fen == "startpos" || fen == game_type(r).start_fen;
}

// The FEN tag's value, or none. lila's PgnDump writes FEN (then SetUp) for the variants whose
// games may start from a position of their own (Chess960, From Position, Horde, Racing Kings)
// when the game has one, and always for Chess960 (GameRepo.initialFen: the standard start when
// none is stored). No lila game of another variant starts elsewhere than its own start; one that
// does gets the tags too, or its record could not be replayed.
std::optional<std::string> fen_tag(const GameRecord& r) {
    if (!is_start(r)) return r.initial_fen;
    if (game_type(r).chess960) return std::string(engine::START_FEN);
    return std::nullopt;
}

std::string result_text(std::string_view r) {
    return r == "1-0" || r == "0-1" || r == "1/2-1/2" ? std::string(r) : "*";
}

// Joins tokens with spaces into lines of at most kLineWidth columns. Each token (a numbered
// move, a short comment) stays on one line.
class Wrapper {
  public:
    void add(std::string_view token) {
        // Only an over-long comment can exceed the width; PGN lets comments span lines.
        if (token.size() > kLineWidth && token.find(' ') != std::string_view::npos) {
            for (std::size_t start = 0; start < token.size();) {
                std::size_t end = token.find(' ', start);
                if (end == std::string_view::npos) end = token.size();
                if (end > start) add(token.substr(start, end - start));
                start = end + 1;
            }
            return;
        }
        if (!line_.empty() && line_.size() + 1 + token.size() > kLineWidth) flush();
        if (!line_.empty()) line_ += ' ';
        line_ += token;
    }
    std::string finish() {
        flush();
        return std::move(text_);
    }

  private:
    void flush() {
        if (line_.empty()) return;
        text_ += line_;
        text_ += '\n';
        line_.clear();
    }
    std::string line_, text_;
};

void write_movetext(const GameRecord& r, Wrapper& w) {
    const engine::GameType& type = game_type(r);
    const engine::Variant variant = type.variant;
    auto start = is_start(r) ? engine::Result<engine::Position>(engine::Position::start(variant))
                             : engine::Position::from_fen(r.initial_fen, variant, type.chess960,
                                                          engine::FenRules::Lichess);
    if (!start) {
        w.add("{ unreadable initial FEN: " + comment_text(start.error()) + " }");
        return;
    }
    engine::Position pos = std::move(*start);
    bool need_number = true;  // a black move needs "N..." after a comment or at the start
    for (const PgnMove& m : r.moves) {
        const auto move = pos.parse_uci(m.uci);
        if (!move) {
            w.add("{ illegal move " + comment_text(m.uci) +
                  " in the record: " + comment_text(move.error()) + " }");
            return;
        }
        const engine::Color mover = pos.side_to_move();
        const int fullmove = pos.visit([](const auto& b) { return int(b.fullmove_number); });
        // The number stays with its move: "12. Nf3", "12... Nf6".
        std::string token;
        if (mover == engine::WHITE)
            token = std::to_string(fullmove) + ". ";
        else if (need_number)
            token = std::to_string(fullmove) + "... ";
        w.add(token + pos.san(*move));
        need_number = false;

        std::string comment = m.source.empty() ? "" : " " + m.source;
        if (m.eval) comment += " [%eval " + eval_text(*m.eval, mover) + "]";
        if (m.clock_ms) comment += " [%clk " + clock_text(*m.clock_ms) + "]";
        if (!comment.empty()) {
            w.add("{" + comment + " }");
            need_number = true;
        }
        pos.play(*move);
    }
}

std::string safe_id(std::string_view id) {
    std::string out;
    for (char c : id)
        out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
    if (out.empty()) return "game";
    if (out.size() <= kMaxPgnIdChars) return out;
    // FNV-1a of the original id: two long ids sharing a prefix still get two files.
    std::uint64_t hash = 14695981039346656037ull;
    for (char c : id) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ull;
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    return out.substr(0, kMaxPgnIdChars - 17) + "-" + hex;
}

constexpr std::string_view kTempSuffix = ".tmp";

// Writes all of `text` to a new file and syncs it; an error text on failure.
std::string write_synced(const std::filesystem::path& path, const std::string& text) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return "cannot create " + path.string() + ": " + common::errno_text(errno);
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int e = errno;
            ::close(fd);
            return "cannot write " + path.string() + ": " + common::errno_text(e);
        }
        done += std::size_t(n);
    }
    if (::fsync(fd) != 0) {
        const int e = errno;
        ::close(fd);
        return "cannot sync " + path.string() + ": " + common::errno_text(e);
    }
    if (::close(fd) != 0) return "cannot close " + path.string() + ": " + common::errno_text(errno);
    return {};
}

// Makes a rename inside dir durable. EINVAL: the file system cannot sync folders (nothing to do).
std::string sync_directory(const std::filesystem::path& dir) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return "cannot open " + dir.string() + " to sync it: " + common::errno_text(errno);
    const int rc = ::fsync(fd);
    const int e = errno;
    ::close(fd);
    if (rc != 0 && e != EINVAL) return "cannot sync " + dir.string() + ": " + common::errno_text(e);
    return {};
}

// ".<name>.<pid>.<n>.tmp" -> pid; nullopt for other names.
std::optional<long> temp_file_pid(const std::string& name) {
    if (name.size() < 2 || name[0] != '.' || !name.ends_with(kTempSuffix)) return std::nullopt;
    const std::string stem = name.substr(0, name.size() - kTempSuffix.size());
    const auto counter_dot = stem.rfind('.');
    if (counter_dot == std::string::npos || counter_dot == 0) return std::nullopt;
    const auto pid_dot = stem.rfind('.', counter_dot - 1);
    if (pid_dot == std::string::npos) return std::nullopt;
    const std::string pid = stem.substr(pid_dot + 1, counter_dot - pid_dot - 1);
    if (pid.empty() || pid.size() > 9 ||
        !std::all_of(pid.begin(), pid.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    return std::stol(pid);
}

bool process_alive(long pid) { return ::kill(pid_t(pid), 0) == 0 || errno == EPERM; }

}  // namespace

std::string to_pgn(const GameRecord& r) {
    const UtcTime t = utc(r.started_at);
    std::string out;
    const std::string event =
        !r.event.empty() ? r.event : pgn_event(r.rated, r.variant, r.speed, r.tournament_id);
    header(out, "Event", event);
    std::string site = r.site;
    while (site.ends_with('/')) site.pop_back();
    header(out, "Site", site + "/" + r.game_id);
    header(out, "Date", date(t, '.'));
    header(out, "Round", "-");
    header(out, "White", r.white.empty() ? "?" : r.white);
    header(out, "Black", r.black.empty() ? "?" : r.black);
    header(out, "Result", result_text(r.result));
    header(out, "UTCDate", date(t, '.'));
    header(out, "UTCTime", two(t.hour) + ":" + two(t.minute) + ":" + two(t.second));
    if (r.white_rating) header(out, "WhiteElo", std::to_string(*r.white_rating));
    if (r.black_rating) header(out, "BlackElo", std::to_string(*r.black_rating));
    if (r.white_title) header(out, "WhiteTitle", *r.white_title);
    if (r.black_title) header(out, "BlackTitle", *r.black_title);
    // lila's order (PgnDump.tags): Variant, TimeControl, ..., Termination, then FEN and SetUp.
    header(out, "Variant", game_type(r).name);
    header(out, "TimeControl", r.time_control.empty() ? "-" : r.time_control);
    if (!r.termination.empty()) header(out, "Termination", r.termination);
    if (const auto fen = fen_tag(r)) {
        header(out, "FEN", *fen);
        header(out, "SetUp", "1");
    }
    // Our own tag: WhiteElo/BlackElo stay Lichess's ratings.
    if (r.level) header(out, "OutpostLevel", std::to_string(*r.level));
    out += '\n';

    Wrapper w;
    write_movetext(r, w);
    w.add(result_text(r.result));
    out += w.finish();
    out += '\n';
    return out;
}

std::string pgn_file_name(const GameRecord& r) {
    return date(utc(r.started_at), '-') + "-" + safe_id(r.game_id) + ".pgn";
}

common::Result<std::filesystem::path> write_pgn(const std::filesystem::path& dir,
                                                const GameRecord& record) {
    try {
        std::error_code ec;
        std::filesystem::create_directories(dir, ec);
        if (ec)
            return common::Error{"cannot create PGN directory " + dir.string() + ": " +
                                 ec.message()};

        const std::filesystem::path target = dir / pgn_file_name(record);
        // A name no other writer uses: the process id and a counter, so two games (or two
        // processes) finishing at once never share a temporary file.
        static std::atomic<unsigned> counter{0};
        const std::filesystem::path temp =
            dir / ("." + target.filename().string() + "." + std::to_string(::getpid()) + "." +
                   std::to_string(counter++) + ".tmp");

        if (std::string err = write_synced(temp, to_pgn(record)); !err.empty()) {
            std::filesystem::remove(temp, ec);
            return common::Error{err};
        }
        std::filesystem::rename(temp, target, ec);
        if (ec) {
            std::error_code ignored;
            std::filesystem::remove(temp, ignored);
            return common::Error{"cannot rename " + temp.string() + " to " + target.string() +
                                 ": " + ec.message()};
        }
        if (std::string err = sync_directory(dir); !err.empty()) return common::Error{err};
        return target;
    } catch (const std::exception& e) {
        return common::Error{"cannot write the PGN of " + record.game_id + ": " + e.what()};
    }
}

common::Result<std::filesystem::path> write_pgn(const std::filesystem::path& dir,
                                                const GameRecord& record,
                                                std::atomic<std::uint64_t>& failed_attempts,
                                                const PgnRetry& retry) {
    std::chrono::milliseconds pause = retry.pause;
    const int attempts = std::max(1, retry.attempts);
    for (int attempt = 1;; ++attempt) {
        auto written = write_pgn(dir, record);
        if (written) return written;
        failed_attempts.fetch_add(1, std::memory_order_relaxed);
        if (attempt >= attempts) return written;
        spdlog::warn("game {}: PGN attempt {} of {} failed: {}; trying again in {} ms",
                     common::printable(record.game_id), attempt, attempts, written.error().message,
                     pause.count());
        if (retry.sleep) retry.sleep(pause);
        pause *= 2;
    }
}

common::Result<int> prepare_pgn_directory(const std::filesystem::path& dir) {
    namespace fs = std::filesystem;
    try {
        std::error_code ec;
        fs::create_directories(dir, ec);
        if (ec)
            return common::Error{"cannot create the PGN folder " + dir.string() + ": " +
                                 ec.message()};
        if (!fs::is_directory(dir, ec))
            return common::Error{"the PGN folder " + dir.string() + " is not a folder"};
        int removed = 0;
        const auto now = fs::file_time_type::clock::now();
        for (const auto& entry : fs::directory_iterator(dir, ec)) {
            const std::string name = entry.path().filename().string();
            const std::optional<long> pid = temp_file_pid(name);
            if (!pid || !entry.is_regular_file(ec)) continue;
            const auto written_at = entry.last_write_time(ec);
            const bool old = !ec && now - written_at > std::chrono::hours(1);
            // Our own pid: a previous run in a container (pid 1 again); we wrote nothing yet.
            if (*pid == long(::getpid()) || !process_alive(*pid) || old) {
                std::error_code gone;
                if (fs::remove(entry.path(), gone)) ++removed;
            }
        }
        if (ec)
            return common::Error{"cannot list the PGN folder " + dir.string() + ": " +
                                 ec.message()};
        const fs::path probe = dir / (".outpost-write-probe." + std::to_string(::getpid()) + ".0" +
                                      std::string(kTempSuffix));
        fs::remove(probe, ec);
        if (std::string err = write_synced(probe, "probe\n"); !err.empty())
            return common::Error{"the PGN folder " + dir.string() + " is not writable: " + err};
        fs::remove(probe, ec);
        if (std::string err = sync_directory(dir); !err.empty()) return common::Error{err};
        return removed;
    } catch (const std::exception& e) {
        return common::Error{"cannot prepare the PGN folder " + dir.string() + ": " + e.what()};
    }
}

}  // namespace service
