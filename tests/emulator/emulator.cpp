// Wires the World, the fault plan, the router and the HTTP server together.
#include "emulator.hpp"

#include <cstdio>
#include <fstream>

#include "http_server.hpp"
#include "online_router.hpp"
#include "router.hpp"

namespace emu {

struct Emulator::Server {
    Router router;
    HttpServer http;
    OnlineRouter online_router;
    HttpServer online_http;
    Server(World& w, FaultPlan& f, Recorder& r)
        : router(w, f, r),
          http([this](const Request& req) { return router.route(req); }),
          online_router(w, f, r, w.scenario().online),
          online_http([this](const Request& req) { return online_router.route(req); }) {}
};

Emulator::Emulator(Scenario scenario) {
    faults_ = std::make_unique<FaultPlan>(scenario.faults);
    world_ = std::make_unique<World>(std::move(scenario), recorder_, *faults_);
    server_ = std::make_unique<Server>(*world_, *faults_, recorder_);
}

Emulator::~Emulator() { stop(); }

int Emulator::start(int port, int online_port) {
    port_ = server_->http.start(port);
    online_port_ = server_->online_http.start(online_port);
    world_->start();
    return port_;
}

void Emulator::stop() {
    if (!server_) return;
    world_->stop();
    server_->http.stop();
    server_->online_http.stop();
}

nlohmann::json Emulator::report() const {
    auto j = world_->snapshot_json();
    j["traffic"] = recorder_.to_json();
    j["port"] = port_;
    return j;
}

bool Emulator::write_report(const std::string& path) const {
    // Written aside and renamed, so a reader never sees half a report.
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp);
        if (!out) return false;
        out << report().dump(2) << "\n";
        if (!out) return false;
    }
    return std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace emu
