// RequestRunner: carries out the rule owners' LichessRequests on a WorkerPool, never on the
// event loop, so that a request the server holds delays no gameStart and no other answer. An
// accept is urgent (a game waits on it); a withdrawal from an arena waits out a short 429 and
// is sent again; each answer goes to `deliver` (the Bot's queue), which hands it to its owner.
// Requests with no owner waiting (a resignation, a withdrawal) are logged here.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>

#include "lichess_client/api.hpp"
#include "service/daemon/lichess_request.hpp"
#include "service/daemon/worker_pool.hpp"
#include "service/ops/metrics.hpp"

namespace service {

class RequestRunner {
  public:
    using Deliver = std::function<void(LichessAnswer)>;

    // At most `threads` requests run at once (an urgent one may go past: WorkerPool).
    RequestRunner(lichess::Api& api, Metrics& metrics, Deliver deliver, std::size_t threads);
    RequestRunner(const RequestRunner&) = delete;
    RequestRunner& operator=(const RequestRunner&) = delete;

    // Queues the request and returns at once; its answer (if any) comes through `deliver`.
    void run(LichessRequest request);
    // Waits until every request made so far has finished, at most until `deadline`; false when
    // some still run then (shutdown's grace for declines and withdrawals).
    bool wait_idle_until(std::chrono::steady_clock::time_point deadline);

  private:
    void carry_out(LichessRequest& request, std::stop_token stop);

    lichess::Api& api_;
    Metrics& metrics_;
    const Deliver deliver_;
    WorkerPool workers_;  // last: destroyed first, so no request outlives what it uses
};

}  // namespace service
