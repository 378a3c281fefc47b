// outpost-train: trains the engine's NNUE on outpost-datagen files and writes net files the
// engine loads. Usage and the recorded runs: docs/NNUE.md.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/attacks.hpp"
#include "engine/fen.hpp"
#include "tools/datagen/data_file.hpp"
#include "tools/tool_options.hpp"
#include "tools/trainer/trainer.hpp"

namespace {

std::string opt(const tools::Options& o, const std::string& key, const std::string& fallback = "") {
    const auto it = o.find(key);
    return it == o.end() ? fallback : it->second;
}
double opt_num(const tools::Options& o, const std::string& key, double fallback) {
    const auto it = o.find(key);
    return it == o.end() ? fallback : std::strtod(it->second.c_str(), nullptr);
}

void usage() {
    std::cerr << "usage: outpost-train --data FILE[,FILE...] --out PREFIX [--epochs 20] "
                 "[--lr 0.001] [--drop-every 8] [--gamma 0.3] [--batch 16384] [--threads 1] "
                 "[--lambda 0.75] [--mirror 1] [--seed 1] [--max N] [--validation-every 20] "
                 "[--init NET] [--king-buckets none|mirror|mirror4|mirror8] "
                 "[--hce-walks K | --hce-mix K]\n"
                 "       outpost-train --rescale NET --scale N --out FILE\n";
}

bool write_net(const engine::nnue::Network& net, const std::string& path) {
    const auto bytes = engine::nnue::serialize(net);
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    return bool(out);
}

// --rescale: the same weights with another output scale (centipawns per 1.0 of output), to
// calibrate a net's evaluations to the units the search's margins were tuned in.
int rescale(const tools::Options& o) {
    const auto net = engine::nnue::load_network_file(opt(o, "--rescale"));
    if (!net) {
        std::cerr << "outpost-train: --rescale: " << net.error() << "\n";
        return 2;
    }
    const double scale = opt_num(o, "--scale", 0);
    if (!o.count("--out") || scale < engine::nnue::MIN_SCALE || scale > engine::nnue::MAX_SCALE) {
        std::cerr << "outpost-train: --rescale needs --out and a --scale from "
                  << engine::nnue::MIN_SCALE << " to " << engine::nnue::MAX_SCALE << "\n";
        return 2;
    }
    auto copy = std::make_unique<engine::nnue::Network>(**net);
    copy->scale = int(scale);
    if (!write_net(*copy, opt(o, "--out"))) {
        std::cerr << "outpost-train: cannot write '" << opt(o, "--out") << "'\n";
        return 2;
    }
    std::fprintf(stderr, "%s: scale %d -> %d\n", opt(o, "--out").c_str(), (*net)->scale,
                 copy->scale);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    engine::init_attacks();
    const auto parsed = tools::parse_options(argc, argv, "outpost-train");
    if (!parsed) {
        usage();
        return 2;
    }
    tools::Options o = *parsed;
    if (o.count("--rescale")) return rescale(o);
    if (!o.count("--data") || !o.count("--out")) {
        usage();
        return 2;
    }
    // The king buckets: --king-buckets, else the --init net's, else none (nn10's inputs).
    std::optional<engine::nnue::KingBuckets> kings;
    if (o.count("--king-buckets")) {
        kings = engine::nnue::king_layout(opt(o, "--king-buckets"));
        if (!kings) {
            std::cerr << "outpost-train: --king-buckets: unknown layout '"
                      << opt(o, "--king-buckets") << "' (none, mirror, mirror4 or mirror8)\n";
            return 2;
        }
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    trainer::Data data;
    const std::string files = opt(o, "--data");
    for (std::size_t pos = 0; pos != std::string::npos;) {
        const std::size_t comma = files.find(',', pos);
        const std::string file =
            files.substr(pos, comma == std::string::npos ? comma : comma - pos);
        const long bad = trainer::load(file, data, int(opt_num(o, "--validation-every", 20)),
                                       std::size_t(opt_num(o, "--max", 0)),
                                       int(opt_num(o, "--hce-walks", opt_num(o, "--hce-mix", -1))),
                                       o.count("--hce-mix") > 0);
        if (bad < 0) {
            // A binary file's header says what is wrong with it; text files just cannot be opened.
            const auto scan =
                datagen::is_binary_data_file(file)
                    ? datagen::read_data_file(
                          file, [](const datagen::Record&) {}, 1)
                    : engine::Result<datagen::FileScan>::failure("cannot open '" + file + "'");
            std::cerr << "outpost-train: --data: "
                      << (scan ? "cannot read '" + file + "'" : scan.error()) << "\n";
            return 2;
        }
        std::fprintf(stderr, "%s: %ld unreadable lines or records\n", file.c_str(), bad);
        pos = comma == std::string::npos ? comma : comma + 1;
    }
    std::fprintf(stderr, "%zu training positions, %zu held out, loaded in %.1f s\n",
                 data.train.size(), data.validation.size(), seconds());
    if (data.train.empty()) return 2;

    const std::uint64_t seed = std::uint64_t(opt_num(o, "--seed", 1));
    trainer::Weights w =
        trainer::Weights::random(seed, kings.value_or(engine::nnue::KingBuckets{}));
    if (o.count("--init")) {
        // Any version and width the engine ever used: a narrower net is widened, a net without
        // king buckets gives each bucket its rows (trainer.hpp).
        const auto init = engine::nnue::read_net_file(opt(o, "--init"));
        auto from = init ? trainer::Weights::from(*init, seed, kings)
                         : engine::Result<trainer::Weights>::failure(init.error());
        if (!from) {
            std::cerr << "outpost-train: --init: " << from.error() << "\n";
            return 2;
        }
        w = std::move(*from);
    }
    trainer::Hyper h;
    h.lr = opt_num(o, "--lr", h.lr);
    h.lambda = opt_num(o, "--lambda", h.lambda);
    h.batch = int(opt_num(o, "--batch", h.batch));
    h.threads = int(opt_num(o, "--threads", 1));
    h.mirror = opt_num(o, "--mirror", 1) != 0;
    trainer::Trainer t(w, h);
    std::mt19937_64 rng(seed);
    const int epochs = int(opt_num(o, "--epochs", 20));
    const int drop_every = int(opt_num(o, "--drop-every", 8));
    const double gamma = opt_num(o, "--gamma", 0.3);
    const std::string prefix = opt(o, "--out");

    std::fprintf(stderr, "epoch 0: validation %.6f (the HCE's static eval: %.6f)\n",
                 t.loss(data.validation), t.loss_of(data.validation, data.validation_hce));
    // The starting point as a net file too: with --epochs 0 a widened --init is converted.
    if (!write_net(*std::make_unique<engine::nnue::Network>(trainer::quantise(w)),
                   prefix + "-e0.nnue")) {
        std::cerr << "outpost-train: cannot write '" << prefix << "-e0.nnue'\n";
        return 2;
    }
    double best = 1e9;
    for (int e = 1; e <= epochs; ++e) {
        const double lr = h.lr * std::pow(gamma, (e - 1) / std::max(1, drop_every));
        const double train_loss = t.epoch(data.train, rng, lr);
        const double val = t.loss(data.validation);
        const auto net = std::make_unique<engine::nnue::Network>(trainer::quantise(w));
        const std::string path = prefix + "-e" + std::to_string(e) + ".nnue";
        if (!write_net(*net, path)) {
            std::cerr << "outpost-train: cannot write '" << path << "'\n";
            return 2;
        }
        // The quantised net in the engine against the float net, on held-out positions: how
        // far their evaluations differ, and the loss of each (a fine-tune's steps can be finer
        // than the quantisation's).
        double diff = 0;
        std::vector<trainer::Sample> checked;
        std::vector<std::int16_t> quantised_cp;
        for (std::size_t i = 0; i < data.validation_fens.size(); ++i) {
            if (data.validation_fen_sample[i] >= data.validation.size()) continue;
            const auto b = trainer::board_from_text(data.validation_fens[i]);
            const trainer::Sample s = trainer::sample_from_board(*b, 0, 0.5f);
            const int cp = engine::nnue::evaluate(*net, *b);
            diff += std::abs(t.evaluate(s) - cp);
            checked.push_back(data.validation[data.validation_fen_sample[i]]);
            quantised_cp.push_back(std::int16_t(std::clamp(cp, -32000, 32000)));
        }
        const std::size_t n = checked.size();
        std::fprintf(stderr,
                     "epoch %d: lr %.2e train %.6f validation %.6f, quantised vs float %.2f cp "
                     "(loss %.6f vs %.6f on %zu), %.0f s -> %s\n",
                     e, lr, train_loss, val, n ? diff / double(n) : 0.0,
                     t.loss_of(checked, quantised_cp), t.loss(checked), n, seconds(), path.c_str());
        if (val < best) {
            best = val;
            write_net(*net, prefix + ".nnue");
        }
    }
    std::fprintf(stderr, "best validation %.6f -> %s.nnue\n", best, prefix.c_str());
    return 0;
}
