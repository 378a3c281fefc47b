// outpost-datagen: self-play training data for the NNUE, appended to a text file and resumed
// after a restart. Usage and the data format: docs/NNUE.md.
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "engine/attacks.hpp"
#include "engine/tools/datagen/datagen.hpp"
#include "engine/tools/tool_options.hpp"

namespace {

void usage() {
    std::cerr << "usage: outpost-datagen --out FILE [--seed S] [--games N (0: no end)] "
                 "[--nodes N] [--random-plies P] [--threads T] [--hash MB] [--net NNUE]\n";
}

// Game indices already in the file (a restart plays only the missing ones). A torn last line
// is ended so the next game starts on a line of its own.
std::vector<bool> games_done(const std::string& path, long long& positions) {
    std::vector<bool> done;
    std::ifstream in(path, std::ios::binary);
    if (!in) return done;
    std::string line;
    datagen::Line parsed;
    bool torn = false;
    while (std::getline(in, line)) {
        torn = in.eof();  // the last line had no newline
        if (!datagen::parse_line(line, parsed)) continue;
        ++positions;
        if (parsed.game >= done.size()) done.resize(std::size_t(parsed.game) + 1, false);
        done[std::size_t(parsed.game)] = true;
    }
    if (torn) std::ofstream(path, std::ios::app) << "\n";
    return done;
}

}  // namespace

int main(int argc, char** argv) {
    engine::init_attacks();
    const auto parsed = tools::parse_options(argc, argv, "outpost-datagen");
    if (!parsed) {
        usage();
        return 2;
    }
    tools::Options o = *parsed;
    if (!o.count("--out")) {
        usage();
        return 2;
    }
    const std::string path = o["--out"];
    datagen::Config config;
    config.seed = std::uint64_t(tools::int_option(o, "--seed", 1));
    config.nodes = int(tools::int_option(o, "--nodes", config.nodes));
    config.random_plies = int(tools::int_option(o, "--random-plies", config.random_plies));
    const long long games = tools::int_option(o, "--games", 0);
    const int threads = int(tools::int_option(o, "--threads", 1));
    const int hash_mb = int(tools::int_option(o, "--hash", 8));
    // --net FILE: both sides evaluate with that NNUE (later generations of data).
    std::shared_ptr<const engine::nnue::Network> net;
    if (o.count("--net")) {
        auto r = engine::nnue::load_network_file(o["--net"]);
        if (!r) {
            std::cerr << "outpost-datagen: --net: " << r.error() << "\n";
            return 2;
        }
        net = *r;
    }

    long long positions = 0;
    const std::vector<bool> done = games_done(path, positions);
    long long already = 0;
    for (bool d : done) already += d;
    std::FILE* out = std::fopen(path.c_str(), "ab");
    if (!out) {
        std::cerr << "outpost-datagen: cannot append to '" << path << "'\n";
        return 2;
    }
    std::fprintf(stderr,
                 "outpost-datagen: seed %llu, %d nodes/move, %s: %lld games (%lld positions) "
                 "already there\n",
                 static_cast<unsigned long long>(config.seed), config.nodes, path.c_str(), already,
                 positions);

    std::atomic<long long> next{0};
    std::mutex mu;
    long long played = 0, new_positions = 0, white = 0, black = 0;
    const auto start = std::chrono::steady_clock::now();
    auto worker = [&] {
        // The HCE unless --net, whatever the build's default evaluation.
        engine::Engine eng({.hash_mb = hash_mb, .threads = 1, .nnue = false});
        if (net) {
            eng.set_net(net);
            eng.set_nnue(true);
        }
        for (;;) {
            const long long i = next++;
            if (games > 0 && i >= games) return;
            if (std::size_t(i) < done.size() && done[std::size_t(i)]) continue;
            const datagen::Game g = datagen::play_game(eng, config, std::uint64_t(i));
            std::string text;
            for (const auto& s : g.samples) text += datagen::format_line(s, g.result, i);
            std::lock_guard lock(mu);
            std::fwrite(text.data(), 1, text.size(), out);
            std::fflush(out);
            ++played;
            new_positions += long(g.samples.size());
            white += g.result == 1.0f;
            black += g.result == 0.0f;
            if (played % 20 == 0) {
                const double s =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                std::fprintf(stderr,
                             "game %lld: %lld games, %lld positions (%.0f/h), +%lld =%lld -%lld, "
                             "%.0f s\n",
                             i, played, new_positions, double(new_positions) * 3600 / s, white,
                             played - white - black, black, s);
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    std::fclose(out);
    return 0;
}
