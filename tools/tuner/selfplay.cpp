// Self-play search and game loop for the tuner (data generation and old-vs-new matches).
#include "tools/tuner/selfplay.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "engine/evaluate.hpp"
#include "engine/fen.hpp"
#include "engine/movegen.hpp"
#include "engine/position.hpp"
#include "engine/san.hpp"

namespace tuner {

namespace {

enum Bound : std::uint8_t { NONE, UPPER, LOWER, EXACT };

constexpr int MAX_PLY = 100;

int victim_value(const engine::Board& b, engine::Move m) {
    const engine::Piece p = b.captured_piece(m);
    return p == engine::NO_PIECE ? 0 : engine::PIECE_VALUE[engine::type_of(p)];
}

// Higher first: TT move, winning-ish captures and promotions by MVV-LVA, killers, the rest.
int order_score(const engine::Board& b, engine::Move m, engine::Move tt_move,
                const engine::Move* killers) {
    if (m == tt_move) return 1 << 30;
    const bool noisy = b.is_capture(m) || m.kind() == engine::MoveKind::PROMOTION;
    if (noisy) {
        int s = 1 << 20;
        s += victim_value(b, m) * 16 - engine::PIECE_VALUE[engine::type_of(b.moved_piece(m))] / 16;
        if (m.kind() == engine::MoveKind::PROMOTION) s += engine::PIECE_VALUE[m.promotion()] * 16;
        return s;
    }
    if (m == killers[0]) return 1 << 19;
    if (m == killers[1]) return (1 << 19) - 1;
    return 0;
}

void sort_moves(const engine::Board& b, engine::MoveList& list, engine::Move tt_move,
                const engine::Move* killers) {
    int scores[256];
    for (int i = 0; i < list.count; ++i)
        scores[i] = order_score(b, list.moves[i], tt_move, killers);
    for (int i = 1; i < list.count; ++i) {
        const engine::Move m = list.moves[i];
        const int s = scores[i];
        int j = i - 1;
        for (; j >= 0 && scores[j] < s; --j) {
            list.moves[j + 1] = list.moves[j];
            scores[j + 1] = scores[j];
        }
        list.moves[j + 1] = m;
        scores[j + 1] = s;
    }
}

bool has_non_pawn_material(const engine::Board& b, engine::Color c) {
    return b.pieces(c) != b.pieces(c, engine::PAWN, engine::KING);
}

}  // namespace

MiniSearch::MiniSearch(const engine::EvalParams& params, int tt_bits)
    : params_(params),
      tt_(std::size_t(1) << tt_bits),
      tt_mask_((std::uint64_t(1) << tt_bits) - 1) {}

bool MiniSearch::repeated(engine::Key key, int halfmove_clock) const {
    // The current position is path_.back(); earlier ones with the same side to move are every
    // second entry before it, back to the last capture or pawn move.
    const int n = int(path_.size());
    for (int i = n - 3; i >= 0 && i >= n - 1 - halfmove_clock; i -= 2)
        if (path_[i] == key) return true;
    return false;
}

int MiniSearch::quiescence(const engine::Board& board) {
    path_.assign(1, board.key);
    return qsearch(board, -MATE, MATE, 0);
}

int MiniSearch::qsearch(const engine::Board& b, int alpha, int beta, int ply) {
    ++nodes_;
    const bool in_check = b.in_check();
    if (ply >= MAX_PLY) return evaluate_with(b, params_);
    int best = -MATE + ply;
    if (!in_check) {
        const int stand = evaluate_with(b, params_);
        if (stand >= beta) return stand;
        alpha = std::max(alpha, stand);
        best = stand;
    }
    engine::MoveList list;
    generate_moves(b, list, in_check ? engine::GenType::ALL : engine::GenType::NOISY);
    if (in_check && list.empty()) return -MATE + ply;
    const engine::Move none[2] = {};
    sort_moves(b, list, engine::Move::none(), none);
    for (engine::Move m : list) {
        if (!in_check && m.kind() == engine::MoveKind::PROMOTION && m.promotion() != engine::QUEEN)
            continue;
        engine::Board next = b;
        next.make_move(m);
        const int score = -qsearch(next, -beta, -alpha, ply + 1);
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (score >= beta) break;
            }
        }
    }
    return best;
}

