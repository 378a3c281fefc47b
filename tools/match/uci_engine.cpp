// The UCI conversation with one engine of a match.
#include "tools/match/uci_engine.hpp"

#include <charconv>
#include <chrono>
#include <sstream>

namespace match {

namespace {

using Clock = Process::Clock;

constexpr auto START_TIMEOUT = std::chrono::seconds(10);
constexpr auto READY_TIMEOUT = std::chrono::seconds(10);
// How long a stopped engine may take to send its bestmove before it is restarted.
constexpr auto STOP_GRACE = std::chrono::seconds(2);

}  // namespace

std::optional<EngineScore> parse_info_score(std::string_view line) {
    std::istringstream in{std::string(line)};
    std::string token;
    if (!(in >> token) || token != "info") return std::nullopt;
    while (in >> token) {
        if (token == "pv" || token == "string") return std::nullopt;
        if (token != "score") continue;
        std::string kind, number;
        if (!(in >> kind >> number) || (kind != "cp" && kind != "mate")) return std::nullopt;
        int value = 0;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), value);
        if (ec != std::errc{} || end != number.data() + number.size()) return std::nullopt;
        return EngineScore{kind == "mate", value};
    }
    return std::nullopt;
}

bool UciEngine::wait_for(std::string_view prefix, Clock::time_point deadline) {
    while (const auto line = process_->read_line(deadline))
        if (line->rfind(prefix, 0) == 0) return true;
    return false;
}

std::optional<std::string> UciEngine::ensure_started(std::string_view uci_variant) {
    if (process_ && !process_->eof() && variant_ == uci_variant) return std::nullopt;
    process_ = std::make_unique<Process>(spec_.cmd, spec_.args);
    variant_ = uci_variant;
    if (!process_->started()) return spec_.name + ": cannot start '" + spec_.cmd + "'";
    process_->write_line("uci");
    if (!wait_for("uciok", Clock::now() + START_TIMEOUT))
        return spec_.name + ": no 'uciok' from '" + spec_.cmd + "'";
    for (const auto& [option, value] : spec_.options)
        process_->write_line("setoption name " + option + " value " + value);
    if (uci_variant != "chess")
        process_->write_line("setoption name UCI_Variant value " + std::string(uci_variant));
    return std::nullopt;
}

bool UciEngine::new_game() {
    if (!process_) return false;
    process_->write_line("ucinewgame");
    process_->write_line("isready");
    return wait_for("readyok", Clock::now() + READY_TIMEOUT);
}

UciEngine::Reply UciEngine::play(const std::string& position, const std::string& go,
                                 std::int64_t allowed_ms) {
    Reply reply;
    if (!process_) return reply;
    process_->write_line(position);
    const auto start = Clock::now();
    if (!process_->write_line(go)) return reply;
    const auto deadline = start + std::chrono::milliseconds(allowed_ms);
    while (const auto line = process_->read_line(deadline)) {
        if (auto score = parse_info_score(*line)) reply.score = score;
        if (line->rfind("bestmove", 0) != 0) continue;
        reply.elapsed_ms =
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
        std::istringstream in(line->substr(8));
        in >> reply.move;
        reply.status = Status::MOVED;
        return reply;
    }
    reply.elapsed_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    if (process_->eof()) {
        process_.reset();
        return reply;
    }
    // Late: the game is lost on time; stop the search so the engine can play the next one.
    reply.status = Status::TIMEOUT;
    process_->write_line("stop");
    if (!wait_for("bestmove", Clock::now() + STOP_GRACE)) process_.reset();
    return reply;
}

}  // namespace match
