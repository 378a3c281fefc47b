// The bench positions (our own selection) and the bench driver.
#include "bench.hpp"

#include <chrono>
#include <stdexcept>

#include "fen.hpp"
#include "search.hpp"

namespace engine {

const std::vector<BenchPosition>& bench_positions() {
    // Openings as move lists from the start, CPW perft middlegames, composed endgames and
    // Chess960 positions from the fischer.epd / frc_perftsuite.epd start sets.
    static const std::vector<BenchPosition> positions = {
        {"startpos", ""},
        {"startpos", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"},
        {"startpos", "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6"},
        {"startpos", "d2d4 g8f6 c2c4 e7e6 b1c3 f8b4 e2e3 e8g8 f1d3 d7d5 g1f3 c7c5"},
        {"startpos", "d2d4 d7d5 c2c4 c7c6 g1f3 g8f6 b1c3 d5c4 a2a4 c8f5 e2e3 e7e6 f1c4"},
        {"startpos", "e2e4 e7e6 d2d4 d7d5 b1c3 g8f6 c1g5 f8e7 e4e5 f6d7 g5e7 d8e7 f2f4"},
        {"startpos", "c2c4 e7e5 b1c3 g8f6 g2g3 d7d5 c4d5 f6d5 f1g2 d5b6 g1f3 b8c6 e1g1"},
        {"startpos", "e2e4 c7c6 d2d4 d7d5 e4e5 c8f5 g1f3 e7e6 f1e2 c6c5 c1e3 c5d4 f3d4"},
        {"startpos", "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 g1f3 e8g8 f1e2 e7e5 e1g1 b8c6"},
        {"startpos", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6 d2d4 e5d4 c3d4 c5b4 c1d2"},
        {"startpos", "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 d2d4 g8f6 g1f3 c8f5 f1c4 e7e6 c1d2"},
        {"startpos", "g1f3 d7d5 g2g3 g8f6 f1g2 e7e6 e1g1 f8e7 d2d3 e8g8 b1d2 c7c5 e2e4 b8c6"},
        {"startpos", "e2e4 c7c5 b1c3 b8c6 g2g3 g7g6 f1g2 f8g7 d2d3 d7d6 c1e3 e7e5 d1d2 c8e6"},
        {"startpos", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e3 e8g8 g1f3 h7h6 g5h4 b7b6"},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", ""},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", ""},
        {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", ""},
        {"r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", ""},
        {"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 4 8", ""},
        {"2r2rk1/pp1bqppp/2n1pn2/3p4/3P4/P1NBPN2/1P3PPP/R2Q1RK1 w - - 3 13", ""},
        {"r2q1rk1/1b2bppp/p2ppn2/1p6/3NP3/1BN1Q3/PPP2PPP/R4RK1 w - - 2 13", ""},
        {"3r1rk1/p4ppp/1qn1p3/2bp4/8/2PBPN2/P1Q2PPP/R4RK1 b - - 1 17", ""},
        {"r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 b - - 0 13", ""},
        {"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", ""},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", ""},
        {"8/8/4k3/8/2K5/3P4/8/8 w - - 0 1", ""},
        {"1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1", ""},
        {"4k3/8/8/3PK3/8/8/8/3r4 b - - 0 1", ""},
        {"8/5pk1/6p1/7p/7P/6P1/5PK1/3b4 w - - 0 40", ""},
        {"8/3k4/8/2pP4/2P5/4K3/8/8 w - - 0 1", ""},
        {"6k1/6p1/8/6KQ/1r6/q2b4/8/8 w - - 0 32", ""},
        {"8/8/1p3k2/p1p2p2/P1P2P2/1P3K2/8/8 w - - 0 1", ""},
        {"2r3k1/5pp1/1p2p2p/p2rP3/P2P4/1P2R1P1/5P1P/2R3K1 w - - 0 30", ""},
        {"8/6k1/8/8/8/8/1K6/4Q3 w - - 0 1", ""},
        {"4r1k1/1p3ppp/p1p5/2P5/1P2nB2/P3P1P1/5P1P/3R2K1 w - - 0 25", ""},
        {"qbb1rnkr/ppp3pp/4n3/3ppp2/1P3PP1/8/P1PPPN1P/QBB1RNKR w HEhe - 0 9", "", true},
        {"bbrqn1kr/1pppp1pp/4n3/5p2/p5P1/3P4/PPP1PPKP/BBRQNN1R w hc - 0 9", "", true},
        {"qrkbb1r1/ppp1pnpp/3p2n1/5p2/1P3P2/2Q3N1/P1PPP1PP/1RKBB1RN w GBgb - 0 9", "", true},
        {"1r1qnbkr/ppp1pppp/1n1p4/5b2/2PP4/3N4/PP2PPPP/NRBQ1BKR w KQkq - 3 4", "", true},
        {"rkbbqnrn/ppp2ppp/8/4pP2/4p3/8/PPPP2PP/RKBBQNRN w KQkq - 0 4", "", true},
    };
    return positions;
}

BenchResult run_bench(int depth, std::ostream* out, BenchEval eval) {
    EngineOptions options{.hash_mb = 16, .threads = 1};
    if (eval != BenchEval::Default) options.nnue = eval == BenchEval::Nnue;
    Engine engine(options);
    BenchResult total;
    const std::atomic<bool> stop{false};
    SearchLimits limits;
    limits.depth = depth;
    const auto start = std::chrono::steady_clock::now();
    int index = 0;
    for (const BenchPosition& bp : bench_positions()) {
        ++index;
        auto pos = bp.fen == "startpos" ? Result<Position>(Position())
                                        : Position::from_fen(bp.fen, bp.chess960);
        if (!pos)
            throw std::logic_error("bench position " + std::to_string(index) + ": " + pos.error());
        std::string_view moves = bp.moves;
        while (!moves.empty()) {
            const auto space = moves.find(' ');
            const auto text = moves.substr(0, space);
            if (!pos->play_uci(text))
                throw std::logic_error("bench position " + std::to_string(index) + ": bad move " +
                                       std::string(text));
            moves = space == std::string_view::npos ? "" : moves.substr(space + 1);
        }
        engine.new_game();  // a fresh table and histories: each position is independent
        const SearchResult r = engine.search(*pos, limits, stop);
        total.nodes += r.nodes;
        if (out)
            *out << "position " << index << '/' << bench_positions().size() << ": "
                 << pos->to_uci(r.best) << " depth " << r.depth << " nodes " << r.nodes << '\n';
    }
    total.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    total.nps = total.nodes * 1000 / std::uint64_t(std::max<std::int64_t>(1, total.time_ms));
    if (out)
        *out << "\nTotal time (ms): " << total.time_ms << "\nNodes searched: " << total.nodes
             << "\nNodes/second: " << total.nps << "\n";
    return total;
}

}  // namespace engine
