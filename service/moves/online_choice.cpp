// The online sources' answers as moves in our position (see online_choice.hpp).
#include "service/moves/online_choice.hpp"

#include <algorithm>
#include <cmath>

namespace service {

namespace {

std::optional<OnlineChoice> choice(MoveSource source, const engine::Position& position,
                                   engine::Move move, std::string note,
                                   std::optional<engine::Score> score = std::nullopt) {
    OnlineChoice c;
    c.source = source;
    c.uci = position.to_uci(move);
    c.score = score;
    c.note = std::move(note);
    return c;
}

// The root's result from the side to move's view: won, drawn, lost, or not known.
std::optional<int> tablebase_outcome(lichess::TablebaseCategory c) {
    switch (c) {
        case lichess::TablebaseCategory::Win:
        case lichess::TablebaseCategory::SyzygyWin:
            return 1;
        case lichess::TablebaseCategory::Loss:
        case lichess::TablebaseCategory::SyzygyLoss:
            return -1;
        case lichess::TablebaseCategory::Draw:
        case lichess::TablebaseCategory::CursedWin:    // a win the 50-move rule turns into a draw
        case lichess::TablebaseCategory::BlessedLoss:  // likewise a loss
            return 0;
        default:
            return std::nullopt;  // maybe-win, maybe-loss, unknown
    }
}

const char* category_text(lichess::TablebaseCategory c) {
    switch (c) {
        case lichess::TablebaseCategory::Win:
            return "win";
        case lichess::TablebaseCategory::SyzygyWin:
            return "syzygy-win";
        case lichess::TablebaseCategory::MaybeWin:
            return "maybe-win";
        case lichess::TablebaseCategory::CursedWin:
            return "cursed-win";
        case lichess::TablebaseCategory::Draw:
            return "draw";
        case lichess::TablebaseCategory::BlessedLoss:
            return "blessed-loss";
        case lichess::TablebaseCategory::MaybeLoss:
            return "maybe-loss";
        case lichess::TablebaseCategory::SyzygyLoss:
            return "syzygy-loss";
        case lichess::TablebaseCategory::Loss:
            return "loss";
        case lichess::TablebaseCategory::Unknown:
            return "unknown";
    }
    return "unknown";
}

// A mate distance the score can carry: DTM (plies) when the table gives it, else a long one,
// so a tablebase win is above every evaluation and a loss below.
engine::Score outcome_score(int outcome, std::optional<int> dtm_plies) {
    if (outcome == 0) return engine::Score{false, 0};
    const int moves = dtm_plies ? std::max(1, (std::abs(*dtm_plies) + 1) / 2) : 100;
    return engine::Score{true, outcome > 0 ? moves : -moves};
}

// Centipawns of a cloud line from the side to move (Lichess gives them from White's side);
// a mate as ±100000 less the distance, as draw_resign counts it.
int cloud_cp(const lichess::CloudPv& pv, engine::Color to_move) {
    int white = 0;
    if (pv.mate)
        white = *pv.mate > 0 ? 100000 - *pv.mate : -100000 - *pv.mate;
    else
        white = pv.cp.value_or(0);
    return to_move == engine::WHITE ? white : -white;
}

}  // namespace

std::optional<engine::Move> legal_move(const engine::Position& position, std::string_view text) {
    if (auto m = position.parse_uci(text)) return *m;
    if (auto m = position.parse_san(text); m) {
        if (position.legal_moves().contains(*m)) return *m;
    }
    return std::nullopt;
}

std::optional<OnlineChoice> choose_explorer_move(const lichess::ExplorerReply& reply,
                                                 const config::OpeningExplorerConfig& config,
                                                 const engine::Position& position) {
    const bool white = position.side_to_move() == engine::WHITE;
    std::optional<engine::Move> best;
    double best_value = -1;
    std::int64_t best_games = 0;
    for (const auto& m : reply.moves) {
        const std::int64_t games = m.white + m.draws + m.black;
        if (games <= 0 || games < config.min_games) continue;
        auto move = legal_move(position, m.uci);
        if (!move) move = legal_move(position, m.san);
        if (!move) continue;
        const double ours = double(white ? m.white : m.black) + 0.5 * double(m.draws);
        const double value = config.sort == "games" ? double(games) : ours / double(games);
        if (value > best_value) {
            best = move;
            best_value = value;
            best_games = games;
        }
    }
    if (!best) return std::nullopt;
    return choice(MoveSource::Explorer, position, *best,
                  std::to_string(best_games) + " games, " + config.source);
}

std::optional<OnlineChoice> choose_cloud_move(const lichess::CloudEvalReply& reply,
                                              const config::CloudAnalysisConfig& config,
                                              const engine::Position& position, OnlineRng& rng) {
    if (reply.depth < config.min_depth || reply.pvs.empty()) return std::nullopt;
    const engine::Color to_move = position.side_to_move();
    // Lichess lists the lines best first for the side to move.
    const int best_cp = cloud_cp(reply.pvs.front(), to_move);
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < reply.pvs.size(); ++i) {
        if (reply.pvs[i].moves.empty()) continue;
        if (i > 0 && (config.move_quality != "good" ||
                      best_cp - cloud_cp(reply.pvs[i], to_move) > config.max_score_difference))
            continue;
        candidates.push_back(i);
    }
    while (!candidates.empty()) {
        const std::size_t pick =
            std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(rng);
        const lichess::CloudPv& pv = reply.pvs[candidates[pick]];
        if (auto move = legal_move(position, pv.moves.front())) {
            engine::Score score{false, cloud_cp(pv, to_move)};
            if (pv.mate) {
                const int mate = to_move == engine::WHITE ? *pv.mate : -*pv.mate;
                score = engine::Score{true, mate};
            }
            return choice(MoveSource::Cloud, position, *move,
                          "depth " + std::to_string(reply.depth), score);
        }
        candidates.erase(candidates.begin() + std::ptrdiff_t(pick));
    }
    return std::nullopt;
}

