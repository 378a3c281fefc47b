// Move ordering: the staged picker's stages, scores and the cheap legality test.
#include "movepick.hpp"

#include <algorithm>

#include "evaluate.hpp"
#include "search_params.hpp"
#include "see.hpp"

namespace engine {

namespace {

template <Variant V>
bool is_quiet(const BasicBoard<V>& b, Move m) {
    return !b.is_promotion(m) && !b.is_capture(m);
}

}  // namespace

template <Variant V>
bool is_plausible_legal(const BasicBoard<V>& b, Move m) {
    if (m.is_none() || m == Move::null()) return false;
    if constexpr (!has_standard_legality(V)) return is_legal(b, m);
    if constexpr (has_drops(V)) {
        // Crazyhouse.scala legalDrops: a piece we hold, onto an empty square, a pawn not on the
        // first or last rank; in check, the full test.
        if (m.is_drop()) {
            if (b.in_check()) return is_legal(b, m);
            const PieceType pt = m.drop_piece();
            return pt < KING && b.state.pockets.of(b.side, pt) && b.empty(m.to()) &&
                   !(pt == PAWN && (square_bb(m.to()) & (RANK_1_BB | RANK_8_BB)));
        }
    }
    const Square from = m.from(), to = m.to();
    const Piece pc = b.piece_on(from);
    if (pc == NO_PIECE || color_of(pc) != b.side) return false;
    const PieceType pt = type_of(pc);
    if (m.kind() == MoveKind::CASTLING || m.kind() == MoveKind::EN_PASSANT || pt == KING ||
        b.in_check())
        return is_legal(b, m);
    if (b.pieces(b.side) & square_bb(to)) return false;
    if (pt == PAWN) {
        if ((relative_rank(b.side, to) == 7) != (m.kind() == MoveKind::PROMOTION)) return false;
        const int up = pawn_push(b.side);
        if (!b.empty(to)) {
            if (!(pawn_attacks(b.side, from) & square_bb(to))) return false;
        } else if (int(to) == int(from) + up) {
            // single push onto an empty square
        } else if (int(to) == int(from) + 2 * up && relative_rank(b.side, from) == 1 &&
                   b.empty(Square(from + up))) {
            // double push
        } else {
            return false;
        }
    } else {
        if (m.kind() != MoveKind::NORMAL) return false;
        if (!(piece_attacks(pt, from, b.pieces()) & square_bb(to))) return false;
    }
    if ((b.pinned(b.side) & square_bb(from)) && !aligned(b.king_square(b.side), from, to))
        return false;
    return true;
}

template <Variant V>
MovePicker<V>::MovePicker(const BasicBoard<V>& board, Move tt_move, const History& history,
                          const Move killers[2], Move counter, const PieceToHistory* cont[2])
    : board_(board), history_(history), cont_{cont[0], cont[1]}, stage_(Stage::TT_MOVE) {
    tt_move_ = is_plausible_legal(board, tt_move) ? tt_move : Move::none();
    killers_[0] = killers[0];
    killers_[1] = killers[1];
    counter_ = counter;
    if (!tt_move_) stage_ = Stage::GEN_NOISY;
}

template <Variant V>
MovePicker<V>::MovePicker(const BasicBoard<V>& board, Move tt_move, const History& history)
    : board_(board), history_(history), stage_(Stage::QS_TT_MOVE) {
    qsearch_evasions_ = board.in_check();
    const bool usable = tt_move && (qsearch_evasions_ || !is_quiet(board, tt_move)) &&
                        is_plausible_legal(board, tt_move);
    tt_move_ = usable ? tt_move : Move::none();
    if (!tt_move_) stage_ = Stage::QS_GEN;
}

template <Variant V>
void MovePicker<V>::score_noisy() {
    for (int i = cur_; i < end_; ++i) {
        const Move m = moves_[i].move;
        const Piece captured = board_.captured_piece(m);
        const PieceType victim = captured == NO_PIECE ? PAWN : type_of(captured);
        int s = board_.is_capture(m) ? MVV_SCALE * PIECE_VALUE[victim] : 0;
        // Atomic: what the explosion takes, not just the piece on the target square.
        if constexpr (has_explosions(V))
            if (board_.is_capture(m))
                s = MVV_SCALE * std::min(atomic_capture_gain(board_, m), PIECE_VALUE[QUEEN] * 3);
        if (board_.is_capture(m))
            s += history_.capture[board_.moved_piece(m)][m.to()][victim] / CAPTURE_HISTORY_DIVISOR;
        if (board_.is_promotion(m))
            s += board_.promotion_type(m) == QUEEN ? MVV_SCALE * PIECE_VALUE[QUEEN]
                                                   : UNDERPROMOTION_SCORE;
        moves_[i].score = s;
    }
}

template <Variant V>
void MovePicker<V>::score_quiet() {
    const auto& bf = history_.butterfly[board_.side];
    for (int i = cur_; i < end_; ++i) {
        const Move m = moves_[i].move;
        const Piece pc = board_.moved_piece(m);
        moves_[i].score = bf[m.from() * 64 + m.to()] +
                          QUIET_CONT1_WEIGHT * (*cont_[0])[pc][m.to()] + (*cont_[1])[pc][m.to()];
    }
}

template <Variant V>
void MovePicker<V>::score_evasions() {
    const auto& bf = history_.butterfly[board_.side];
    for (int i = cur_; i < end_; ++i) {
        const Move m = moves_[i].move;
        if (board_.is_capture(m) || board_.is_promotion(m)) {
            const Piece captured = board_.captured_piece(m);
            moves_[i].score =
                EVASION_NOISY_BONUS + (captured == NO_PIECE ? 0 : PIECE_VALUE[type_of(captured)]);
        } else {
            moves_[i].score = bf[m.from() * 64 + m.to()];
        }
    }
}

template <Variant V>
ScoredMove MovePicker<V>::pick_best(int begin, int end) {
    int best = begin;
    for (int i = begin + 1; i < end; ++i)
        if (moves_[i].score > moves_[best].score) best = i;
    std::swap(moves_[begin], moves_[best]);
    return moves_[begin];
}

template <Variant V>
Move MovePicker<V>::next(bool skip_quiets) {
    while (true) {
        switch (stage_) {
            case Stage::TT_MOVE:
                stage_ = Stage::GEN_NOISY;
                return tt_move_;

            case Stage::GEN_NOISY: {
                MoveListOf<V> list;
                generate_moves(board_, list, GenType::NOISY);
                cur_ = end_ = 0;
                for (Move m : list) moves_[end_++] = {m, 0};
                score_noisy();
                stage_ = Stage::GOOD_NOISY;
                break;
            }

            case Stage::GOOD_NOISY:
                while (cur_ < end_) {
                    const ScoredMove sm = pick_best(cur_++, end_);
                    if (sm.move == tt_move_) continue;
                    // Losing captures wait until after the quiet moves.
                    if (sm.score < BAD_NOISY_SCORE ||
                        !see_ge(board_, sm.move, -sm.score / GOOD_NOISY_SEE_DIVISOR)) {
                        bad_[bad_count_++] = sm.move;
                        continue;
                    }
                    return sm.move;
                }
                stage_ = Stage::KILLER1;
                break;

            case Stage::KILLER1:
            case Stage::KILLER2:
            case Stage::COUNTER: {
                if (skip_quiets) {
                    stage_ = Stage::BAD_NOISY;
                    break;
                }
                const Stage s = stage_;
                Move m = s == Stage::KILLER1   ? killers_[0]
                         : s == Stage::KILLER2 ? killers_[1]
                                               : counter_;
                stage_ = Stage(int(stage_) + 1);
                if (!m || m == tt_move_ || !is_quiet(board_, m)) continue;
                if (s == Stage::KILLER2 && m == killers_[0]) continue;
                if (s == Stage::COUNTER && (m == killers_[0] || m == killers_[1])) continue;
                if (!is_plausible_legal(board_, m)) continue;
                return m;
            }

            case Stage::GEN_QUIET: {
                if (skip_quiets) {
                    stage_ = Stage::BAD_NOISY;
                    break;
                }
                MoveListOf<V> list;
                generate_moves(board_, list, GenType::QUIET);
                cur_ = end_ = 0;
                for (Move m : list)
                    if (!is_special(m)) moves_[end_++] = {m, 0};
                score_quiet();
                stage_ = Stage::QUIET;
                break;
            }

            case Stage::QUIET:
                if (!skip_quiets && cur_ < end_) return pick_best(cur_++, end_).move;
                stage_ = Stage::BAD_NOISY;
                break;

            case Stage::BAD_NOISY:
                if (bad_cur_ < bad_count_) return bad_[bad_cur_++];
                stage_ = Stage::DONE;
                break;

            case Stage::QS_TT_MOVE:
                stage_ = Stage::QS_GEN;
                return tt_move_;

            case Stage::QS_GEN: {
                MoveListOf<V> list;
                generate_moves(board_, list, qsearch_evasions_ ? GenType::ALL : GenType::NOISY);
                cur_ = end_ = 0;
                for (Move m : list)
                    if (m != tt_move_) moves_[end_++] = {m, 0};
                if (qsearch_evasions_)
                    score_evasions();
                else
                    score_noisy();
                stage_ = Stage::QS_MOVES;
                break;
            }

            case Stage::QS_MOVES:
                if (cur_ < end_) return pick_best(cur_++, end_).move;
                stage_ = Stage::DONE;
                break;

            case Stage::DONE:
                return Move::none();
        }
    }
}

#define OUTPOST_INSTANTIATE(V)    \
    template class MovePicker<V>; \
    template bool is_plausible_legal<V>(const BasicBoard<V>&, Move);
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine
