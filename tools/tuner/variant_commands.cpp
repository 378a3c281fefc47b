// The variant commands of outpost-tune: games on threads, tuning, and the weights in and out.
#include "tools/tuner/variant_commands.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "tools/match/elo.hpp"
#include "tools/match/openings.hpp"
#include "tools/match/uci_engine.hpp"
#include "tools/tuner/engine_label.hpp"
#include "tools/tuner/variant_selfplay.hpp"
#include "tools/tuner/variant_tuner.hpp"

namespace tuner {

namespace {

std::string opt(const CommandOptions& o, const std::string& key, const std::string& fallback = "") {
    const auto it = o.find(key);
    return it == o.end() ? fallback : it->second;
}
long long opt_int(const CommandOptions& o, const std::string& key, long long fallback) {
    const auto it = o.find(key);
    return it == o.end() ? fallback : std::strtoll(it->second.c_str(), nullptr, 10);
}
double opt_double(const CommandOptions& o, const std::string& key, double fallback) {
    const auto it = o.find(key);
    return it == o.end() ? fallback : std::strtod(it->second.c_str(), nullptr);
}

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// The compiled-in weights with the groups a --params file names replaced; false on an error.
bool load_weights(const std::string& path, engine::VariantWeights& out) {
    std::ifstream in(path);
    out = engine::DEFAULT_VARIANT_WEIGHTS;
    return in && variant_weights_from_text(in, out);
}

// Game n's opening: random plies from the start, seeded by the game's pair.
std::vector<std::string> opening_of(engine::Variant v, long long pair, long long seed, int plies) {
    return match::random_opening(v, plies, std::uint64_t(seed) * 1000003ULL + std::uint64_t(pair));
}

// Runs play(index) for index 0..count-1 on `threads` threads.
template <class F>
void on_threads(long long count, int threads, F&& play) {
    std::atomic<long long> next{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < std::max(threads, 1); ++t)
        pool.emplace_back([&] {
            for (long long i; (i = next++) < count;) play(i);
        });
    for (auto& t : pool) t.join();
}

}  // namespace

int run_variant_selfplay(const CommandOptions& o, engine::Variant v) {
    const long long games = opt_int(o, "--games", 100);
    const auto nodes = std::uint64_t(opt_int(o, "--nodes", 5000));
    const long long seed = opt_int(o, "--seed", 1);
    const int plies = int(opt_int(o, "--opening-plies", 8));
    std::ofstream out(opt(o, "--out", "selfplay.txt"), std::ios::app);
    if (!out) {
        std::cerr << "selfplay: cannot write --out '" << opt(o, "--out", "selfplay.txt") << "'\n";
        return 2;
    }
    std::mutex mu;
    long long done = 0, positions = 0;
    double score = 0;
    const auto start = std::chrono::steady_clock::now();
    on_threads(games, int(opt_int(o, "--threads", 1)), [&](long long i) {
        thread_local std::unique_ptr<engine::Engine> engine;
        if (!engine)
            engine = std::make_unique<engine::Engine>(
                engine::EngineOptions{.hash_mb = 16, .threads = 1});
        const auto game =
            play_variant_game(v, opening_of(v, i, seed, plies), *engine, *engine, nodes, true);
        std::lock_guard lock(mu);
        for (const auto& fen : game.fens) out << fen << " " << result_label(game.result) << "\n";
        out.flush();
        ++done;
        positions += (long long)game.fens.size();
        score += game.result;
        if (done % 20 == 0 || done == games)
            std::fprintf(stderr, "%lld/%lld games, %lld positions, white scores %.3f, %.0f s\n",
                         done, games, positions, score / double(done), seconds_since(start));
    });
    return 0;
}

int run_variant_pgn(const CommandOptions& o, engine::Variant v) {
    std::ifstream in(opt(o, "--pgn"));
    std::ofstream out(opt(o, "--out", "pgn-data.txt"), std::ios::app);
    if (!in || !out) {
        std::cerr << "pgn: cannot read --pgn '" << opt(o, "--pgn") << "' or write --out\n";
        return 2;
    }
    long long games = 0, positions = 0, unreadable = 0;
    for (std::string text; !(text = read_pgn_game(in)).empty();) {
        const auto game = positions_of_pgn_game(text, v);
        if (!game) {
            ++unreadable;
            continue;
        }
        ++games;
        for (const auto& fen : game->fens) out << fen << " " << result_label(game->result) << "\n";
        positions += (long long)game->fens.size();
    }
    std::fprintf(stderr, "%lld games, %lld positions, %lld unreadable games\n", games, positions,
                 unreadable);
    return 0;
}

int run_variant_label(const CommandOptions& o, engine::Variant v) {
    std::ifstream in(opt(o, "--data"));
    std::vector<LabelledFen> lines;
    long bad = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        if (auto l = parse_variant_data_line(line)) {
            lines.push_back(std::move(*l));
        } else {
            ++bad;
        }
    }
    if (lines.empty() || !o.count("--engine")) {
        std::cerr << "label: no data lines read from --data '" << opt(o, "--data")
                  << "', or no --engine\n";
        return 2;
    }
    match::EngineSpec spec{"labeller", opt(o, "--engine"), {}, {{"Hash", "16"}, {"Threads", "1"}}};
    std::istringstream args(opt(o, "--engine-args"));
    for (std::string a; args >> a;) spec.args.push_back(a);
    const std::string go = "go nodes " + std::to_string(opt_int(o, "--nodes", 20000));
    const double mix = opt_double(o, "--mix", 1.0);
    // The labelled lines in file order (the tuner holds out the file's last games).
    std::vector<std::optional<std::string>> labelled(lines.size());
    std::atomic<long long> next{0}, done{0}, failed{0};
    const auto start = std::chrono::steady_clock::now();
    std::mutex mu;
    std::vector<std::thread> pool;
    for (int t = 0; t < std::max(1, int(opt_int(o, "--threads", 1))); ++t)
        pool.emplace_back([&] {
            match::UciEngine labeller(spec);
            for (long long i; (i = next++) < (long long)lines.size();) {
                std::optional<match::EngineScore> score;
                const auto error = labeller.ensure_started(engine::uci_name(v));
                if (error && failed == 0) {
                    const std::lock_guard lock(mu);
                    std::cerr << "label: " << *error << "\n";
                }
                if (!error && labeller.new_game()) {
                    const auto reply = labeller.play(
                        "position fen " + uci_fen(v, lines[std::size_t(i)].fen), go, 60000);
                    if (reply.status == match::UciEngine::Status::MOVED) score = reply.score;
                }
                if (score) {
                    labelled[std::size_t(i)] =
                        engine_labelled_line(lines[std::size_t(i)], *score, mix);
                } else {
                    ++failed;
                }
                if (++done % 1000 == 0) {
                    const std::lock_guard lock(mu);
                    std::fprintf(stderr, "%lld/%zu positions, %.0f s\n", done.load(), lines.size(),
                                 seconds_since(start));
                }
            }
        });
    for (auto& t : pool) t.join();
    std::ofstream out(opt(o, "--out", "labelled.txt"));
    for (const auto& l : labelled)
        if (l) out << *l << "\n";
    if (!out) {
        std::cerr << "label: cannot write --out '" << opt(o, "--out", "labelled.txt") << "'\n";
        return 2;
    }
    std::fprintf(stderr, "%zu positions labelled, %lld without a score, %ld unreadable lines\n",
                 lines.size() - std::size_t(failed.load()), failed.load(), bad);
    return failed == (long long)lines.size() ? 1 : 0;
}

