// Matches requests and stream connections against the scripted faults.
#include "faults.hpp"

namespace emu {

std::string endpoint_family(const std::string& path) {
    auto starts = [&](const char* p) { return path.rfind(p, 0) == 0; };
    if (path == "/api/stream/event") return "event_stream";
    if (starts("/api/bot/game/stream/")) return "game_stream";
    if (starts("/api/bot/game/"))
        return path.find("/move/") != std::string::npos ? "move" : "game_action";
    if (starts("/api/challenge")) return "challenge";
    if (starts("/api/account") || path == "/api/token/test" || path == "/api/bot/account/upgrade")
        return "account";
    if (path == "/api/bot/online" || path == "/api/users/status") return "users";
    if (path == "/masters" || path == "/lichess" || path == "/player") return "explorer";
    if (path == "/api/cloud-eval") return "cloud_eval";
    // tablebase.lichess.org: /standard, and the atomic and antichess tables (spec tags/tablebase).
    if (path == "/standard" || path == "/atomic" || path == "/antichess") return "tablebase";
    if (path == "/cdb.php") return "chessdb";
    return "other";
}

bool is_online_family(const std::string& family) {
    return family == "explorer" || family == "cloud_eval" || family == "tablebase" ||
           family == "chessdb";
}

const char* fault_kind_name(FaultSpec::Kind k) {
    switch (k) {
        case FaultSpec::Kind::DROP:
            return "drop";
        case FaultSpec::Kind::SILENCE:
            return "silence";
        case FaultSpec::Kind::SPLIT:
            return "split";
        case FaultSpec::Kind::BATCH:
            return "batch";
        case FaultSpec::Kind::DELAY:
            return "delay";
        case FaultSpec::Kind::HTTP_429:
            return "http_429";
        case FaultSpec::Kind::HTTP_5XX:
            return "http_5xx";
        case FaultSpec::Kind::HTTP_4XX:
            return "http_4xx";
        case FaultSpec::Kind::INJECT:
            return "inject";
        case FaultSpec::Kind::MALFORMED:
            return "malformed";
    }
    return "?";
}

FaultPlan::FaultPlan(std::vector<FaultSpec> faults) {
    for (auto& f : faults) entries_.push_back({std::move(f)});
}

void FaultPlan::add(FaultSpec f) {
    std::lock_guard lock(mutex_);
    entries_.push_back({std::move(f)});
}

std::vector<FaultSpec> FaultPlan::take_http(const std::string& family, const std::string& game_id,
                                            Ms now) {
    return take(false, family, game_id, now);
}

std::vector<FaultSpec> FaultPlan::take_stream(const std::string& family, const std::string& game_id,
                                              Ms now) {
    return take(true, family, game_id, now);
}

std::vector<FaultSpec> FaultPlan::take(bool stream, const std::string& family,
                                       const std::string& game_id, Ms now) {
    std::vector<FaultSpec> out;
    std::lock_guard lock(mutex_);
    for (auto& e : entries_) {
        const auto k = e.spec.kind;
        const bool stream_kind = k == FaultSpec::Kind::DROP || k == FaultSpec::Kind::SILENCE ||
                                 k == FaultSpec::Kind::SPLIT || k == FaultSpec::Kind::BATCH ||
                                 k == FaultSpec::Kind::INJECT;
        if (stream_kind != stream) continue;
        if (e.spec.target == "any" ? is_online_family(family) : e.spec.target != family) continue;
        if (!e.spec.game.empty() && e.spec.game != game_id) continue;
        if (now < e.spec.from_ms) continue;
        if (e.spec.count >= 0 && e.fired >= e.spec.count) continue;
        if (e.seen++ < e.spec.skip) continue;
        ++e.fired;
        out.push_back(e.spec);
    }
    return out;
}

}  // namespace emu