std::optional<OnlineChoice> choose_tablebase_move(const lichess::TablebaseReply& reply,
                                                  const config::OnlineTablebaseConfig& config,
                                                  const engine::Position& position) {
    const std::optional<int> outcome = tablebase_outcome(reply.category);
    if (!outcome || reply.moves.empty()) return std::nullopt;
    // The moves come best first; each move's category is the opponent's after it.
    const lichess::TablebaseCategory best = reply.moves.front().category;
    std::vector<engine::Move> keeping;
    for (const auto& m : reply.moves) {
        if (m.category != best) continue;
        auto move = legal_move(position, m.uci);
        if (!move) move = legal_move(position, m.san);
        if (move) keeping.push_back(*move);
    }
    if (keeping.empty()) return std::nullopt;
    std::string note = category_text(reply.category);
    if (reply.dtm) note += ", dtm " + std::to_string(*reply.dtm);
    if (reply.dtz) note += ", dtz " + std::to_string(*reply.dtz);
    auto c = choice(MoveSource::Tablebase, position, keeping.front(), note,
                    outcome_score(*outcome, reply.dtm));
    if (config.move_quality == "suggest" && keeping.size() > 1)
        for (engine::Move m : keeping) c->search_among.push_back(position.to_uci(m));
    return c;
}

std::optional<OnlineChoice> choose_chessdb_move(const lichess::ChessdbReply& reply,
                                                const std::string& move_quality,
                                                const engine::Position& position, OnlineRng& rng) {
    if (reply.status != "ok" || reply.moves.empty()) return std::nullopt;
    // chessdb ranks its moves: 2 best, 1 good, 0 not recommended; the list comes best first.
    std::vector<const lichess::ChessdbMove*> candidates;
    const int top_rank = reply.moves.front().rank;
    for (const auto& m : reply.moves) {
        const bool wanted = move_quality == "all"    ? true
                            : move_quality == "good" ? m.rank > 0
                                                     : m.rank == top_rank && m.rank > 0;
        if (wanted) candidates.push_back(&m);
    }
    // Keep the first; erase, not resize(1): GCC 12 reports a false -Warray-bounds for resize here.
    if (move_quality == "best" && !candidates.empty())
        candidates.erase(candidates.begin() + 1, candidates.end());
    while (!candidates.empty()) {
        const std::size_t pick =
            std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(rng);
        const lichess::ChessdbMove& m = *candidates[pick];
        if (auto move = legal_move(position, m.uci)) {
            std::string note = "rank " + std::to_string(m.rank);
            if (m.score) note += ", score " + std::to_string(*m.score);
            return choice(MoveSource::Chessdb, position, *move, note);
        }
        candidates.erase(candidates.begin() + std::ptrdiff_t(pick));
    }
    return std::nullopt;
}

std::chrono::milliseconds online_deadline(std::int64_t our_ms, bool real_time) {
    constexpr std::int64_t kMaxMs = 2000;
    const std::int64_t ms = real_time ? std::min<std::int64_t>(kMaxMs, our_ms / 20) : kMaxMs;
    return std::chrono::milliseconds(ms < 50 ? 0 : ms);
}

}  // namespace service
