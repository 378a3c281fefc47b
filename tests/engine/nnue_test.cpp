// The NNUE: the embedded net, the file format's checks, incremental accumulators against a
// fresh refresh, the scalar path against the vectorised one, colour symmetry, and the engine
// and UCI switches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <random>
#include <sstream>
#include <utility>

#include "engine/fen.hpp"
#include "engine/nnue.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"
#include "engine/uci.hpp"
#include "engine/variant.hpp"
#include "engine/variant_eval.hpp"

namespace engine {
namespace {

std::shared_ptr<const nnue::Network> net() {
    auto n = nnue::embedded_network();
    EXPECT_NE(n, nullptr) << "the embedded net does not parse";
    return n;
}

// The same position with the colours swapped (board mirrored vertically).
Board flipped(const Board& b) {
    std::string fen = to_fen(b);
    std::istringstream in(fen);
    std::string placement, side, castling, ep, half, full;
    in >> placement >> side >> castling >> ep >> half >> full;
    std::vector<std::string> ranks;
    std::stringstream ps(placement);
    for (std::string r; std::getline(ps, r, '/');) ranks.push_back(r);
    std::string out;
    for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) {
        for (char c : *it) out += std::isalpha(c) ? char(c ^ 32) : c;
        if (it + 1 != ranks.rend()) out += '/';
    }
    std::string cas;
    for (char c : castling) cas += c == '-' ? c : char(c ^ 32);
    if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
    const std::string f =
        out + (side == "w" ? " b " : " w ") + cas + " " + ep + " " + half + " " + full;
    auto r = parse_fen(f);
    EXPECT_TRUE(r) << f;
    return *r;
}

TEST(Nnue, EmbeddedNetParsesAndEvaluatesInRange) {
    const auto n = net();
    ASSERT_NE(n, nullptr);
    const int v = nnue::evaluate(*n, *parse_fen(START_FEN));
    EXPECT_LT(std::abs(v), 200);  // the start position is roughly level
}

TEST(Nnue, SerialiseThenParseGivesTheSameNet) {
    const auto n = net();
    ASSERT_NE(n, nullptr);
    const auto bytes = nnue::serialize(*n);
    ASSERT_EQ(bytes.size(), nnue::file_size(nnue::KingBuckets{}));
    auto again = nnue::parse_network(bytes.data(), bytes.size());
    ASSERT_TRUE(again) << again.error();
    EXPECT_EQ(nnue::serialize(**again), bytes);
}

TEST(Nnue, ANetsOwnScaleSetsItsCentipawnsAndTravelsInItsFile) {
    const auto n = net();
    ASSERT_NE(n, nullptr);
    auto half = std::make_shared<nnue::Network>(*n);
    half->scale = n->scale / 2;
    const auto bytes = nnue::serialize(*half);
    auto again = nnue::parse_network(bytes.data(), bytes.size());
    ASSERT_TRUE(again) << again.error();
    EXPECT_EQ((*again)->scale, n->scale / 2);
    for (const char* fen : {"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                            "4k3/pppp4/8/8/8/8/PPPPP3/4K3 w - - 0 1"}) {
        const Board b = *parse_fen(fen);
        const int full = nnue::evaluate(*n, b), halved = nnue::evaluate(**again, b);
        EXPECT_GT(std::abs(full), 100) << fen;  // a material edge: the halving shows
        EXPECT_NEAR(halved, full / 2, 1) << fen;
    }
}

TEST(Nnue, BrokenFilesAreClearErrors) {
    const auto bytes = nnue::serialize(*net());
    auto error_of = [](std::vector<unsigned char> b) {
        auto r = nnue::parse_network(b.data(), b.size());
        return r ? std::string() : r.error();
    };
    EXPECT_NE(error_of({}).find("0 bytes"), std::string::npos);
    auto truncated = bytes;
    truncated.resize(bytes.size() - 1);
    EXPECT_NE(error_of(truncated).find("bytes, expected"), std::string::npos);
    auto magic = bytes;
    magic[0] = 'X';
    EXPECT_NE(error_of(magic).find("OPNNUE01"), std::string::npos);
    auto version = bytes;
    version[8] = 1;  // a net of the first format (768->2x128->1) names the tool that reads it
    EXPECT_NE(error_of(version).find("version is 1, expected 2 or 3"), std::string::npos);
    EXPECT_NE(error_of(version).find("outpost-train --init"), std::string::npos);
    auto hidden = bytes;
    hidden[16] = 7, hidden[17] = 0;  // the hidden size field: 7
    EXPECT_NE(error_of(hidden).find("hidden size is 7"), std::string::npos);
    auto buckets = bytes;
    buckets[20] = 3;  // the output bucket field
    EXPECT_NE(error_of(buckets).find("output buckets is 3"), std::string::npos);
    auto scale = bytes;
    scale[32] = 5, scale[33] = scale[34] = scale[35] = 0;  // the scale field: 5
    EXPECT_NE(error_of(scale).find("scale is 5"), std::string::npos);
    auto weight = bytes;
    weight[1000] ^= 0x40;
    EXPECT_NE(error_of(weight).find("checksum"), std::string::npos);

    auto missing = nnue::load_network_file("/nonexistent/outpost.nnue");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().find("/nonexistent/outpost.nnue"), std::string::npos);
}

TEST(Nnue, EachOutputBucketJudgesItsOwnPieceCounts) {
    EXPECT_EQ(nnue::output_bucket(32), nnue::OUTPUT_BUCKETS - 1);
    EXPECT_EQ(nnue::output_bucket(2), 0);
    EXPECT_EQ(nnue::output_bucket(5), 0);
    EXPECT_EQ(nnue::output_bucket(6), 1);
    // Changing one bucket's bias moves the positions of that bucket only.
    const auto n = net();
    ASSERT_NE(n, nullptr);
    auto shifted = std::make_shared<nnue::Network>(*n);
    const Board few = *parse_fen("4k3/pppp4/8/8/8/8/PPPPP3/4K3 w - - 0 1");  // 11 pieces
    const Board all = *parse_fen(START_FEN);
    const int bucket = nnue::output_bucket(popcount(few.pieces()));
    ASSERT_NE(bucket, nnue::output_bucket(popcount(all.pieces())));
    shifted->out_bias[bucket] += nnue::QA * nnue::QB;  // +1.0 of output: `scale` centipawns
    EXPECT_NEAR(nnue::evaluate(*shifted, few), nnue::evaluate(*n, few) + n->scale, 1);
    EXPECT_EQ(nnue::evaluate(*shifted, all), nnue::evaluate(*n, all));
}

TEST(Nnue, IncrementalUpdatesMatchARefreshAndScalarMatchesVector) {
    const auto n = net();
    ASSERT_NE(n, nullptr);
    std::mt19937_64 rng(42);
    int positions = 0;
    const char* starts[] = {
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",  // castling
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "8/2P4k/8/3pP3/8/8/1p5K/8 w - d6 0 1",  // en passant and promotions
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",  // Chess960
    };
    for (const char* fen : starts) {
        for (int game = 0; game < 20; ++game) {
            Board b = *parse_fen(fen, std::string(fen).find("HFhf") != std::string::npos);
            nnue::Accumulator acc;
            nnue::refresh(*n, b, acc);
            for (int ply = 0; ply < 60; ++ply) {
                const MoveList moves = legal_moves(b);
                if (moves.empty()) break;
                Board next = b;
                next.make_move(moves[int(rng() % std::uint64_t(moves.size()))]);
                nnue::Accumulator inc, fresh;
                nnue::update(*n, b, next, acc, inc);
                nnue::refresh(*n, next, fresh);
                ASSERT_EQ(0, std::memcmp(&inc, &fresh, sizeof inc)) << to_fen(next);
                EXPECT_EQ(nnue::evaluate(*n, inc, next), nnue::evaluate_scalar(*n, inc, next))
                    << to_fen(next);
                // Colour symmetry: the mirrored position scores the same for its mover.
                EXPECT_EQ(nnue::evaluate(*n, next), nnue::evaluate(*n, flipped(next)))
                    << to_fen(next);
                b = next;
                acc = inc;
                ++positions;
            }
        }
    }
    EXPECT_GT(positions, 2000);
}

// What random games did: moves that captured, moves that dropped a piece (crazyhouse), and the
// most pieces one move took off the board (an atomic explosion takes several).
struct Followed {
    int captures = 0, drops = 0, most_taken = 0;
};

// A variant's boards, whose pieces the net judges, through random games: the accumulator
// updated move by move matches one built from scratch, and so does the evaluation, on every
// board the search can judge (an atomic move that blows up a king ends the game there).
template <Variant V>
Followed follow_random_games(std::uint64_t seed) {
    static_assert(net_judges_board(V));
    const auto n = net();
    EXPECT_NE(n, nullptr);
    Followed f;
    if (!n) return f;
    std::mt19937_64 rng(seed);
    int positions = 0;
    for (int game = 0; game < 30; ++game) {
        Position pos = Position::start(V);
        nnue::Accumulator acc;
        nnue::refresh(*n, pos.board_of<V>(), acc);
        for (int ply = 0; ply < 80 && pos.status() == PositionStatus::ONGOING; ++ply) {
            const AnyMoveList moves = pos.legal_moves();
            const Move m = moves[int(rng() % std::uint64_t(moves.size()))];
            const BasicBoard<V> before = pos.board_of<V>();
            pos.play(m);
            const BasicBoard<V>& after = pos.board_of<V>();
            if (popcount(after.by_type[KING]) < popcount(before.by_type[KING])) break;
            nnue::Accumulator inc, fresh;
            nnue::update(*n, before, after, acc, inc);
            nnue::refresh(*n, after, fresh);
            EXPECT_EQ(0, std::memcmp(&inc, &fresh, sizeof inc)) << pos.fen();
            EXPECT_EQ(nnue::evaluate(*n, inc, after), nnue::evaluate(*n, after)) << pos.fen();
            acc = inc;
            const int taken = popcount(before.pieces()) - popcount(after.pieces());
            f.captures += taken > 0;
            f.most_taken = std::max(f.most_taken, taken);
            f.drops += m.is_drop();
            ++positions;
        }
    }
    EXPECT_GT(positions, 1000);
    return f;
}

TEST(Nnue, IncrementalUpdatesFollowThreeCheckBoards) {
    EXPECT_GT(follow_random_games<Variant::THREE_CHECK>(7).captures, 100);
}

// Drops put a piece on the board from nowhere, and a capture's piece goes to a hand.
TEST(Nnue, IncrementalUpdatesFollowCrazyhouseBoardsThroughDrops) {
    const Followed f = follow_random_games<Variant::CRAZYHOUSE>(11);
    EXPECT_GT(f.captures, 100);
    EXPECT_GT(f.drops, 100);
}

// An explosion takes the capturer, the captured and every piece but a pawn next to them off the
// board: more squares change than one move's update follows, and the accumulator starts afresh.
TEST(Nnue, IncrementalUpdatesFollowAtomicBoardsThroughExplosions) {
    const Followed f = follow_random_games<Variant::ATOMIC>(13);
    EXPECT_GT(f.captures, 100);
    EXPECT_GE(f.most_taken, 5);
}

// The embedded net's rows copied into every bucket of `kings`, each bucket's rows then moved
// by its own random amounts (so a wrong bucket shows), unless `exact`.
std::shared_ptr<const nnue::Network> bucketed(const nnue::KingBuckets& kings, bool exact) {
    auto n = std::make_shared<nnue::Network>(*net());
    const std::vector<std::int16_t> rows(n->ft_weights.begin(), n->ft_weights.end());
    n->kings = kings;
    n->ft_weights.resize(rows.size() * std::size_t(kings.count));
    std::mt19937_64 rng(std::uint64_t(kings.count));
    for (std::size_t i = 0; i < n->ft_weights.size(); ++i)
        n->ft_weights[i] = std::int16_t(rows[i % rows.size()] +
                                        (exact || i < rows.size() ? 0 : int(rng() % 41) - 20));
    return n;
}

// The same position mirrored left to right (files a <-> h); only without castling rights.
std::optional<Board> mirrored(const Board& b) {
    std::istringstream in(to_fen(b));
    std::string placement, side, castling, ep, half, full;
    in >> placement >> side >> castling >> ep >> half >> full;
    if (castling != "-") return std::nullopt;
    std::string out, rank;
    auto flush = [&] {
        std::string squares;
        for (char c : rank)
            squares += std::isdigit(c) ? std::string(std::size_t(c - '0'), '.') : std::string(1, c);
        std::reverse(squares.begin(), squares.end());
        int empty = 0;
        for (char c : squares) {
            if (c == '.') {
                ++empty;
                continue;
            }
            if (empty) out += char('0' + empty), empty = 0;
            out += c;
        }
        if (empty) out += char('0' + empty);
        rank.clear();
    };
    for (char c : placement) {
        if (c == '/') {
            flush();
            out += '/';
        } else {
            rank += c;
        }
    }
    flush();
    if (ep != "-") ep[0] = char('h' - (ep[0] - 'a'));
    auto r = parse_fen(out + " " + side + " - " + ep + " " + half + " " + full);
    EXPECT_TRUE(r) << out;
    return r ? std::optional<Board>(*r) : std::nullopt;
}

TEST(Nnue, KingBucketNetsRoundTripAndUpdateIncrementallyAcrossBuckets) {
    for (const char* layout : {"mirror", "mirror4", "mirror8"}) {
        const auto kings = nnue::king_layout(layout);
        ASSERT_TRUE(kings) << layout;
        const auto n = bucketed(*kings, false);
        const auto bytes = nnue::serialize(*n);
        ASSERT_EQ(bytes.size(), nnue::file_size(*kings));
        EXPECT_EQ(bytes[8], 3);  // written as version 3
        const auto again = nnue::parse_network(bytes.data(), bytes.size());
        ASSERT_TRUE(again) << again.error();
        EXPECT_EQ((*again)->kings, *kings);
        EXPECT_EQ(nnue::serialize(**again), bytes);

        std::mt19937_64 rng(9);
        int positions = 0, bucket_changes = 0, mirror_checks = 0;
        for (const char* fen :
             {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
              "8/2P4k/8/3pP3/8/8/1p5K/8 w - d6 0 1", "4k3/2r5/8/3p4/3P4/8/5R2/3K4 w - - 0 1"}) {
            for (int game = 0; game < 15; ++game) {
                Board b = *parse_fen(fen);
                nnue::Accumulator acc;
                nnue::refresh(*n, b, acc);
                for (int ply = 0; ply < 80; ++ply) {
                    const MoveList moves = legal_moves(b);
                    if (moves.empty()) break;
                    Board next = b;
                    next.make_move(moves[int(rng() % std::uint64_t(moves.size()))]);
                    for (Color c : {WHITE, BLACK})
                        bucket_changes += nnue::input_view(*kings, c, b.king_square(c)) !=
                                          nnue::input_view(*kings, c, next.king_square(c));
                    nnue::Accumulator inc, fresh;
                    nnue::update(*n, b, next, acc, inc);
                    nnue::refresh(*n, next, fresh);
                    ASSERT_EQ(0, std::memcmp(&inc, &fresh, sizeof inc))
                        << layout << " " << to_fen(next);
                    const int v = nnue::evaluate(*n, inc, next);
                    EXPECT_EQ(v, nnue::evaluate_scalar(*n, inc, next)) << to_fen(next);
                    EXPECT_EQ(v, nnue::evaluate(*n, flipped(next))) << to_fen(next);
                    // A mirroring king sees a position and its mirror image alike.
                    if (const auto m = mirrored(next)) {
                        EXPECT_EQ(v, nnue::evaluate(*n, *m)) << to_fen(next);
                        ++mirror_checks;
                    }
                    b = next;
                    acc = inc;
                    ++positions;
                }
            }
        }
        EXPECT_GT(positions, 2000) << layout;
        EXPECT_GT(bucket_changes, 100) << layout;
        EXPECT_GT(mirror_checks, 1000) << layout;
    }
}

TEST(Nnue, KingBucketsHoldingOneNetsRowsGiveThatNetsValues) {
    // Buckets without mirroring, each with the embedded net's rows: the net itself.
    nnue::KingBuckets kings = *nnue::king_layout("mirror8");
    kings.mirror = false;
    const auto n = bucketed(kings, true);
    for (const char* fen :
         {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
          "8/2P4k/8/3pP3/8/8/1p5K/8 w - d6 0 1", "4k3/2r5/8/3p4/3P4/8/5R2/3K4 b - - 0 1"}) {
        const Board b = *parse_fen(fen);
        EXPECT_EQ(nnue::evaluate(*n, b), nnue::evaluate(*net(), b)) << fen;
    }
    // The layouts by name; an unknown one is refused.
    EXPECT_EQ(nnue::king_layout("none"), nnue::KingBuckets{});
    EXPECT_EQ(nnue::king_layout("mirror4")->count, 4);
    EXPECT_EQ(nnue::king_layout("mirror")->count, 1);
    EXPECT_TRUE(nnue::king_layout("mirror")->mirror);
    EXPECT_FALSE(nnue::king_layout("mirror5"));
    // A king on g1 (castled) and on b1 share a bucket under mirroring, not a1 and a3.
    const nnue::KingBuckets m4 = *nnue::king_layout("mirror4");
    EXPECT_EQ(nnue::input_view(m4, WHITE, G1).offset, nnue::input_view(m4, WHITE, B1).offset);
    EXPECT_NE(nnue::input_view(m4, WHITE, A1).offset, nnue::input_view(m4, WHITE, A3).offset);
    // Black's king on g8 is white's on g1 seen from the other side.
    EXPECT_EQ(nnue::input_view(m4, BLACK, G8).offset, nnue::input_view(m4, WHITE, G1).offset);
    EXPECT_EQ(nnue::input_view(m4, BLACK, G8).flip, nnue::input_view(m4, WHITE, G1).flip ^ 56);
}

TEST(Nnue, BrokenKingBucketHeadersAreClearErrors) {
    const auto bytes = nnue::serialize(*bucketed(*nnue::king_layout("mirror4"), false));
    auto error_of = [](std::vector<unsigned char> b) {
        auto r = nnue::parse_network(b.data(), b.size());
        return r ? std::string() : r.error();
    };
    ASSERT_EQ(error_of(bytes), "");
    auto count = bytes;
    count[24] = 17;  // the king bucket count
    EXPECT_NE(error_of(count).find("king buckets is 17"), std::string::npos);
    auto zero = bytes;
    zero[24] = 0;
    EXPECT_NE(error_of(zero).find("king buckets is 0"), std::string::npos);
    auto mirror = bytes;
    mirror[28] = 2;  // the mirror flag
    EXPECT_NE(error_of(mirror).find("mirror flag is 2"), std::string::npos);
    auto square = bytes;
    square[44 + 9] = 4;  // b2's bucket: there are 4
    EXPECT_NE(error_of(square).find("king bucket of square 9 is 4"), std::string::npos);
    auto cut = bytes;
    cut.resize(60);
    EXPECT_NE(error_of(cut).find("shorter than a version 3 header"), std::string::npos);
    auto short_body = bytes;
    short_body.resize(bytes.size() - 2);
    EXPECT_NE(error_of(short_body).find("4x768->2x256->1"), std::string::npos);
}

TEST(Nnue, EngineSearchesWithTheNetAndIsReproducible) {
    Engine eng({.hash_mb = 16, .threads = 1, .nnue = true});
    ASSERT_TRUE(eng.nnue());
    std::atomic<bool> stop{false};
    const Position pos =
        *Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 4 8");
    SearchLimits limits;
    limits.nodes = 20000;
    const SearchResult a = eng.search(pos, limits, stop);
    eng.new_game();
    const SearchResult b = eng.search(pos, limits, stop);
    EXPECT_TRUE(pos.legal_moves().contains(a.best));
    EXPECT_EQ(a.best, b.best);
    EXPECT_EQ(a.raw_score, b.raw_score);
    EXPECT_EQ(a.nodes, b.nodes);

    // A bad net file leaves the current one in place.
    auto r = eng.load_net("/nonexistent/net.nnue");
    ASSERT_FALSE(r);
    EXPECT_TRUE(eng.nnue());
    ASSERT_TRUE(eng.load_net("<embedded>"));
    eng.set_nnue(false);
    EXPECT_FALSE(eng.nnue());
}

// Three-check, king of the hill and crazyhouse judge with nets of their own (nn10 trained
// further on each variant's positions), atomic with standard chess's net (under its own
// terms), the other variants with their hand-crafted evaluations; a net given to the engine
// (EvalFile) serves every variant that uses one.
TEST(Nnue, VariantsWithNetsJudgeWithTheirOwnEmbeddedNets) {
    const auto standard = nnue::embedded_network();
    ASSERT_NE(standard, nullptr);
    const Variant own[] = {Variant::THREE_CHECK, Variant::KING_OF_THE_HILL, Variant::CRAZYHOUSE,
                           Variant::ATOMIC};
    // Not copies: each judges a position apart from nn10 and from the others.
    const Board b =
        *parse_fen("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQK2R w KQkq - 6 5");
    for (const Variant v : own) {
        const auto net = nnue::embedded_network(v);
        ASSERT_NE(net, nullptr) << lichess_key(v) << "'s embedded net does not parse";
        EXPECT_NE(nnue::evaluate(*net, b), nnue::evaluate(*standard, b)) << lichess_key(v);
        for (const Variant other : own)
            if (other != v) {
                EXPECT_NE(net, nnue::embedded_network(other)) << lichess_key(v);
            }
    }

    Engine eng({.hash_mb = 16, .threads = 1, .nnue = true});
    EXPECT_EQ(eng.net_for(Variant::STANDARD), standard.get());
    for (const Variant v : own) EXPECT_EQ(eng.net_for(v), nnue::embedded_network(v).get());
    for (const Variant v : {Variant::ANTICHESS, Variant::HORDE, Variant::RACING_KINGS})
        EXPECT_EQ(eng.net_for(v), nullptr) << lichess_key(v);  // the hand-crafted evaluation
    const auto given = std::make_shared<const nnue::Network>(*standard);
    eng.set_net(given);
    EXPECT_EQ(eng.net_for(Variant::STANDARD), given.get());
    for (const Variant v : own) EXPECT_EQ(eng.net_for(v), given.get()) << lichess_key(v);
    ASSERT_TRUE(eng.load_net("<embedded>"));
    for (const Variant v : own) EXPECT_EQ(eng.net_for(v), nnue::embedded_network(v).get());
    eng.set_nnue(false);
    for (const Variant v : own) EXPECT_EQ(eng.net_for(v), nullptr) << lichess_key(v);
}

TEST(Nnue, UciOptionsSwitchTheEvaluationAndReportBadFiles) {
    std::istringstream in(
        "uci\nsetoption name EvalFile value /nonexistent/x.nnue\nsetoption name UseNNUE value "
        "true\nposition startpos\ngo nodes 3000\nquit\n");
    std::ostringstream out;
    Uci uci(out);
    uci.loop(in);
    const std::string text = out.str();
    EXPECT_NE(text.find("option name UseNNUE type check"), std::string::npos);
    EXPECT_NE(text.find("option name EvalFile type string"), std::string::npos);
    EXPECT_NE(text.find("info string error: EvalFile: cannot open net file '/nonexistent/x.nnue'"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("bestmove "), std::string::npos);
}

}  // namespace
}  // namespace engine
