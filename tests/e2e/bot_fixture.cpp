// The end-to-end fixture: the daemon built from YAML config text and run against the emulator.
#include "bot_fixture.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "config/error.hpp"
#include "config/load.hpp"

namespace e2e {

std::string config_text(const emu::EmulatorFixture& fx, const BotSettings& s) {
    std::ostringstream out;
    out << "url: \"" << fx.base_url() << "\"\n"
        << "token: \"" << fx.token() << "\"\n"
        << "engine: {" << (s.engine.find("hash_mb") == std::string::npos ? "hash_mb: 8, " : "")
        << "threads: 1" << (s.engine.empty() ? "" : ", " + s.engine) << "}\n"
        << "health: {listen: \"\"}\n"
        << "shutdown_grace_s: " << s.shutdown_grace_s << "\n"
        << "challenge: " << s.challenge << "\n"
        << s.extra;
    return out.str();
}

namespace {

config::Config load(const std::string& text) {
    config::LoadOptions options;
    options.env = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    auto loaded = config::load_string(text, "e2e.yml", options);
    if (!loaded.ok()) {
        std::string what = "e2e config has errors:";
        for (const auto& e : loaded.errors) what += "\n" + config::format_error(e, "e2e.yml");
        throw std::runtime_error(what + "\n" + text);
    }
    return *loaded.config;
}

lichess::StreamOptions stream_options(std::chrono::milliseconds silence) {
    lichess::StreamOptions o;
    o.silence_timeout = silence;
    o.reconnect.initial = std::chrono::milliseconds(100);
    o.reconnect.max = std::chrono::milliseconds(1000);
    return o;
}

}  // namespace

BotRunner::BotRunner(emu::EmulatorFixture& fx, BotSettings settings)
    : config_(load(config_text(fx, settings))) {
    lichess::ApiOptions options;
    options.http.base_url = config_.url;
    options.http.token = config_.token;
    if (settings.rate_limit_pause) options.rate_limit.min_pause = *settings.rate_limit_pause;
    api_ = std::make_unique<lichess::Api>(options);
    auto account = api_->account();
    if (!account)
        throw std::runtime_error("e2e: /api/account failed: " + account.error().describe());
    api_->set_username(account->username);
    bot_ = std::make_unique<service::Bot>(
        config_, *api_, service::BotIdentity{.id = account->id, .name = account->username},
        metrics_,
        service::BotOptions{.stream_options = stream_options(settings.silence),
                            .tick = std::chrono::milliseconds(50),
                            .matchmaking = settings.matchmaking});
    thread_ = std::jthread([this] {
        exit_code_ = bot_->run(graceful_.get_token(), abort_.get_token());
        returned_ = true;
    });
}

BotRunner::~BotRunner() { (void)stop(); }

int BotRunner::stop() {
    if (!thread_.joinable()) return exit_code_.value_or(-1);
    graceful_.request_stop();
    abort_.request_stop();
    // Every wait in the suite is bounded: a daemon that does not stop is a failure, not a hang.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!returned_ && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!returned_) {
        std::fputs("e2e: service::Bot::run did not return within 30 s of a stop\n", stderr);
        std::abort();
    }
    thread_.join();
    return exit_code_.value_or(-1);
}

bool wait_event_stream(emu::EmulatorFixture& fx, std::chrono::milliseconds timeout) {
    return fx.wait_until(
        [&] {
            for (const auto& s : fx->streams())
                if (s.family == "event_stream" && s.closed_ms < 0) return true;
            return false;
        },
        timeout);
}

void send_challenges(emu::EmulatorFixture& fx, const std::string& scenario_yaml) {
    auto parsed = emu::parse_scenario(scenario_yaml);
    if (!parsed.scenario) throw std::runtime_error("e2e: scenario: " + parsed.error);
    const emu::Ms now = fx->world().now();
    for (auto c : parsed.scenario->challenges) {
        c.at_ms += now;
        fx->world().add_challenge(std::move(c));
    }
}

emu::GameView game(emu::EmulatorFixture& fx, const std::string& id) {
    for (auto& g : fx->games())
        if (g.id == id) return g;
    return {};
}

std::string describe(const emu::GameView& g) {
    std::string s = "game " + g.id + ": " + (g.over ? "over" : "running") + ", status '" +
                    g.status + "', winner " + g.winner.value_or("none") + ", bot " + g.bot_color +
                    ", " + std::to_string(g.moves.size()) + " plies: " + g.uci_moves;
    if (!g.events.empty()) {
        s += "; events:";
        for (const auto& e : g.events) s += " " + e;
    }
    return s;
}

bool bot_forfeited_on_time(const emu::GameView& g) {
    return (g.status == "outoftime" || g.status == "noStart") && g.winner &&
           *g.winner != g.bot_color;
}

bool legal_end(const emu::GameView& g) {
    static const std::vector<std::string> ends{"mate",      "resign",  "stalemate", "draw",
                                               "outoftime", "timeout", "variantEnd"};
    if (!g.over || bot_forfeited_on_time(g)) return false;
    for (const auto& e : ends)
        if (g.status == e) return true;
    return false;
}

int bot_moves(const emu::GameView& g) {
    int n = 0;
    for (const auto& m : g.moves) n += m.by_bot ? 1 : 0;
    return n;
}

int rejected_moves(emu::EmulatorFixture& fx, const std::string& game_id) {
    int n = 0;
    for (const auto& r : fx->requests())
        if (r.family == "move" && r.status == 400 && r.path.find(game_id) != std::string::npos) ++n;
    return n;
}

std::vector<emu::RequestRecord> requests_with(emu::EmulatorFixture& fx, const std::string& part) {
    std::vector<emu::RequestRecord> out;
    for (auto& r : fx->requests())
        if (r.path.find(part) != std::string::npos) out.push_back(r);
    return out;
}

int requests_to(emu::EmulatorFixture& fx, const std::string& part) {
    return static_cast<int>(requests_with(fx, part).size());
}

emu::ChallengeView challenge(emu::EmulatorFixture& fx, const std::string& id) {
    for (auto& c : fx->challenges())
        if (c.id == id) return c;
    return {};
}

bool has_event(const emu::GameView& g, const std::string& prefix) {
    for (const auto& e : g.events)
        if (e.rfind(prefix, 0) == 0) return true;
    return false;
}

}  // namespace e2e
