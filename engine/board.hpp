// The board state of one position as plain data: piece bitboards, a mailbox, side to move,
// castling, en passant, move counters and the Zobrist key. Copy-make: a move is applied to a
// copy, so there is nothing to undo. One board type per variant (`BasicBoard<V>`): the rules
// that differ are `if constexpr` branches of its member functions, so the standard board
// (`Board`) compiles to exactly the code it had before variants existed.
#pragma once

#include <algorithm>
#include <iterator>
#include <string>
#include <string_view>

#include "attacks.hpp"
#include "types.hpp"
#include "variant.hpp"
#include "variant_state.hpp"

namespace engine {

// What the quick gives_check needs, computed once per node: the squares from which each piece
// type of the side to move attacks the enemy king, and our pieces that alone stand between it
// and one of our sliders (moving one off that line uncovers a check).
struct CheckInfo {
    Bitboard squares[PIECE_TYPE_NB] = {};
    Bitboard discoverers = 0;
    Square king = SQ_NONE;
};

template <Variant V>
struct BasicBoard {
    static constexpr Variant variant = V;

    Bitboard by_type[PIECE_TYPE_NB] = {};
    Bitboard by_color[COLOR_NB] = {};
    Piece squares[SQUARE_NB];
    Key key = 0;
    Color side = WHITE;
    std::uint8_t castling = NO_CASTLING;  // CastlingRight bits
    Square en_passant = SQ_NONE;          // set only when a pawn of `side` can capture there
    std::uint8_t halfmove_clock = 0;      // plies since the last capture or pawn move
    std::uint16_t fullmove_number = 1;
    bool chess960 = false;
    // Where the castling rooks start, indexed by castling_index(); fixed for a game.
    Square castling_rook[4] = {SQ_NONE, SQ_NONE, SQ_NONE, SQ_NONE};
    // Enemy pieces giving check to `side`: set by make_move, make_null_move and the FEN parser,
    // because the search, the move picker and the generator each ask it of every node.
    Bitboard checkers_bb = 0;
    // Pockets and promoted pieces (crazyhouse), checks given (three-check); empty otherwise.
    [[no_unique_address]] VariantState<V> state;

    // --- queries -------------------------------------------------------------------------
    Bitboard pieces() const { return by_color[WHITE] | by_color[BLACK]; }
    Bitboard pieces(Color c) const { return by_color[c]; }
    Bitboard pieces(PieceType pt) const { return by_type[pt]; }
    Bitboard pieces(Color c, PieceType pt) const { return by_color[c] & by_type[pt]; }
    Bitboard pieces(Color c, PieceType a, PieceType b) const {
        return by_color[c] & (by_type[a] | by_type[b]);
    }
    Piece piece_on(Square s) const { return squares[s]; }
    bool empty(Square s) const { return squares[s] == NO_PIECE; }
    // The king of colour c; only where c has exactly one (not antichess, not the horde).
    Square king_square(Color c) const { return lsb(pieces(c, KING)); }
    bool has_king(Color c) const { return pieces(c, KING) != 0; }

    // Pieces of either colour attacking s, given an occupancy.
    Bitboard attackers_to(Square s, Bitboard occupied) const;
    Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
    bool attacked_by(Color attacker, Square s, Bitboard occupied) const;
    // Enemy pieces giving check to the side to move (kept in checkers_bb). None in antichess,
    // none for the king-less horde, none while atomic kings touch.
    Bitboard checkers() const { return checkers_bb; }
    Bitboard compute_checkers() const;
    bool in_check() const { return checkers() != 0; }
    // Pieces of colour c that shield their own king from an enemy slider.
    Bitboard pinned(Color c) const;
    // Pieces of colour `blockers_of` that alone stand between the king square `ksq` and a
    // slider of colour `sliders` (pins, and the pieces whose move uncovers a check).
    Bitboard sole_blockers(Square ksq, Color sliders, Color blockers_of) const;

    bool is_capture(Move m) const {
        if constexpr (has_drops(V))
            if (m.is_drop()) return false;
        if constexpr (promotes_to_king(V))
            return m.kind() == MoveKind::EN_PASSANT || !empty(m.to());
        return m.kind() == MoveKind::EN_PASSANT ||
               (m.kind() != MoveKind::CASTLING && !empty(m.to()));
    }
    Piece moved_piece(Move m) const {
        if constexpr (has_drops(V))
            if (m.is_drop()) return make_piece(side, m.drop_piece());
        return squares[m.from()];
    }
    Piece captured_piece(Move m) const {
        if constexpr (has_drops(V))
            if (m.is_drop()) return NO_PIECE;
        if (m.kind() == MoveKind::EN_PASSANT) return make_piece(~side, PAWN);
        if constexpr (!promotes_to_king(V))
            if (m.kind() == MoveKind::CASTLING) return NO_PIECE;
        return squares[m.to()];
    }
    bool is_promotion(Move m) const {
        if constexpr (promotes_to_king(V))
            if (m.kind() == MoveKind::CASTLING) return true;
        return m.kind() == MoveKind::PROMOTION;
    }
    // The piece a promotion makes (a king for antichess's king promotion).
    PieceType promotion_type(Move m) const {
        if constexpr (promotes_to_king(V))
            if (m.kind() == MoveKind::CASTLING) return KING;
        return m.promotion();
    }
    bool is_castling(Move m) const {
        if constexpr (!has_castling(V)) return false;
        return m.kind() == MoveKind::CASTLING;
    }
    // Whether a legal move checks the opponent, without making it: the search prunes on it
    // before paying for the move (castling, rare, is made on a copy).
    bool gives_check(Move m) const;
    // The same answer from the node's check_info(), cheaper per move: the search asks it of
    // every move it considers.
    CheckInfo check_info() const;
    bool gives_check(Move m, const CheckInfo& ci) const;
    // Castling move for colour c on that side, king-to-rook; none when it has no right.
    Move castling_move(Color c, bool king_side) const;
    // Where king and rook land after castling (same in Chess960 and standard chess).
    static Square castling_king_target(Color c, bool king_side) {
        return relative_square(c, king_side ? G1 : C1);
    }
    static Square castling_rook_target(Color c, bool king_side) {
        return relative_square(c, king_side ? F1 : D1);
    }

    // The key after a move, computed without making it, so the search can prefetch the child's
    // TT line before paying for the move. Exact for ordinary moves and captures; castling,
    // promotions, en passant and changed castling rights may differ, and then only the
    // prefetch is wasted.
    Key key_after(Move m) const;

    // --- changes ---------------------------------------------------------------------------
    // Applies a legal move (from this board's legal move list).
    void make_move(Move m);
    // Passes the turn (for null-move pruning); the side to move must not be in check.
    void make_null_move();
    // Computes the key from scratch (tests compare it with the incremental one).
    Key compute_key() const;

    void put_piece(Piece p, Square s);
    void remove_piece(Square s);

    // Crazyhouse: a piece into or out of c's pocket, with its key.
    void add_to_pocket(Color c, PieceType pt);
    void take_from_pocket(Color c, PieceType pt);
    // Crazyhouse: marks or clears a promoted piece on s, with its key.
    void toggle_promoted(Square s);
    // Three-check: sets the checks c has given, with its key.
    void set_checks_given(Color c, int n);

  private:
    void move_piece(Square from, Square to);
    void set_en_passant_if_capturable(Square s);
    void make_drop(Move m);
    void explode(Square center);
};

using Board = BasicBoard<Variant::STANDARD>;

// Standard chess's board carries no variant state: its copy-make costs what it did before.
static_assert(sizeof(Board) == sizeof(BasicBoard<Variant::ATOMIC>),
              "an empty VariantState must take no space");

// The pieces of a variant's board on a standard board (the variant's own state left behind),
// for what judges the pieces alone: the standard evaluation, the trainer's inputs.
template <Variant V>
Board as_standard(const BasicBoard<V>& b) {
    Board s;
    std::copy(std::begin(b.by_type), std::end(b.by_type), std::begin(s.by_type));
    std::copy(std::begin(b.by_color), std::end(b.by_color), std::begin(s.by_color));
    std::copy(std::begin(b.squares), std::end(b.squares), std::begin(s.squares));
    s.key = b.key;
    s.side = b.side;
    s.castling = b.castling;
    s.en_passant = b.en_passant;
    s.halfmove_clock = b.halfmove_clock;
    s.fullmove_number = b.fullmove_number;
    s.chess960 = b.chess960;
    std::copy(std::begin(b.castling_rook), std::end(b.castling_rook), std::begin(s.castling_rook));
    s.checkers_bb = b.checkers_bb;
    return s;
}

}  // namespace engine
