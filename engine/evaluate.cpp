// Tapered hand-crafted evaluation: material, piece-square tables, pawn structure, passed pawns,
// mobility, king safety, pieces, threats and tempo, then endgame scaling and mate-drive rules.
#include "evaluate.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "eval_params.hpp"

namespace engine {

namespace {

constexpr int ALL_PIECES = PIECE_TYPE_NB;  // index of "any piece" in the attack tables

// Pawn-structure masks, built at compile time.
struct Masks {
    Bitboard forward_file[COLOR_NB][SQUARE_NB];     // ahead on the same file
    Bitboard attack_span[COLOR_NB][SQUARE_NB];      // ahead on the adjacent files
    Bitboard passed[COLOR_NB][SQUARE_NB];           // both of the above
    Bitboard behind_adjacent[COLOR_NB][SQUARE_NB];  // adjacent files, this rank and behind
    Bitboard adjacent_files[8];
};

constexpr Masks make_masks() {
    Masks m{};
    for (int f = 0; f < 8; ++f)
        m.adjacent_files[f] = (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
    for (int c = 0; c < COLOR_NB; ++c)
        for (int s = 0; s < SQUARE_NB; ++s) {
            const int f = s & 7, r = s >> 3;
            Bitboard ahead = 0;
            for (int rr = 0; rr < 8; ++rr)
                if (c == WHITE ? rr > r : rr < r) ahead |= rank_bb(rr);
            m.forward_file[c][s] = ahead & file_bb(f);
            m.attack_span[c][s] = ahead & m.adjacent_files[f];
            m.passed[c][s] = m.forward_file[c][s] | m.attack_span[c][s];
            m.behind_adjacent[c][s] = m.adjacent_files[f] & ~ahead;
        }
    return m;
}

constexpr Masks MASKS = make_masks();

// 0 in the four centre squares, 6 in a corner.
constexpr int edge_distance(Square s) {
    const int f = file_of(s), r = rank_of(s);
    return (3 - std::min(f, 7 - f)) + (3 - std::min(r, 7 - r));
}

int non_pawn_material(const Board& b, Color c) {
    int v = 0;
    for (int pt = KNIGHT; pt <= QUEEN; ++pt)
        v += PIECE_VALUE[pt] * popcount(b.pieces(c, PieceType(pt)));
    return v;
}

// Bonus on top of material for a won mating endgame, so the search heads for it.
constexpr int KNOWN_WIN = 1000;

// Dedicated rules for endings the general terms handle badly: bare kings and lone minors are
// dead draws; a bare king against mating material is driven to the edge (KBNK: to a corner of
// the bishop's colour). Returns true and the white-view value when one applies.
bool special_endgame(const Board& b, int& white_value) {
    if (b.pieces() == b.pieces(KING)) {
        white_value = 0;
        return true;
    }
    for (Color strong : {WHITE, BLACK}) {
        const Color weak = ~strong;
        if (b.pieces(weak) != b.pieces(weak, KING)) continue;
        const int knights = popcount(b.pieces(strong, KNIGHT));
        const Bitboard bishops = b.pieces(strong, BISHOP);
        const bool both_bishop_colours = (bishops & DARK_SQUARES) && (bishops & ~DARK_SQUARES);
        const bool majors = b.pieces(strong, ROOK) | b.pieces(strong, QUEEN);
        const Bitboard pawns = b.pieces(strong, PAWN);
        const bool can_force_mate =
            majors || both_bishop_colours || (bishops && knights) || knights >= 3;
        if (!can_force_mate) {
            if (pawns) return false;  // pawns may promote: the general terms handle it
            white_value = 0;          // lone minors or two knights: no forced mate
            return true;
        }
        const Square wk = b.king_square(weak), sk = b.king_square(strong);
        int v = KNOWN_WIN + non_pawn_material(b, strong) + 20 * edge_distance(wk) +
                10 * (7 - distance(wk, sk));
        for (Bitboard p = pawns; p;)
            v += PIECE_VALUE[PAWN] + 10 * relative_rank(strong, pop_lsb(p));
        if (!majors && !both_bishop_colours && knights < 3) {
            // KBN: only the corners of the bishop's colour mate.
            const bool dark = bishops & DARK_SQUARES;
            const Square c1 = dark ? A1 : H1, c2 = dark ? H8 : A8;
            auto manhattan = [](Square a, Square z) {
                return std::abs(file_of(a) - file_of(z)) + std::abs(rank_of(a) - rank_of(z));
            };
            v += 25 * (14 - std::min(manhattan(wk, c1), manhattan(wk, c2)));
        }
        v = std::min(v, EVAL_MAX - 1);
        white_value = strong == WHITE ? v : -v;
        return true;
    }
    return false;
}

// Trace policies: the plain evaluation records nothing; the traced one counts every weight.
struct NoTrace {
    void add(Color, int, int) {}
    void king_danger(Color, ScorePair) {}
};

struct FullTrace {
    EvalTrace& t;
    void add(Color c, int i, int n) { t.coef[c][i] += n; }
    void king_danger(Color c, ScorePair s) { t.king_danger[c] = s; }
};

template <class Tracer>
class Evaluator {
  public:
    Evaluator(const Board& b, const EvalParams& p, Tracer& t) : b_(b), p_(p), t_(t) {}

    // The score from white's point of view.
    int run(EvalTrace* trace);

  private:
    void add(Color c, int index, int n = 1) {
        score_[c] += p_[index] * n;
        t_.add(c, index, n);
    }
    void add_units(Color c, int index, int n = 1) {
        units_[c] += p_[index] * n;
        t_.add(c, index, n);
    }

    template <Color Us>
    void init();
    template <Color Us>
    void material();
    template <Color Us>
    void pawns();
    template <Color Us, PieceType Pt>
    void pieces();
    template <Color Us>
    void king();
    template <Color Us>
    void passed();
    template <Color Us>
    void threats();
    int scale_factor(int eg) const;

    const Board& b_;
    const EvalParams& p_;
    Tracer& t_;

    ScorePair score_[COLOR_NB];
    ScorePair units_[COLOR_NB];  // king-danger units against each side's king
    Bitboard attacked_[COLOR_NB][PIECE_TYPE_NB + 1] = {};
    Bitboard attacked2_[COLOR_NB] = {};  // squares attacked at least twice
    Bitboard mobility_area_[COLOR_NB] = {};
    Bitboard king_zone_[COLOR_NB] = {};
    Bitboard pinned_[COLOR_NB] = {};
    Bitboard passed_[COLOR_NB] = {};
    // Enemy pieces reaching each side's king zone: count by type (knight..queen), and attacks.
    int zone_attackers_[COLOR_NB][4] = {};
    int zone_attacker_count_[COLOR_NB] = {};
    int zone_attacks_[COLOR_NB] = {};
};

template <class Tracer>
template <Color Us>
void Evaluator<Tracer>::init() {
    constexpr Color Them = ~Us;
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    constexpr Direction Down = Us == WHITE ? SOUTH : NORTH;
    const Bitboard pawns = b_.pieces(Us, PAWN);
    const Square ksq = b_.king_square(Us);

    attacked_[Us][PAWN] = pawn_attacks_bb<Us>(pawns);
    attacked_[Us][KING] = king_attacks(ksq);
    attacked_[Us][ALL_PIECES] = attacked_[Us][PAWN] | attacked_[Us][KING];
    const Bitboard pawn_double = Us == WHITE
                                     ? shift<NORTH + EAST>(pawns) & shift<NORTH + WEST>(pawns)
                                     : shift<SOUTH + EAST>(pawns) & shift<SOUTH + WEST>(pawns);
    attacked2_[Us] = pawn_double | (attacked_[Us][PAWN] & attacked_[Us][KING]);

    // Mobility counts squares not taken by our king or our stuck/undeveloped pawns and not
    // attacked by enemy pawns.
    const Bitboard low_ranks = Us == WHITE ? rank_bb(1) | rank_bb(2) : rank_bb(6) | rank_bb(5);
    const Bitboard stuck = pawns & (shift<Down>(b_.pieces()) | low_ranks);
    mobility_area_[Us] =
        ~(stuck | b_.pieces(Us, KING) | pawn_attacks_bb<Them>(b_.pieces(Them, PAWN)));

    Bitboard zone = king_attacks(ksq) | square_bb(ksq);
    if (relative_rank(Us, ksq) == 0) zone |= shift<Up>(zone);
    king_zone_[Us] = zone;
    pinned_[Us] = b_.pinned(Us);
}

template <class Tracer>
template <Color Us>
void Evaluator<Tracer>::material() {
    for (int pt = PAWN; pt <= KING; ++pt) {
        for (Bitboard bb = b_.pieces(Us, PieceType(pt)); bb;) {
            const Square s = pop_lsb(bb);
            add(Us, MATERIAL + pt);
            // The tables are laid out from white's side with a8 first.
            add(Us, PSQT + pt * 64 + (Us == WHITE ? s ^ 56 : s));
        }
    }
    const Bitboard bishops = b_.pieces(Us, BISHOP);
    if ((bishops & DARK_SQUARES) && (bishops & ~DARK_SQUARES)) add(Us, BISHOP_PAIR);
}

template <class Tracer>
template <Color Us>
void Evaluator<Tracer>::pawns() {
    constexpr Color Them = ~Us;
    const Bitboard ours = b_.pieces(Us, PAWN);
    const Bitboard theirs = b_.pieces(Them, PAWN);
    const Bitboard their_attacks = pawn_attacks_bb<Them>(theirs);

    for (Bitboard bb = ours; bb;) {
        const Square s = pop_lsb(bb);
        const int r = relative_rank(Us, s);
        const Bitboard neighbours = ours & MASKS.adjacent_files[file_of(s)];
        const Bitboard supporters = ours & pawn_attacks(Them, s);
        const Bitboard phalanx = neighbours & rank_bb(rank_of(s));
        const bool doubled = ours & MASKS.forward_file[Us][s];

        if (doubled) add(Us, PAWN_DOUBLED);
        if (!neighbours)
            add(Us, PAWN_ISOLATED);
        else if (!(neighbours & MASKS.behind_adjacent[Us][s]) &&
                 (their_attacks & square_bb(Square(s + pawn_push(Us)))))
            add(Us, PAWN_BACKWARD);
        if (supporters) add(Us, PAWN_SUPPORTED + r);
        if (phalanx) add(Us, PAWN_PHALANX + r);
        if (!doubled && !(theirs & MASKS.passed[Us][s])) passed_[Us] |= square_bb(s);
    }
}

template <class Tracer>
template <Color Us, PieceType Pt>
void Evaluator<Tracer>::pieces() {
    constexpr Color Them = ~Us;
    constexpr Direction Down = Us == WHITE ? SOUTH : NORTH;
    constexpr int mobility_index = Pt == KNIGHT   ? MOBILITY_KNIGHT
                                   : Pt == BISHOP ? MOBILITY_BISHOP
                                   : Pt == ROOK   ? MOBILITY_ROOK
                                                  : MOBILITY_QUEEN;
    const Bitboard occupied = b_.pieces();
    const Bitboard our_pawns = b_.pieces(Us, PAWN);
    const Square ksq = b_.king_square(Us);

    for (Bitboard bb = b_.pieces(Us, Pt); bb;) {
        const Square s = pop_lsb(bb);
        // Sliders see through their own heavier pieces on the same line (batteries).
        Bitboard att = Pt == KNIGHT   ? knight_attacks(s)
                       : Pt == BISHOP ? bishop_attacks(s, occupied ^ b_.pieces(Us, QUEEN))
                       : Pt == ROOK   ? rook_attacks(s, occupied ^ b_.pieces(Us, ROOK, QUEEN))
                                      : queen_attacks(s, occupied);
        if (pinned_[Us] & square_bb(s)) att &= line_bb(ksq, s);

        attacked2_[Us] |= attacked_[Us][ALL_PIECES] & att;
        attacked_[Us][Pt] |= att;
        attacked_[Us][ALL_PIECES] |= att;

        if (att & king_zone_[Them]) {
            ++zone_attackers_[Them][Pt - KNIGHT];
            ++zone_attacker_count_[Them];
            zone_attacks_[Them] += popcount(att & king_zone_[Them]);
        }

        add(Us, mobility_index + popcount(att & mobility_area_[Us]));

        if constexpr (Pt == KNIGHT || Pt == BISHOP) {
            const int r = relative_rank(Us, s);
            if (r >= 3 && r <= 5 && (attacked_[Us][PAWN] & square_bb(s)) &&
                !(MASKS.attack_span[Us][s] & b_.pieces(Them, PAWN)))
                add(Us, Pt == KNIGHT ? KNIGHT_OUTPOST : BISHOP_OUTPOST);
            if (shift<Down>(our_pawns) & square_bb(s)) add(Us, MINOR_BEHIND_PAWN);
        }
        if constexpr (Pt == BISHOP) {
            const Bitboard colour = (DARK_SQUARES & square_bb(s)) ? DARK_SQUARES : ~DARK_SQUARES;
            add(Us, BISHOP_PAWNS, popcount(our_pawns & colour));
        }
        if constexpr (Pt == ROOK) {
            const Bitboard file = file_bb(file_of(s));
            if (!(file & our_pawns))
                add(Us, (file & b_.pieces(Them, PAWN)) ? ROOK_SEMIOPEN : ROOK_OPEN);
            if (relative_rank(Us, s) == 6 &&
                (relative_rank(Us, b_.king_square(Them)) == 7 ||
                 (b_.pieces(Them, PAWN) & rank_bb(Us == WHITE ? 6 : 1))))
                add(Us, ROOK_SEVENTH);
        }
    }
}

template <class Tracer>
template <Color Us>
void Evaluator<Tracer>::king() {
    constexpr Color Them = ~Us;
    const Square ksq = b_.king_square(Us);
    const Bitboard ours = b_.pieces(Us, PAWN);
    const Bitboard theirs = b_.pieces(Them, PAWN);
    const int krank = relative_rank(Us, ksq);

    // Pawn shield and storm on the king's file and its neighbours.
    const int centre = std::clamp(file_of(ksq), 1, 6);
    for (int f = centre - 1; f <= centre + 1; ++f) {
        const Bitboard file = file_bb(f);
        Bitboard own = 0, enemy = 0;
        for (Bitboard bb = ours & file; bb;) {
            const Square s = pop_lsb(bb);
            if (relative_rank(Us, s) >= krank) own |= square_bb(s);
        }
        for (Bitboard bb = theirs & file; bb;) {
            const Square s = pop_lsb(bb);
            if (relative_rank(Us, s) > krank) enemy |= square_bb(s);
        }
        if (own) {
            const Square nearest = Us == WHITE ? lsb(own) : msb(own);
            const int d = relative_rank(Us, nearest) - krank;
            add(Us, KING_SHIELD + std::clamp(d - 1, 0, 2));
        } else {
            add(Us, KING_SHIELD + 3);
        }
        if (enemy) {
            const Square nearest = Us == WHITE ? lsb(enemy) : msb(enemy);
            add(Us, KING_STORM + relative_rank(Us, nearest));
        }
        if (!((ours | theirs) & file)) add(Us, KING_OPEN_FILE);
    }

    // Attack units, counted once at least two enemy pieces reach the king zone.
    if (zone_attacker_count_[Us] < 2) return;
    for (int i = 0; i < 4; ++i)
        if (zone_attackers_[Us][i]) add_units(Us, KS_ATTACKER + i, zone_attackers_[Us][i]);
    add_units(Us, KS_ZONE_ATTACK, zone_attacks_[Us]);

    const Bitboard occupied = b_.pieces();
    const Bitboard safe = ~b_.pieces(Them) & ~attacked_[Us][ALL_PIECES];
    const Bitboard knight_checks = knight_attacks(ksq) & safe;
    const Bitboard bishop_checks = bishop_attacks(ksq, occupied) & safe;
    const Bitboard rook_checks = rook_attacks(ksq, occupied) & safe;
    if (knight_checks & attacked_[Them][KNIGHT]) add_units(Us, KS_SAFE_CHECK + 0);
    if (bishop_checks & attacked_[Them][BISHOP]) add_units(Us, KS_SAFE_CHECK + 1);
    if (rook_checks & attacked_[Them][ROOK]) add_units(Us, KS_SAFE_CHECK + 2);
    if ((bishop_checks | rook_checks) & attacked_[Them][QUEEN]) add_units(Us, KS_SAFE_CHECK + 3);

    const Bitboard weak = king_zone_[Us] & attacked_[Them][ALL_PIECES] & ~attacked2_[Us] &
                          (~attacked_[Us][ALL_PIECES] | attacked_[Us][KING] | attacked_[Us][QUEEN]);
    add_units(Us, KS_WEAK_ZONE, popcount(weak));
    if (!b_.pieces(Them, QUEEN)) add_units(Us, KS_NO_QUEEN);
    add_units(Us, KS_OFFSET);

    const int mg = std::max(units_[Us].mg, 0);
    const int eg = std::max(units_[Us].eg, 0);
    const ScorePair penalty{-(mg * mg / KS_MG_DIV), -(eg / KS_EG_DIV)};
    score_[Us] += penalty;
    t_.king_danger(Us, penalty);
}

template <class Tracer>
template <Color Us>
void Evaluator<Tracer>::passed() {
    constexpr Color Them = ~Us;
    const Square own_king = b_.king_square(Us);
    const Square their_king = b_.king_square(Them);
    // Rule of the square: only when the enemy has nothing but pawns to stop the pawn.
    const bool pawn_ending = b_.pieces(Them) == b_.pieces(Them, PAWN, KING);

    for (Bitboard bb = passed_[Us]; bb;) {
        const Square s = pop_lsb(bb);
        const int r = relative_rank(Us, s);
        const Square stop = Square(s + pawn_push(Us));
        const Bitboard path = MASKS.forward_file[Us][s];

        add(Us, PASSED_RANK + r);
        if (!(path & b_.pieces())) add(Us, PASSED_FREE + r);
        if (!(path & attacked_[Them][ALL_PIECES])) add(Us, PASSED_SAFE + r);
        add(Us, PASSED_KING_OWN + r, distance(own_king, stop));
        add(Us, PASSED_KING_THEIR + r, distance(their_king, stop));
        if (pawn_attacks(Them, s) & b_.pieces(Us, PAWN)) add(Us, PASSED_PROTECTED);
        if (pawn_ending && !(path & b_.pieces(Us))) {
            const Square promotion = make_square(file_of(s), Us == WHITE ? 7 : 0);
            const int pawn_moves = std::min(5, 7 - r);
            const int king_moves = distance(their_king, promotion) - (b_.side == Them ? 1 : 0);
            if (king_moves > pawn_moves) add(Us, PASSED_UNSTOPPABLE);
        }
    }
}

template <class Tracer>
template <Color Us>
void Evaluator<Tracer>::threats() {
    constexpr Color Them = ~Us;
    const Bitboard their_pawns = b_.pieces(Them, PAWN);
    const Bitboard pieces = b_.pieces(Them) & ~their_pawns & ~b_.pieces(Them, KING);
    // Targets: pieces no enemy pawn defends, and pawns nothing defends.
    const Bitboard targets =
        (pieces & ~attacked_[Them][PAWN]) | (their_pawns & ~attacked_[Them][ALL_PIECES]);

    for (Bitboard bb = pieces & attacked_[Us][PAWN]; bb;)
        add(Us, THREAT_BY_PAWN + int(type_of(b_.piece_on(pop_lsb(bb)))));
    for (Bitboard bb = targets & (attacked_[Us][KNIGHT] | attacked_[Us][BISHOP]); bb;)
        add(Us, THREAT_BY_MINOR + int(type_of(b_.piece_on(pop_lsb(bb)))));
    for (Bitboard bb = targets & attacked_[Us][ROOK]; bb;)
        add(Us, THREAT_BY_ROOK + int(type_of(b_.piece_on(pop_lsb(bb)))));
    if (targets & attacked_[Us][KING] & ~attacked_[Them][ALL_PIECES]) add(Us, THREAT_BY_KING);
    const int hanging = popcount(pieces & attacked_[Us][ALL_PIECES] & ~attacked_[Them][ALL_PIECES]);
    if (hanging) add(Us, HANGING, hanging);
}

// Out of 64: how much of the endgame score the stronger side can really cash in.
template <class Tracer>
int Evaluator<Tracer>::scale_factor(int eg) const {
    const Color strong = eg > 0 ? WHITE : BLACK;
    const Color weak = ~strong;
    const int strong_pawns = popcount(b_.pieces(strong, PAWN));
    const int weak_pawns = popcount(b_.pieces(weak, PAWN));
    const int npm_strong = non_pawn_material(b_, strong);
    const int npm_weak = non_pawn_material(b_, weak);

    // No pawns and at most a minor piece ahead: hard or impossible to win.
    if (strong_pawns == 0 && npm_strong - npm_weak <= PIECE_VALUE[BISHOP])
        return npm_strong < PIECE_VALUE[ROOK] ? 0 : npm_weak <= PIECE_VALUE[BISHOP] ? 4 : 14;

    // Opposite-coloured bishops.
    const Bitboard wb = b_.pieces(WHITE, BISHOP), bb = b_.pieces(BLACK, BISHOP);
    if (wb && bb && !more_than_one(wb) && !more_than_one(bb) &&
        bool(wb & DARK_SQUARES) != bool(bb & DARK_SQUARES)) {
        if (npm_strong == PIECE_VALUE[BISHOP] && npm_weak == PIECE_VALUE[BISHOP])
            return std::min(SCALE_NORMAL, 16 + 8 * std::max(0, strong_pawns - weak_pawns - 1));
        return 46;
    }

    // Bishop and rook pawns whose promotion square the bishop does not control, with the
    // defending king in that corner.
    const Bitboard sp = b_.pieces(strong, PAWN);
    if (npm_strong == PIECE_VALUE[BISHOP] && npm_weak == 0 && b_.pieces(strong, BISHOP) &&
        (!(sp & ~FILE_A_BB) || !(sp & ~FILE_H_BB))) {
        const Square promotion = relative_square(strong, (sp & FILE_A_BB) ? A8 : H8);
        const bool bishop_dark = b_.pieces(strong, BISHOP) & DARK_SQUARES;
        const bool promotion_dark = DARK_SQUARES & square_bb(promotion);
        if (bishop_dark != promotion_dark && distance(b_.king_square(weak), promotion) <= 1)
            return 0;
    }
    return SCALE_NORMAL;
}

template <class Tracer>
int Evaluator<Tracer>::run(EvalTrace* trace) {
    int special_value = 0;
    if (special_endgame(b_, special_value)) {
        if (trace) {
            trace->special = true;
            trace->white_eval = special_value;
        }
        return special_value;
    }

    init<WHITE>();
    init<BLACK>();
    material<WHITE>();
    material<BLACK>();
    pawns<WHITE>();
    pawns<BLACK>();
    pieces<WHITE, KNIGHT>();
    pieces<BLACK, KNIGHT>();
    pieces<WHITE, BISHOP>();
    pieces<BLACK, BISHOP>();
    pieces<WHITE, ROOK>();
    pieces<BLACK, ROOK>();
    pieces<WHITE, QUEEN>();
    pieces<BLACK, QUEEN>();
    king<WHITE>();
    king<BLACK>();
    passed<WHITE>();
    passed<BLACK>();
    threats<WHITE>();
    threats<BLACK>();
    add(b_.side, TEMPO);

    const int phase = game_phase(b_);
    const ScorePair total = score_[WHITE] - score_[BLACK];
    const int scale = scale_factor(total.eg);
    const int eg = total.eg * scale / SCALE_NORMAL;
    int v = (total.mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
    v = std::clamp(v, -(EVAL_MAX - 1), EVAL_MAX - 1);
    if (trace) {
        trace->phase = phase;
        trace->scale = scale;
        trace->white_eval = v;
    }
    return v;
}

}  // namespace

int evaluate_with(const Board& board, const EvalParams& params) {
    NoTrace none;
    const int v = Evaluator<NoTrace>(board, params, none).run(nullptr);
    return board.side == WHITE ? v : -v;
}

int evaluate_traced(const Board& board, const EvalParams& params, EvalTrace& trace) {
    trace = EvalTrace{};
    FullTrace full{trace};
    const int v = Evaluator<FullTrace>(board, params, full).run(&trace);
    return board.side == WHITE ? v : -v;
}

int evaluate(const Board& board) { return evaluate_with(board, DEFAULT_EVAL_PARAMS); }

std::string eval_trace(const Board& board) {
    static constexpr const char* names[] = {"Material", "PSQT",   "Pawns",   "Passed", "Mobility",
                                            "King",     "Pieces", "Threats", "Tempo"};
    auto trace = std::make_unique<EvalTrace>();
    const int stm = evaluate_traced(board, DEFAULT_EVAL_PARAMS, *trace);
    std::string out;
    char line[160];
    if (trace->special) {
        std::snprintf(line, sizeof line,
                      "Special endgame rule: %d (white's view), %d (side to move)\n",
                      trace->white_eval, stm);
        return line;
    }
    ScorePair sums[int(EvalTerm::COUNT)][COLOR_NB] = {};
    for (const auto& g : PARAM_GROUPS) {
        if (g.offset >= KS_BEGIN && g.offset < KS_END) continue;  // in king_danger
        for (int c = 0; c < COLOR_NB; ++c)
            for (int i = g.offset; i < g.offset + g.count; ++i)
                sums[int(g.term)][c] += DEFAULT_EVAL_PARAMS[i] * trace->coef[c][i];
    }
    for (int c = 0; c < COLOR_NB; ++c) sums[int(EvalTerm::KING)][c] += trace->king_danger[c];

    out += "      Term |    White mg    eg |    Black mg    eg |    Total mg    eg\n";
    out += "-----------+-------------------+-------------------+------------------\n";
    ScorePair total;
    for (int t = 0; t < int(EvalTerm::COUNT); ++t) {
        const ScorePair w = sums[t][WHITE], b = sums[t][BLACK], d = w - b;
        total += d;
        std::snprintf(line, sizeof line, "%10s | %11d %5d | %11d %5d | %11d %5d\n", names[t], w.mg,
                      w.eg, b.mg, b.eg, d.mg, d.eg);
        out += line;
    }
    out += "-----------+-------------------+-------------------+------------------\n";
    std::snprintf(line, sizeof line, "%10s | %17s | %17s | %11d %5d\n", "Total", "", "", total.mg,
                  total.eg);
    out += line;
    std::snprintf(line, sizeof line,
                  "\nPhase %d/%d, endgame scale %d/%d (king danger: white %d/%d, black %d/%d)\n"
                  "Evaluation: %d (white's view), %d (side to move)\n",
                  trace->phase, PHASE_MAX, trace->scale, SCALE_NORMAL, trace->king_danger[WHITE].mg,
                  trace->king_danger[WHITE].eg, trace->king_danger[BLACK].mg,
                  trace->king_danger[BLACK].eg, trace->white_eval, stm);
    out += line;
    return out;
}

}  // namespace engine