int run_variant_tune(const CommandOptions& o, engine::Variant v) {
    engine::VariantWeights start = engine::DEFAULT_VARIANT_WEIGHTS;
    if (o.count("--init") && !load_weights(opt(o, "--init"), start)) {
        std::cerr << "tune: cannot read --init '" << opt(o, "--init") << "'\n";
        return 2;
    }
    VariantDataset data;
    data.variant = v;
    const long bad =
        load_variant_file(opt(o, "--data"), data, start, std::size_t(opt_int(o, "--max", 0)));
    if (bad < 0 || data.entries.empty()) {
        std::cerr << "tune: no positions read from --data '" << opt(o, "--data") << "'\n";
        return 2;
    }
    // The held-out part is the last games of the file (positions of one game are correlated).
    const std::size_t train_end =
        std::size_t(double(data.entries.size()) * (1 - opt_double(o, "--holdout", 0.1)));
    std::fprintf(stderr, "%zu positions (%ld unreadable lines), %zu for training\n",
                 data.entries.size(), bad, train_end);
    std::vector<double> w = to_doubles(start);
    const double k = o.count("--k") ? opt_double(o, "--k", 1.0) : variant_best_k(data, w);
    const double train0 = variant_error(data, w, k, 0, train_end);
    const double test0 = variant_error(data, w, k, train_end);
    std::fprintf(stderr, "K = %.4f, error: train %.6f, held-out %.6f\n", k, train0, test0);

    VariantOptimizer adam(data, k, train_end, opt_double(o, "--lr", 1.0));
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
    std::vector<double> best = w;
    const long best_epoch = train_with_early_stopping(
        opt_int(o, "--epochs", 300), test0, train_end < data.entries.size(),
        [&] { return adam.step(w); }, [&] { return variant_error(data, w, k, train_end); },
        [&] { best = w; });
    const engine::VariantWeights tuned = rounded(best);
    const std::vector<double> r = to_doubles(tuned);
    std::fprintf(stderr,
                 "keeping the weights of epoch %ld: train %.6f, held-out %.6f (was %.6f, %.6f)\n",
                 best_epoch, variant_error(data, r, k, 0, train_end),
                 variant_error(data, r, k, train_end), train0, test0);
    std::cout << variant_weights_to_cpp(tuned, v);
    if (o.count("--out-params"))
        std::ofstream(opt(o, "--out-params")) << variant_weights_to_text(tuned, v);
    return 0;
}

