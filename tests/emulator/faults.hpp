// The scripted fault plan: which request or stream connection gets which fault, with counts,
// skips and start times, consumed thread-safely as traffic arrives.
#pragma once

#include <mutex>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace emu {

// Endpoint family of a request path: event_stream, game_stream, move, game_action, challenge,
// account, users, tournament, the online sources' explorer, cloud_eval, tablebase, chessdb, or
// "other".
std::string endpoint_family(const std::string& path);
// explorer, cloud_eval, tablebase, chessdb: served on the online sources' own port, and never
// matched by a fault of target "any" (which means any Bot API request).
bool is_online_family(const std::string& family);

class FaultPlan {
  public:
    explicit FaultPlan(std::vector<FaultSpec> faults);

    // Faults that fire on this request (DELAY, HTTP_429, HTTP_5XX), in scenario order; `path`:
    // the request's, for faults that name part of one.
    std::vector<FaultSpec> take_http(const std::string& family, const std::string& game_id, Ms now,
                                     const std::string& path = {});
    // Faults for a stream connection that is opening (DROP, SILENCE, SPLIT, BATCH).
    std::vector<FaultSpec> take_stream(const std::string& family, const std::string& game_id,
                                       Ms now);
    void add(FaultSpec f);

  private:
    std::vector<FaultSpec> take(bool stream, const std::string& family, const std::string& game_id,
                                Ms now, const std::string& path);
    struct Entry {
        FaultSpec spec;
        int seen = 0;
        int fired = 0;
    };
    std::mutex mutex_;
    std::vector<Entry> entries_;
};

const char* fault_kind_name(FaultSpec::Kind k);

}  // namespace emu
