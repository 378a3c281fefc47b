// The emulator as a library: a Lichess Bot API server on 127.0.0.1 driven by a Scenario (and,
// on a port of its own, the online sources: opening explorer, cloud eval, tablebase, chessdb),
// with its live recording for in-process tests and a JSON report for people and child processes.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "recorder.hpp"
#include "scenario.hpp"
#include "world.hpp"

namespace emu {

class Emulator {
  public:
    explicit Emulator(Scenario scenario);
    ~Emulator();
    Emulator(const Emulator&) = delete;
    Emulator& operator=(const Emulator&) = delete;

    // Starts the server on 127.0.0.1:port (0 = a free port), the online sources' server on
    // 127.0.0.1:online_port (0 = a free port) and the scenario clock; returns the port. Throws
    // std::runtime_error when it cannot listen.
    int start(int port = 0, int online_port = 0);
    // Stops every stream, connection and timer; idempotent.
    void stop();

    int port() const { return port_; }
    std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
    // The online sources' server: the url of every online source (explorer, cloud eval,
    // tablebase, chessdb), since their paths do not overlap.
    int online_port() const { return online_port_; }
    std::string online_url() const { return "http://127.0.0.1:" + std::to_string(online_port_); }
    const std::string& token() const { return world_->token(); }

    // True once the scenario's exit condition holds; wait_done blocks up to timeout_ms.
    bool done() const { return world_->done(); }
    bool wait_done(Ms timeout_ms) { return world_->wait_done(timeout_ms); }

    // The live recording: the whole report, or typed views.
    nlohmann::json report() const;
    bool write_report(const std::string& path) const;
    std::vector<GameView> games() const { return world_->games(); }
    std::vector<ChallengeView> challenges() const { return world_->challenges(); }
    std::vector<ArenaView> arenas() const { return world_->arenas(); }
    std::vector<RequestRecord> requests() const { return recorder_.requests(); }
    std::vector<StreamRecord> streams() const { return recorder_.streams(); }
    std::vector<FaultRecord> faults_fired() const { return recorder_.faults(); }
    World& world() { return *world_; }

  private:
    Recorder recorder_;
    std::unique_ptr<FaultPlan> faults_;
    std::unique_ptr<World> world_;
    struct Server;
    std::unique_ptr<Server> server_;
    int port_ = 0;
    int online_port_ = 0;
};

}  // namespace emu
