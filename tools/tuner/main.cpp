// outpost-tune: self-play data generation, Texel tuning of the evaluation weights, quick
// old-vs-new matches and an evaluation speed check. Usage: tools/tuner/README.md.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
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

#include "engine/evaluate.hpp"
#include "engine/fen.hpp"
#include "engine/movegen.hpp"
#include "tools/tuner/selfplay.hpp"
#include "tools/tuner/tuner.hpp"
#include "tools/tuner/variant_commands.hpp"

namespace {

using Options = std::map<std::string, std::string>;

std::string opt(const Options& o, const std::string& key, const std::string& fallback = "") {
    const auto it = o.find(key);
    return it == o.end() ? fallback : it->second;
}
long opt_int(const Options& o, const std::string& key, long fallback) {
    const auto it = o.find(key);
    return it == o.end() ? fallback : std::strtol(it->second.c_str(), nullptr, 10);
}
double opt_double(const Options& o, const std::string& key, double fallback) {
    const auto it = o.find(key);
    return it == o.end() ? fallback : std::strtod(it->second.c_str(), nullptr);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

bool load_params(const std::string& path, engine::EvalParams& out) {
    std::ifstream in(path);
    if (!in) return false;
    auto p = tuner::params_from_text(in);
    if (!p) return false;
    out = *p;
    return true;
}

// selfplay: one game per opening, positions of the engine's own games with the result.
int run_selfplay(const Options& o) {
    const auto openings = tuner::load_openings(opt(o, "--book"));
    if (openings.empty()) {
        std::cerr << "selfplay: no openings read from --book '" << opt(o, "--book") << "'\n";
        return 2;
    }
    const long games = std::min<long>(opt_int(o, "--games", 100), long(openings.size()));
    const int depth = int(opt_int(o, "--depth", 4));
    const int threads = int(opt_int(o, "--threads", 1));
    const long skip = opt_int(o, "--skip", 0);
    std::ofstream out(opt(o, "--out", "selfplay.txt"), std::ios::app);
    if (!out) {
        std::cerr << "selfplay: cannot write --out\n";
        return 2;
    }
    std::atomic<long> next{0};
    std::mutex mu;
    long done = 0, positions = 0;
    double score = 0;
    const auto start = std::chrono::steady_clock::now();
    auto worker = [&] {
        auto search = std::make_unique<tuner::MiniSearch>(engine::DEFAULT_EVAL_PARAMS);
        for (long i; (i = next++) < games;) {
            const auto& opening = openings[std::size_t((skip + i) % long(openings.size()))];
            const auto game = tuner::play_game(opening, *search, *search, depth, true);
            const char* label = game.result == 1.0f   ? "[1.0]"
                                : game.result == 0.0f ? "[0.0]"
                                                      : "[0.5]";
            std::lock_guard lock(mu);
            for (const auto& fen : game.quiet) out << fen << " " << label << "\n";
            out.flush();
            ++done;
            positions += long(game.quiet.size());
            score += game.result;
            if (done % 50 == 0 || done == games)
                std::fprintf(stderr, "%ld/%ld games, %ld positions, white scores %.3f, %.0f s\n",
                             done, games, positions, score / double(done), seconds_since(start));
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    return 0;
}

// match: candidate weights (--params) against the compiled-in ones (or --base), each opening
// played twice with colours swapped, fixed depth.
int run_match(const Options& o) {
    engine::EvalParams candidate = engine::DEFAULT_EVAL_PARAMS, base = engine::DEFAULT_EVAL_PARAMS;
    if (!load_params(opt(o, "--params"), candidate)) {
        std::cerr << "match: cannot read --params '" << opt(o, "--params") << "'\n";
        return 2;
    }
    if (o.count("--base") && !load_params(opt(o, "--base"), base)) {
        std::cerr << "match: cannot read --base\n";
        return 2;
    }
    const auto openings = tuner::load_openings(opt(o, "--book"));
    if (openings.empty()) {
        std::cerr << "match: no openings read from --book\n";
        return 2;
    }
    const long pairs = std::min<long>(opt_int(o, "--games", 100) / 2, long(openings.size()));
    const int depth = int(opt_int(o, "--depth", 4));
    const int threads = int(opt_int(o, "--threads", 1));
    const long skip = opt_int(o, "--skip", 0);
    std::atomic<long> next{0};
    std::mutex mu;
    long wins = 0, draws = 0, losses = 0;
    auto worker = [&] {
        auto a = std::make_unique<tuner::MiniSearch>(candidate);
        auto b = std::make_unique<tuner::MiniSearch>(base);
        for (long i; (i = next++) < pairs;) {
            const auto& opening = openings[std::size_t((skip + i) % long(openings.size()))];
            const auto g1 = tuner::play_game(opening, *a, *b, depth, false);
            const auto g2 = tuner::play_game(opening, *b, *a, depth, false);
            std::lock_guard lock(mu);
            for (float r : {g1.result, 1.0f - g2.result}) {
                if (r == 1.0f)
                    ++wins;
                else if (r == 0.0f)
                    ++losses;
                else
                    ++draws;
            }
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    const double n = double(wins + draws + losses);
    const double s = (wins + 0.5 * draws) / std::max(n, 1.0);
    const double elo = (s > 0 && s < 1) ? -400 * std::log10(1 / s - 1) : 0;
    std::printf("candidate vs base: +%ld =%ld -%ld, score %.3f, Elo %+.0f\n", wins, draws, losses,
                s, elo);
    return 0;
}

// tune: K, then Adam epochs; prints the weights as C++ (and as plain text for `match`).
int run_tune(const Options& o) {
    engine::EvalParams start = engine::DEFAULT_EVAL_PARAMS;
    if (o.count("--init") && !load_params(opt(o, "--init"), start)) {
        std::cerr << "tune: cannot read --init\n";
        return 2;
    }
    tuner::Dataset data;
    const auto t0 = std::chrono::steady_clock::now();
    const long bad =
        tuner::load_file(opt(o, "--data"), data, start, std::size_t(opt_int(o, "--max", 0)));
    if (bad < 0 || data.entries.empty()) {
        std::cerr << "tune: no positions read from --data '" << opt(o, "--data") << "'\n";
        return 2;
    }
    // The file is in game order: the held-out part is the last games, none of whose positions
    // are trained on (positions of one game are strongly correlated).
    const double holdout = opt_double(o, "--holdout", 0.1);
    const std::size_t train_end = std::size_t(double(data.entries.size()) * (1 - holdout));
    std::fprintf(stderr, "%zu positions (%ld unreadable lines), %zu for training, %.1f s\n",
                 data.entries.size(), bad, train_end, seconds_since(t0));

    tuner::Weights w = tuner::Weights::from(start);
    const double k = o.count("--k") ? opt_double(o, "--k", 1.0) : tuner::best_k(data, w);
    const double train0 = tuner::error(data, w, k, 0, train_end);
    const double test0 = tuner::error(data, w, k, train_end);
    std::fprintf(stderr, "K = %.4f, error: train %.6f, held-out %.6f\n", k, train0, test0);

    const long epochs = opt_int(o, "--epochs", 300);
    tuner::Optimizer adam(data, k, train_end, opt_double(o, "--lr", 1.0));
    // --freeze PSQT,MATERIAL keeps those groups at their starting values (small data sets).
    const std::string frozen = opt(o, "--freeze");
    for (std::size_t pos = 0; !frozen.empty() && pos != std::string::npos;) {
        const std::size_t comma = frozen.find(',', pos);
        const std::string name =
            frozen.substr(pos, comma == std::string::npos ? comma : comma - pos);
        if (!adam.freeze(name)) {
            std::cerr << "tune: --freeze: no weight group named '" << name << "'\n";
            return 2;
        }
        pos = comma == std::string::npos ? comma : comma + 1;
    }
    adam.regularize(w, opt_double(o, "--reg", 0.0));
    // Early stopping: keep the weights with the lowest held-out error seen.
    tuner::Weights best = w;
    const long best_epoch = tuner::train_with_early_stopping(
        epochs, test0, train_end < data.entries.size(), [&] { return adam.step(w); },
        [&] { return tuner::error(data, w, k, train_end); }, [&] { best = w; });
    std::fprintf(stderr, "keeping the weights of epoch %ld\n", best_epoch);
    w = best;
    const engine::EvalParams tuned = w.rounded();
    const tuner::Weights r = tuner::Weights::from(tuned);
    std::fprintf(stderr, "rounded weights: train %.6f, held-out %.6f (was %.6f, %.6f)\n",
                 tuner::error(data, r, k, 0, train_end), tuner::error(data, r, k, train_end),
                 train0, test0);
    const std::string cpp = tuner::params_to_cpp(tuned);
    if (o.count("--out-cpp")) {
        std::ofstream(opt(o, "--out-cpp")) << cpp;
    } else {
        std::cout << cpp;
    }
    if (o.count("--out-params"))
        std::ofstream(opt(o, "--out-params")) << tuner::params_to_text(tuned);
    return 0;
}

// bench: evaluations per second over the positions reachable in two plies from a few FENs.
int run_bench() {
    engine::init_attacks();
    const char* fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "2r3k1/pp3ppp/4p3/3pP3/1P1P4/P4N2/5PPP/2R3K1 b - - 0 25",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    };
    std::vector<engine::Board> boards;
    for (const char* f : fens) {
        const engine::Board b = *engine::parse_fen(f);
        for (engine::Move m : engine::legal_moves(b)) {
            engine::Board c = b;
            c.make_move(m);
            for (engine::Move m2 : engine::legal_moves(c)) {
                engine::Board d = c;
                d.make_move(m2);
                boards.push_back(d);
            }
        }
    }
    long long sum = 0;
    const auto t0 = std::chrono::steady_clock::now();
    long long n = 0;
    while (seconds_since(t0) < 2.0) {
        for (const auto& b : boards) sum += engine::evaluate(b);
        n += long(boards.size());
    }
    std::printf("%lld evaluations of %zu positions: %.2f M evals/s (checksum %lld)\n", n,
                boards.size(), double(n) / seconds_since(t0) / 1e6, sum);
    return 0;
}

void usage() {
    std::cerr
        << "usage: outpost-tune selfplay --book FILE [--games N] [--depth D] [--threads T] "
           "[--skip N] [--out FILE]\n"
           "       outpost-tune tune --data FILE [--epochs N] [--lr X] [--holdout F] "
           "[--max N] [--k K] [--init PARAMS] [--freeze GROUP,...] [--reg L] [--out-cpp FILE] "
           "[--out-params FILE]\n"
           "       outpost-tune match --params FILE [--base FILE] --book FILE [--games N] "
           "[--depth D] [--threads T] [--skip N]\n"
           "       outpost-tune selfplay --variant KEY [--games N] [--nodes N] [--threads T] "
           "[--seed S] [--opening-plies P] [--out FILE]\n"
           "       outpost-tune tune --variant KEY --data FILE [--epochs N] [--lr X] "
           "[--holdout F] [--max N] [--k K] [--init PARAMS] [--freeze GROUP,...] [--reg L] "
           "[--out-params FILE]\n"
           "       outpost-tune pgn --variant KEY --pgn FILE [--out FILE]\n"
           "       outpost-tune label --variant KEY --data FILE --engine CMD [--engine-args "
           "ARGS] [--nodes N] [--mix M] [--threads T] [--out FILE]\n"
           "       outpost-tune match --variant KEY --params FILE [--base FILE] [--games N] "
           "[--nodes N] [--threads T] [--seed S]\n"
           "       outpost-tune bench\n";
}

}  // namespace

int main(int argc, char** argv) {
    engine::init_attacks();
    if (argc < 2) {
        usage();
        return 2;
    }
    const std::string mode = argv[1];
    Options o;
    for (int i = 2; i < argc; ++i) {
        const std::string key = argv[i];
        if (key.rfind("--", 0) != 0 || i + 1 >= argc) {
            std::cerr << "outpost-tune: expected --option value, got '" << key << "'\n";
            usage();
            return 2;
        }
        o[key] = argv[++i];
    }
    if (o.count("--variant")) {
        const auto v = engine::parse_variant(o["--variant"]);
        if (!v || *v == engine::Variant::STANDARD) {
            std::cerr << "outpost-tune: --variant: not a variant: '" << o["--variant"] << "'\n";
            return 2;
        }
        if (mode == "selfplay") return tuner::run_variant_selfplay(o, *v);
        if (mode == "tune") return tuner::run_variant_tune(o, *v);
        if (mode == "match") return tuner::run_variant_match(o, *v);
        if (mode == "pgn") return tuner::run_variant_pgn(o, *v);
        if (mode == "label") return tuner::run_variant_label(o, *v);
    }
    if (mode == "selfplay") return run_selfplay(o);
    if (mode == "tune") return run_tune(o);
    if (mode == "match") return run_match(o);
    if (mode == "bench") return run_bench();
    usage();
    return 2;
}