int run_variant_match(const CommandOptions& o, engine::Variant v) {
    auto candidate = std::make_shared<engine::VariantWeights>();
    auto base = std::make_shared<engine::VariantWeights>(engine::DEFAULT_VARIANT_WEIGHTS);
    if (!load_weights(opt(o, "--params"), *candidate)) {
        std::cerr << "match: cannot read --params '" << opt(o, "--params") << "'\n";
        return 2;
    }
    if (o.count("--base") && !load_weights(opt(o, "--base"), *base)) {
        std::cerr << "match: cannot read --base '" << opt(o, "--base") << "'\n";
        return 2;
    }
    const long long pairs = opt_int(o, "--games", 100) / 2;
    const auto nodes = std::uint64_t(opt_int(o, "--nodes", 5000));
    const long long seed = opt_int(o, "--seed", 1);
    const int plies = int(opt_int(o, "--opening-plies", 8));
    std::mutex mu;
    int wins = 0, losses = 0, draws = 0;
    on_threads(pairs, int(opt_int(o, "--threads", 1)), [&](long long i) {
        engine::Engine a(engine::EngineOptions{.hash_mb = 16, .threads = 1});
        engine::Engine b(engine::EngineOptions{.hash_mb = 16, .threads = 1});
        a.set_variant_weights(candidate);
        b.set_variant_weights(base);
        const auto opening = opening_of(v, i, seed, plies);
        const float first = play_variant_game(v, opening, a, b, nodes, false).result;
        const float second = 1.0f - play_variant_game(v, opening, b, a, nodes, false).result;
        std::lock_guard lock(mu);
        for (const float r : {first, second}) {
            wins += r == 1.0f;
            losses += r == 0.0f;
            draws += r == 0.5f;
        }
    });
    const auto e = match::trinomial_elo(wins, losses, draws);
    std::printf("candidate vs base: %d-%d-%d, score %.3f, Elo %+.1f +- %.1f\n", wins, losses, draws,
                e.score, e.elo, e.error);
    return 0;
}

}  // namespace tuner
