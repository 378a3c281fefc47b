// The online sources' server (its own port): the Lichess opening explorer (/masters, /lichess,
// /player), cloud eval (/api/cloud-eval), tablebase (/standard) and chessdb (/cdb.php) answered
// from OnlineFixtures, with the scenario's faults of targets explorer, cloud_eval, tablebase and
// chessdb (delay, http_429, http_5xx, http_4xx, malformed); every request is recorded.
#pragma once

#include "faults.hpp"
#include "http_types.hpp"
#include "online_fixtures.hpp"
#include "recorder.hpp"
#include "world.hpp"

namespace emu {

class OnlineRouter {
  public:
    OnlineRouter(World& world, FaultPlan& faults, Recorder& recorder, const OnlineSpec& spec)
        : world_(world), faults_(faults), recorder_(recorder), fixtures_(spec) {}
    Routed route(const Request& req);

  private:
    Reply dispatch(const Request& req, const std::string& family);
    Reply explorer(const Request& req);
    Reply cloud_eval(const Request& req);
    Reply tablebase(const Request& req);
    Reply chessdb(const Request& req);

    World& world_;
    FaultPlan& faults_;
    Recorder& recorder_;
    OnlineFixtures fixtures_;
};

}  // namespace emu
