// Stores the traffic log and renders it as the report's JSON.
#include "recorder.hpp"

namespace emu {

void Recorder::request(RequestRecord r) {
    std::lock_guard lock(mutex_);
    requests_.push_back(std::move(r));
}

int Recorder::stream_opened(const std::string& family, const std::string& game_id, Ms now) {
    std::lock_guard lock(mutex_);
    StreamRecord s;
    s.id = int(streams_.size()) + 1;
    s.family = family;
    s.game_id = game_id;
    s.opened_ms = now;
    streams_.push_back(s);
    return s.id;
}

void Recorder::stream_closed(int id, Ms now, int lines, const std::string& end) {
    std::lock_guard lock(mutex_);
    if (id < 1 || id > int(streams_.size())) return;
    auto& s = streams_[id - 1];
    s.closed_ms = now;
    s.lines = lines;
    s.end = end;
}

void Recorder::fault(FaultRecord f) {
    std::lock_guard lock(mutex_);
    faults_.push_back(std::move(f));
}

std::vector<RequestRecord> Recorder::requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
}

std::vector<StreamRecord> Recorder::streams() const {
    std::lock_guard lock(mutex_);
    return streams_;
}

std::vector<FaultRecord> Recorder::faults() const {
    std::lock_guard lock(mutex_);
    return faults_;
}

nlohmann::json Recorder::to_json() const {
    std::lock_guard lock(mutex_);
    nlohmann::json requests = nlohmann::json::array(), streams = nlohmann::json::array(),
                   faults = nlohmann::json::array();
    for (const auto& r : requests_) {
        nlohmann::json j{{"t_ms", r.t_ms},
                         {"method", r.method},
                         {"path", r.path},
                         {"family", r.family},
                         {"status", r.status}};
        if (!r.query.empty()) j["query"] = r.query;
        if (!r.fault.empty()) j["fault"] = r.fault;
        requests.push_back(j);
    }
    for (const auto& s : streams_) {
        nlohmann::json j{{"id", s.id},
                         {"family", s.family},
                         {"opened_ms", s.opened_ms},
                         {"closed_ms", s.closed_ms},
                         {"lines", s.lines},
                         {"end", s.end}};
        if (!s.game_id.empty()) j["game_id"] = s.game_id;
        streams.push_back(j);
    }
    for (const auto& f : faults_) {
        nlohmann::json j{{"t_ms", f.t_ms}, {"kind", f.kind}, {"family", f.family}};
        if (!f.game_id.empty()) j["game_id"] = f.game_id;
        if (!f.detail.empty()) j["detail"] = f.detail;
        faults.push_back(j);
    }
    return {{"requests", requests}, {"streams", streams}, {"faults", faults}};
}

}  // namespace emu
