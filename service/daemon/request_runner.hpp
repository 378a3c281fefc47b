// RequestRunner: carries out the rule owners' LichessRequests on a WorkerPool, never on the
// event loop, so that a request the server holds delays no gameStart and no other answer. An
// accept is urgent (a game waits on it); a withdrawal from an arena waits out a short 429 and
// is sent again; each answer goes to `deliver` (the Bot's queue), which hands it to its owner.
// Requests with no owner waiting (a resignation, a withdrawal) are logged here.
// A game's own requests (run_for_game) are carried out on the game's thread and answered there:
// the game waits on the answer and has nothing else to do meanwhile, so its move never waits for
// a thread of the pool behind another owner's requests. Its chat lines go to the ChatSender,
// paced on a thread of their own.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>

#include "lichess_client/api.hpp"
#include "service/daemon/chat_sender.hpp"
#include "service/daemon/game_api.hpp"
#include "service/daemon/lichess_request.hpp"
#include "service/daemon/worker_pool.hpp"
#include "service/ops/metrics.hpp"

namespace service {

class RequestRunner {
  public:
    using Deliver = std::function<void(LichessAnswer)>;

    // At most `threads` requests run at once (an urgent one may go past: WorkerPool).
    // `games` makes a game's calls (lichess::Api's through LichessGameApi in the daemon).
    RequestRunner(lichess::Api& api, GameApi& games, ChatSender& chat, Metrics& metrics,
                  Deliver deliver, std::size_t threads);
    RequestRunner(const RequestRunner&) = delete;
    RequestRunner& operator=(const RequestRunner&) = delete;

    // Queues the request and returns at once; its answer (if any) comes through `deliver`.
    void run(LichessRequest request);
    // Carries out a game's request here, on the caller's thread, and returns the answer its
    // rules wait for (MovePosted, ResignAnswered, TakebackAnswered, ClaimAnswered); none for the
    // others, whose failure is logged.
    std::optional<GameInput> run_for_game(const GameRequest& request);
    // Waits until every request made so far has finished, at most until `deadline`; false when
    // some still run then (shutdown's grace for declines and withdrawals).
    bool wait_idle_until(std::chrono::steady_clock::time_point deadline);

  private:
    void carry_out(LichessRequest& request, std::stop_token stop);

    lichess::Api& api_;
    GameApi& games_;
    ChatSender& chat_;
    Metrics& metrics_;
    const Deliver deliver_;
    WorkerPool workers_;  // last: destroyed first, so no request outlives what it uses
};

}  // namespace service
