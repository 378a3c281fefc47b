// Move choice for the scripted opponents; the "engine" opponent runs engine::Engine at a fixed
// depth/node count, or (search: material) a small material search of the emulator's own.
#include "opponent.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

#include "engine/bitboard.hpp"
#include "engine/search.hpp"

namespace emu {

std::string king_to_rook_uci(const engine::Position& pos, engine::Move m) {
    // Antichess has no castling (its king promotion is stored like one).
    if (pos.visit([&](const auto& b) { return b.is_castling(m); }))
        return engine::square_name(m.from()) + engine::square_name(m.to());
    return pos.to_uci(m);
}

namespace {

constexpr int VALUE[engine::PIECE_TYPE_NB] = {100, 300, 310, 500, 900, 0};
constexpr int MATE = 100000;

// Material for the side to move; in antichess, where pieces are a burden, the other way round.
template <engine::Variant V>
int material(const engine::BasicBoard<V>& b) {
    int score = 0;
    for (int pt = engine::PAWN; pt < engine::KING; ++pt)
        score += VALUE[pt] * (engine::popcount(b.pieces(b.side, engine::PieceType(pt))) -
                              engine::popcount(b.pieces(~b.side, engine::PieceType(pt))));
    return V == engine::Variant::ANTICHESS ? -score : score;
}

// A plain alpha-beta over material on the variant's own board; a game its rules ended (mate, a
// variant's win, a draw) scores as such.
template <engine::Variant V>
struct Searcher {
    std::int64_t node_limit;
    std::int64_t nodes = 0;

    int search(const engine::BasicBoard<V>& b, int depth, int alpha, int beta, int ply) {
        ++nodes;
        const auto moves = engine::legal_moves(b);
        if (moves.empty()) {
            const engine::GameResult r = engine::game_result(b, 0);
            return !r.winner ? 0 : *r.winner == b.side ? MATE - ply : -MATE + ply;
        }
        if (depth <= 0 || (node_limit > 0 && nodes >= node_limit)) return material(b);
        for (engine::Move m : moves) {
            engine::BasicBoard<V> next = b;
            next.make_move(m);
            const int score = -search(next, depth - 1, -beta, -alpha, ply + 1);
            if (score >= beta) return score;
            alpha = std::max(alpha, score);
        }
        return alpha;
    }
};

}  // namespace

engine::Move material_search(const engine::Position& pos, int depth, std::int64_t nodes,
                             std::mt19937_64& rng) {
    const auto moves = pos.legal_moves();
    if (moves.empty()) return engine::Move::none();
    std::vector<engine::Move> best;
    int best_score = -MATE - 1;
    pos.visit([&](const auto& board) {
        using BoardT = std::decay_t<decltype(board)>;
        Searcher<BoardT::variant> s{nodes};
        for (engine::Move m : moves) {
            BoardT next = board;
            next.make_move(m);
            const int score = -s.search(next, std::max(depth, 1) - 1, -MATE - 1, MATE + 1, 1);
            if (score > best_score) {
                best_score = score;
                best.clear();
            }
            if (score == best_score) best.push_back(m);
        }
    });
    return best[std::uniform_int_distribution<std::size_t>(0, best.size() - 1)(rng)];
}

OpponentMover::OpponentMover(const OpponentSpec& spec, std::uint64_t seed)
    : spec_(spec), rng_(seed) {}

OpponentMover::~OpponentMover() = default;

std::optional<std::string> OpponentMover::random_move(const engine::Position& pos) {
    const auto moves = pos.legal_moves();
    if (moves.empty()) return std::nullopt;
    const auto i = std::uniform_int_distribution<int>(0, moves.size() - 1)(rng_);
    return king_to_rook_uci(pos, moves[i]);
}

std::optional<std::string> OpponentMover::by_kind(OpponentSpec::Kind kind,
                                                  const engine::Position& pos,
                                                  const std::atomic<bool>& stop) {
    switch (kind) {
        case OpponentSpec::Kind::RANDOM:
            return random_move(pos);
        case OpponentSpec::Kind::ENGINE: {
            if (pos.legal_moves().empty()) return std::nullopt;
            if (spec_.outpost_search) {
                if (!engine_)
                    engine_ = std::make_unique<engine::Engine>(engine::EngineOptions{1, 1});
                engine::SearchLimits limits;
                limits.depth = std::max(1, spec_.depth);
                limits.nodes = std::uint64_t(std::max<std::int64_t>(0, spec_.nodes));
                const auto r = engine_->search(pos, limits, stop);
                if (r.best) return king_to_rook_uci(pos, r.best);
            }
            const engine::Move m = material_search(pos, spec_.depth, spec_.nodes, rng_);
            if (!m) return std::nullopt;
            return king_to_rook_uci(pos, m);
        }
        case OpponentSpec::Kind::STALLER:
            if (pos.game_ply() < spec_.stall_from_ply) return random_move(pos);
            return std::nullopt;
        case OpponentSpec::Kind::LINE:
            while (line_index_ < spec_.line.size()) {
                const auto& text = spec_.line[line_index_++];
                if (const auto m = pos.parse_uci(text)) return king_to_rook_uci(pos, *m);
            }
            return by_kind(
                spec_.then == OpponentSpec::Kind::LINE ? OpponentSpec::Kind::RANDOM : spec_.then,
                pos, stop);
    }
    return std::nullopt;
}

std::optional<std::string> OpponentMover::choose(const engine::Position& pos,
                                                 const std::atomic<bool>& stop) {
    return by_kind(spec_.kind, pos, stop);
}

}  // namespace emu
