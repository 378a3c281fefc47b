// The run's traffic log: every request, every stream connection and every fault that fired,
// with timestamps in ms since the emulator started. Thread-safe.
#pragma once

#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace emu {

struct RequestRecord {
    Ms t_ms = 0;
    std::string method, path, query, family;
    int status = 0;
    std::string fault;  // the fault that answered it, if any
};

struct StreamRecord {
    int id = 0;
    std::string family;  // event_stream or game_stream
    std::string game_id;
    Ms opened_ms = 0, closed_ms = -1;
    int lines = 0;
    std::string end;  // completed, dropped, peer_gone, replaced, stopped, write_failed
};

struct FaultRecord {
    Ms t_ms = 0;
    std::string kind, family, game_id, detail;
};

class Recorder {
  public:
    void request(RequestRecord r);
    int stream_opened(const std::string& family, const std::string& game_id, Ms now);
    void stream_closed(int id, Ms now, int lines, const std::string& end);
    void fault(FaultRecord f);

    std::vector<RequestRecord> requests() const;
    std::vector<StreamRecord> streams() const;
    std::vector<FaultRecord> faults() const;
    nlohmann::json to_json() const;

  private:
    mutable std::mutex mutex_;
    std::vector<RequestRecord> requests_;
    std::vector<StreamRecord> streams_;
    std::vector<FaultRecord> faults_;
};

}  // namespace emu
