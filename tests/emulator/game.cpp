// The game model: legal moves through engine::Position, Lichess-style clocks (ticking only for
// the side to move once both sides have moved, Fischer increment), offers and game end.
#include "game.hpp"

#include <sstream>

#include "engine/variant_table.hpp"

namespace emu {

const char* color_name(engine::Color c) { return c == engine::WHITE ? "white" : "black"; }

std::string speed_of(const TimeControlSpec& tc) {
    if (!tc.limit_s) return "correspondence";
    const int estimate = *tc.limit_s + 40 * tc.increment_s;
    if (estimate < 30) return "ultraBullet";
    if (estimate < 180) return "bullet";
    if (estimate < 480) return "blitz";
    if (estimate < 1500) return "rapid";
    return "classical";
}

engine::Result<Game> Game::create(GameSetup setup, const std::string& preset_moves, Ms now) {
    Game g(std::move(setup));
    // The referee is the engine's perft-verified rules of the game's variant.
    const auto variant = engine::parse_variant(g.setup_.variant);
    if (!variant)
        return engine::Result<Game>::failure("game " + g.id() + ": no such variant " +
                                             g.setup_.variant);
    const bool chess960 = engine::castles_as_chess960(g.setup_.variant);
    g.pos_ = engine::Position::start(*variant);
    if (!g.setup_.initial_fen.empty()) {
        auto pos = engine::Position::from_fen(g.setup_.initial_fen, *variant, chess960);
        if (!pos)
            return engine::Result<Game>::failure("game " + g.id() + ": bad FEN: " + pos.error());
        g.pos_ = *pos;
    }
    const auto& tc = g.setup_.time_control;
    for (engine::Color c : {engine::WHITE, engine::BLACK}) {
        if (tc.limit_s)
            g.stored_[c] = Ms(*tc.limit_s) * 1000;
        else if (tc.days)
            g.stored_[c] = Ms(*tc.days) * 86'400'000;
        else
            g.stored_[c] = 2147483647;
    }
    g.turn_start_ = now;
    g.created_at_ = now;
    std::istringstream in(preset_moves);
    for (std::string m; in >> m;) {
        if (auto err =
                g.play(g.pos_.side_to_move(), m, now, g.pos_.side_to_move() == g.bot_color()))
            return engine::Result<Game>::failure("game " + g.id() + ": preset move " + m + ": " +
                                                 *err);
    }
    return g;
}

std::string Game::speed() const { return speed_of(setup_.time_control); }

bool Game::clock_running() const {
    return has_clock() && !over() && ply() >= setup_.clock_start_ply;
}

Ms Game::remaining(engine::Color c, Ms now) const {
    Ms left = stored_[c];
    if (clock_running() && c == pos_.side_to_move()) left -= now - turn_start_;
    return left < 0 ? 0 : left;
}

std::string Game::uci_text(engine::Move m) const {
    // Antichess has no castling (its king promotion is stored like one).
    const bool castling = pos_.visit([&](const auto& b) { return b.is_castling(m); });
    if (castling && (setup_.king_to_rook || pos_.chess960()))
        return engine::square_name(m.from()) + engine::square_name(m.to());
    if (castling) {
        // king-two-squares form for standard chess
        const bool king_side = m.to() > m.from();
        const engine::Color c = pos_.side_to_move();
        return engine::square_name(m.from()) +
               engine::square_name(engine::Board::castling_king_target(c, king_side));
    }
    return pos_.to_uci(m);
}

std::string Game::uci_moves() const {
    std::string out;
    for (const auto& m : uci_) {
        if (!out.empty()) out += ' ';
        out += m;
    }
    return out;
}

std::optional<std::string> Game::play(engine::Color by, const std::string& uci, Ms now,
                                      bool by_bot) {
    if (over() || by != pos_.side_to_move()) return "Not your turn, or game already over";
    if (check_time(now)) return "Not your turn, or game already over";
    const auto move = pos_.parse_uci(uci);
    if (!move) return "Invalid UCI move " + uci + ": " + move.error();
    MoveRecord rec;
    rec.ply = ply() + 1;
    rec.uci = uci_text(*move);
    rec.by_bot = by_bot;
    rec.at_ms = now;
    rec.since_turn_ms = now - turn_start_;
    if (clock_running()) {
        stored_[by] -= now - turn_start_;
        stored_[by] += Ms(setup_.time_control.increment_s) * 1000;
    }
    pos_.play(*move);
    uci_.push_back(rec.uci);
    turn_start_ = now;
    // A move answers the opponent's pending offers (Lichess declines them on move).
    draw_offer_[~by] = false;
    takeback_offer_[0] = takeback_offer_[1] = false;
    rec.wtime = remaining(engine::WHITE, now);
    rec.btime = remaining(engine::BLACK, now);
    records_.push_back(rec);
    end_if_terminal(now);
    return std::nullopt;
}

void Game::end_if_terminal(Ms now) {
    // scalachess Status: a variant's own end (a king on the hill, a third check, an explosion,
    // the horde destroyed, a king home, antichess's empty or stalemated side) is VariantEnd with
    // its winner; racing kings' both-home is a draw.
    const engine::GameResult r = pos_.result();
    switch (r.status) {
        case engine::PositionStatus::ONGOING:
            return;
        case engine::PositionStatus::CHECKMATE:
            finish("mate", r.winner, now);
            return;
        case engine::PositionStatus::STALEMATE:
            finish("stalemate", std::nullopt, now);
            return;
        case engine::PositionStatus::VARIANT_END:
            finish("variantEnd", r.winner, now);
            return;
        default:
            finish("draw", std::nullopt, now);
            return;
    }
}

bool Game::check_time(Ms now) {
    if (over()) return false;
    const engine::Color stm = pos_.side_to_move();
    if (expirable() && ply() < 2 && now - turn_start_ >= setup_.first_move_timeout_ms) {
        // modules/round Finisher.noStart: a mandatory game (arena, swiss) ends as noStart, the
        // player who did not move losing; any other expirable game is aborted.
        if (mandatory())
            finish("noStart", ~stm, now);
        else
            finish("aborted", std::nullopt, now);
        return true;
    }
    if (clock_running() && remaining(stm, now) <= 0) {
        finish("outoftime", ~stm, now);
        return true;
    }
    return false;
}

void Game::finish(const std::string& status, std::optional<engine::Color> winner, Ms now) {
    if (over()) return;
    for (engine::Color c : {engine::WHITE, engine::BLACK}) stored_[c] = remaining(c, now);
    status_ = status;
    winner_ = winner;
    ended_at_ = now;
    draw_offer_[0] = draw_offer_[1] = false;
    takeback_offer_[0] = takeback_offer_[1] = false;
}

bool Game::take_back(engine::Color proposer, Ms now) {
    // The proposer's own last move goes: one ply if the other side is to move, else two.
    const int plies = pos_.side_to_move() == proposer ? 2 : 1;
    if (over() || ply() < plies) return false;
    for (int i = 0; i < plies; ++i) {
        pos_.undo();
        uci_.pop_back();
        records_.pop_back();
    }
    turn_start_ = now;
    takeback_offer_[0] = takeback_offer_[1] = false;
    return true;
}

}  // namespace emu