int MiniSearch::negamax(const engine::Board& b, int depth, int alpha, int beta, int ply,
                        bool null_ok) {
    if (ply > 0) {
        if (b.halfmove_clock >= 100 || engine::insufficient_material(b)) return 0;
        if (repeated(b.key, b.halfmove_clock)) return 0;
    }
    const bool in_check = b.in_check();
    if (in_check && ply < MAX_PLY / 2) ++depth;
    if (depth <= 0 || ply >= MAX_PLY) return qsearch(b, alpha, beta, ply);
    ++nodes_;

    TTEntry& slot = tt_[b.key & tt_mask_];
    engine::Move tt_move;
    if (slot.key == b.key) {
        tt_move = engine::Move(slot.move);
        if (ply > 0 && slot.depth >= depth) {
            const int s = slot.score;
            if (slot.bound == EXACT || (slot.bound == LOWER && s >= beta) ||
                (slot.bound == UPPER && s <= alpha))
                return s;
        }
    }

    if (null_ok && !in_check && depth >= 3 && ply > 0 && beta < MATE_BOUND &&
        has_non_pawn_material(b, b.side) && evaluate_with(b, params_) >= beta) {
        engine::Board next = b;
        next.make_null_move();
        path_.push_back(next.key);
        const int score = -negamax(next, depth - 3, -beta, -beta + 1, ply + 1, false);
        path_.pop_back();
        if (score >= beta) return score >= MATE_BOUND ? beta : score;
    }

    engine::MoveList list;
    generate_moves(b, list);
    if (list.empty()) return in_check ? -MATE + ply : 0;
    engine::Move* killers = killers_[std::min(ply, 127)];
    sort_moves(b, list, tt_move, killers);

    const int old_alpha = alpha;
    int best = -MATE;
    engine::Move best_move;
    for (engine::Move m : list) {
        engine::Board next = b;
        next.make_move(m);
        path_.push_back(next.key);
        const int score = -negamax(next, depth - 1, -beta, -alpha, ply + 1, true);
        path_.pop_back();
        if (score > best) {
            best = score;
            best_move = m;
            if (score > alpha) {
                alpha = score;
                if (score >= beta) {
                    if (!b.is_capture(m) && m.kind() != engine::MoveKind::PROMOTION &&
                        killers[0] != m) {
                        killers[1] = killers[0];
                        killers[0] = m;
                    }
                    break;
                }
            }
        }
    }
    if (ply == 0) root_best_ = best_move;
    // Mate scores are stored as they are: the TT lives for one search only (cleared below).
    slot.key = b.key;
    slot.score = std::int16_t(best);
    slot.move = best_move.raw();
    slot.depth = std::int8_t(depth);
    slot.bound = best >= beta ? LOWER : best > old_alpha ? EXACT : UPPER;
    return best;
}

MiniSearch::Result MiniSearch::search(const engine::Board& board, int depth,
                                      const std::vector<engine::Key>& history) {
    std::fill(tt_.begin(), tt_.end(), TTEntry{});
    for (auto& k : killers_) k[0] = k[1] = engine::Move::none();
    path_ = history;
    if (path_.empty() || path_.back() != board.key) path_.push_back(board.key);
    Result r;
    for (int d = 1; d <= depth; ++d) {
        const int score = negamax(board, d, -MATE, MATE, 0, false);
        r.best = root_best_;
        r.score = score;
    }
    return r;
}

std::vector<engine::Board> load_openings(const std::string& path) {
    engine::init_attacks();
    std::vector<engine::Board> out;
    std::ifstream in(path);
    if (!in) return out;
    const bool pgn = path.size() >= 4 && path.substr(path.size() - 4) == ".pgn";
    std::string line;
    if (!pgn) {
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            if (auto b = engine::parse_fen(line)) out.push_back(*b);
        }
        return out;
    }
    // PGN: the movetext of each game, applied from the start position.
    std::string movetext;
    auto flush = [&] {
        if (movetext.empty()) return;
        engine::Board b = *engine::parse_fen(engine::START_FEN);
        std::istringstream tokens(movetext);
        bool ok = true;
        for (std::string t; ok && tokens >> t;) {
            if (t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*") break;
            const auto dot = t.find_last_of('.');
            if (dot != std::string::npos) t = t.substr(dot + 1);
            if (t.empty()) continue;
            auto m = engine::parse_san(b, t);
            if (!m) {
                ok = false;
                break;
            }
            b.make_move(*m);
        }
        if (ok) out.push_back(b);
        movetext.clear();
    };
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty() && line[0] == '[') {
            flush();
            continue;
        }
        movetext += line + " ";
    }
    flush();
    return out;
}

GameRecord play_game(const engine::Board& start, MiniSearch& white, MiniSearch& black, int depth,
                     bool record) {
    GameRecord game;
    engine::Board b = start;
    std::vector<engine::Key> keys{b.key};
    int win_streak = 0, draw_streak = 0;
    constexpr int WIN_SCORE = 1200;
    for (int ply = 0;; ++ply) {
        const engine::MoveList moves = engine::legal_moves(b);
        if (moves.empty()) {
            game.result = b.in_check() ? (b.side == engine::WHITE ? 0.0f : 1.0f) : 0.5f;
            break;
        }
        if (b.halfmove_clock >= 100 || engine::insufficient_material(b) ||
            std::count(keys.begin(), keys.end(), b.key) >= 3 || ply >= 400) {
            game.result = 0.5f;
            break;
        }
        MiniSearch& s = b.side == engine::WHITE ? white : black;
        const auto r = s.search(b, depth, keys);
        const int white_score = b.side == engine::WHITE ? r.score : -r.score;
        // Adjudication: a big score held for some moves decides; a long dead-level phase draws.
        win_streak = std::abs(white_score) >= WIN_SCORE ? win_streak + 1 : 0;
        draw_streak = (ply >= 80 && std::abs(white_score) <= 8) ? draw_streak + 1 : 0;
        if (win_streak >= 6) {
            game.result = white_score > 0 ? 1.0f : 0.0f;
            break;
        }
        if (draw_streak >= 20) {
            game.result = 0.5f;
            break;
        }
        if (record && !b.in_check() && !b.is_capture(r.best) &&
            r.best.kind() != engine::MoveKind::PROMOTION && std::abs(r.score) < WIN_SCORE) {
            if (s.quiescence(b) == s.static_eval(b)) game.quiet.push_back(engine::to_fen(b));
        }
        b.make_move(r.best);
        keys.push_back(b.key);
        game.plies = ply + 1;
    }
    return game;
}

}  // namespace tuner
