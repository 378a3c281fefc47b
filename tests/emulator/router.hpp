// Maps an HTTP request to the emulated endpoint: scripted HTTP faults first, then the token
// check, then the World call; every request is recorded (never with a token in it).
#pragma once

#include <map>
#include <string>

#include "faults.hpp"
#include "http_types.hpp"
#include "recorder.hpp"
#include "world.hpp"

namespace emu {

class Router {
  public:
    Router(World& world, FaultPlan& faults, Recorder& recorder)
        : world_(world), faults_(faults), recorder_(recorder) {}
    Routed route(const Request& req);

  private:
    Routed dispatch(const Request& req, const std::string& family, const std::string& game_id);
    World& world_;
    FaultPlan& faults_;
    Recorder& recorder_;
};

// The reply of an HTTP fault (HTTP_429, HTTP_5XX, HTTP_4XX) as lila or its proxy sends it.
Reply fault_reply(const FaultSpec& f);
std::string url_decode(const std::string& s, bool plus_is_space);
// key=value&... (form bodies and query strings), decoded.
std::map<std::string, std::string> parse_form(const std::string& s);

}  // namespace emu
