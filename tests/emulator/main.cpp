// outpost-emulator: runs the Lichess emulator from a scenario file until SIGINT/SIGTERM or the
// scenario's exit condition, then writes the report.
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <iostream>
#include <string>

#include "emulator.hpp"
#include "engine/position.hpp"
#include "engine/variant_table.hpp"

namespace {

// One paragraph per game for people (and `make demo`): players, moves in SAN, result.
void print_summary(const nlohmann::json& report) {
    for (const auto& g : report["games"]) {
        const std::string fen = g["initial_fen"];
        const std::string key = g["variant"];
        const engine::Variant variant =
            engine::parse_variant(key).value_or(engine::Variant::STANDARD);
        auto pos = fen == "startpos" ? engine::Position::start(variant)
                                     : *engine::Position::from_fen(
                                           fen, variant, engine::castles_as_chess960(key));
        std::string moves;
        int n = 0;
        for (const auto& m : g["moves"]) {
            const auto move = pos.parse_uci(m["uci"].get<std::string>());
            if (!move) break;
            const int fullmove = pos.visit([](const auto& b) { return int(b.fullmove_number); });
            if (pos.side_to_move() == engine::WHITE || n == 0)
                moves += std::to_string(fullmove) +
                         (pos.side_to_move() == engine::WHITE ? ". " : "... ");
            moves += pos.san(*move) + " ";
            pos.play(*move);
            ++n;
        }
        const std::string winner = g["winner"].is_null() ? "none" : g["winner"].get<std::string>();
        std::cout << "game " << g["id"].get<std::string>() << ": bot "
                  << g["bot_color"].get<std::string>() << " vs "
                  << g["opponent"]["name"].get<std::string>() << " ("
                  << g["opponent"]["kind"].get<std::string>() << ")\n  " << moves
                  << "\n  result: " << g["status"].get<std::string>() << ", winner " << winner
                  << "\n";
    }
    std::cout.flush();
}

void usage() {
    std::cerr << "usage: outpost-emulator --scenario FILE [--port N] [--online-port N]\n"
                 "                        [--report OUT.json] [--token T]\n"
                 "  --port 0 (default) picks a free port; the first stdout line is\n"
                 "  'listening on 127.0.0.1:PORT'. The online sources (explorer, cloud eval,\n"
                 "  tablebase, chessdb) answer on --online-port (0: a free one), printed on the\n"
                 "  second line as 'online sources on 127.0.0.1:PORT'.\n";
}

}  // namespace

int main(int argc, char** argv) {
    std::string scenario_path, report_path, token;
    int port = 0, online_port = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "outpost-emulator: " << a << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--scenario")
            scenario_path = value();
        else if (a == "--report")
            report_path = value();
        else if (a == "--token")
            token = value();
        else if (a == "--port" || a == "--online-port") {
            const auto v = value();
            int n = -1;
            try {
                n = std::stoi(v);
            } catch (const std::exception&) {
                n = -1;
            }
            if (n < 0 || n > 65535) {
                std::cerr << "outpost-emulator: " << a << ": not a port number: " << v << "\n";
                return 2;
            }
            (a == "--port" ? port : online_port) = n;
        } else if (a == "-h" || a == "--help") {
            usage();
            return 0;
        } else {
            std::cerr << "outpost-emulator: unknown argument " << a << "\n";
            usage();
            return 2;
        }
    }
    if (scenario_path.empty()) {
        usage();
        return 2;
    }
    auto loaded = emu::load_scenario_file(scenario_path);
    if (!loaded.scenario) {
        std::cerr << "outpost-emulator: " << loaded.error << "\n";
        return 1;
    }
    if (!token.empty()) loaded.scenario->account.token = token;

    // Signals are taken synchronously by this thread; every other thread inherits the mask.
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &signals, nullptr);

    emu::Emulator emulator(std::move(*loaded.scenario));
    try {
        emulator.start(port, online_port);
    } catch (const std::exception& e) {
        std::cerr << e.what() << "\n";
        return 1;
    }
    std::cout << "listening on 127.0.0.1:" << emulator.port() << std::endl;
    std::cout << "online sources on 127.0.0.1:" << emulator.online_port() << std::endl;

    const char* why = "signal";
    for (;;) {
        if (emulator.done()) {
            why = "scenario finished";
            break;
        }
        timespec wait{0, 100'000'000};
        if (sigtimedwait(&signals, nullptr, &wait) > 0) break;
    }
    emulator.stop();
    std::cerr << "outpost-emulator: stopping (" << why << ")\n";
    print_summary(emulator.report());
    if (!report_path.empty() && !emulator.write_report(report_path)) {
        std::cerr << "outpost-emulator: cannot write report " << report_path << "\n";
        return 1;
    }
    return 0;
}
