// outpost-datagen: self-play training data for the NNUE, appended to a binary file and resumed
// after any stop; `--dump` prints a binary file as the text format. Usage and the data format:
// docs/NNUE.md.
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "engine/attacks.hpp"
#include "engine/fen.hpp"
#include "tools/datagen/data_file.hpp"
#include "tools/datagen/generator.hpp"
#include "tools/tool_options.hpp"

namespace {

std::atomic<bool> g_stop{false};

// SIGINT / SIGTERM: finish cleanly (complete games are already on disk, the games in play are
// dropped). A second signal kills at once, which loses nothing more either.
extern "C" void on_signal(int sig) {
    g_stop = true;
    std::signal(sig, SIG_DFL);
}

void usage() {
    std::cerr << "usage: outpost-datagen --out FILE [--seed S] [--games N (0: no end)] "
                 "[--nodes N] [--random-plies P] [--threads T (default: every core)] "
                 "[--hash MB] [--net NNUE] [--progress SECONDS]\n"
                 "       outpost-datagen --dump FILE   (the records as text lines, file order)\n";
}

// Every complete game's records as `FEN;score;result;game` lines (the text format), so binary
// data can be compared, hashed and read by anything that reads the text.
int dump(const std::string& path) {
    long long bad = 0;
    std::string out;
    const auto scan = datagen::read_data_file(path, [&](const datagen::Record& r) {
        const auto d = datagen::decode_record(r);
        if (!d) {
            ++bad;
            return;
        }
        out += datagen::format_line({d->board, d->score_white}, d->result, d->game);
        if (out.size() > (1 << 20)) {
            std::fwrite(out.data(), 1, out.size(), stdout);
            out.clear();
        }
    });
    if (!scan) {
        std::cerr << "outpost-datagen: --dump: " << scan.error() << "\n";
        return 2;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    std::fprintf(stderr,
                 "%s: %llu records of complete games, %lld unreadable; ignored: %llu records of "
                 "a game cut off and %llu bytes of a partial record\n",
                 path.c_str(), static_cast<unsigned long long>(scan->records), bad,
                 static_cast<unsigned long long>(scan->torn_records),
                 static_cast<unsigned long long>(scan->torn_bytes));
    return std::fflush(stdout) == 0 ? 0 : 2;
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
    if (o.count("--dump")) return dump(o["--dump"]);
    if (!o.count("--out")) {
        usage();
        return 2;
    }
    datagen::RunOptions run;
    run.path = o["--out"];
    run.config.seed = std::uint64_t(tools::int_option(o, "--seed", 1));
    run.config.nodes = int(tools::int_option(o, "--nodes", run.config.nodes));
    run.config.random_plies = int(tools::int_option(o, "--random-plies", run.config.random_plies));
    run.games = tools::int_option(o, "--games", 0);
    run.threads = int(tools::int_option(o, "--threads", datagen::available_cores()));
    run.hash_mb = int(tools::int_option(o, "--hash", 8));
    run.progress_seconds = double(tools::int_option(o, "--progress", 5));
    // --net FILE: both sides evaluate with that NNUE (later generations of data); its bytes'
    // hash goes into the file header so that a resumed run cannot change nets.
    if (o.count("--net")) {
        auto r = engine::nnue::load_network_file(o["--net"]);
        if (!r) {
            std::cerr << "outpost-datagen: --net: " << r.error() << "\n";
            return 2;
        }
        run.net = *r;
        std::ifstream in(o["--net"], std::ios::binary);
        const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(in), {}};
        run.net_hash = datagen::fnv1a64(bytes.data(), bytes.size());
    }

    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    const auto summary = datagen::run(run, g_stop);
    if (!summary) {
        std::cerr << "outpost-datagen: " << summary.error() << "\n";
        return 2;
    }
    return 0;
}
