// search_at_level: a MultiPV-like pass over the root moves with shallow, capped searches, then
// a seeded choice among the plausible ones. Only the public Engine API is used.
#include "level_search.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "score.hpp"

namespace engine {

namespace {

using Clock = std::chrono::steady_clock;

// With less than this on its clock a level does not wait out its thinking time.
constexpr std::int64_t NO_WAIT_BELOW_MS = 2000;

std::int64_t elapsed_ms(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

struct Candidate {
    Move move;
    int score = 0;  // internal units, our view
    int depth = 0;  // plies of sight behind the score (1 + the child's completed depth)
    Move reply;     // the child's best move, when it has one
};

// The score after `m` from our side, searched to `child_depth` (capped by `nodes` and `ms`,
// 0: none). Nullopt when the search was stopped before its first iteration finished.
std::optional<Candidate> score_move(Engine& engine, const Position& pos, Move m, int child_depth,
                                    std::uint64_t nodes, std::int64_t ms,
                                    const std::atomic<bool>& stop, std::uint64_t& total_nodes) {
    Position child = pos;
    child.play(m);
    const GameResult over = child.result();
    if (over.status != PositionStatus::ONGOING) {
        const int raw = !over.winner                           ? 0
                        : *over.winner == child.side_to_move() ? mate_in(0)
                                                               : mated_in(0);
        return Candidate{m, score_from_child(raw), 1, Move::none()};
    }
    SearchLimits limits;
    limits.depth = child_depth;
    limits.nodes = nodes;
    limits.move_overhead_ms = 0;
    if (ms > 0) limits.movetime = ms;
    const SearchResult r = engine.search_full_strength(child, limits, stop);
    total_nodes += r.nodes;
    if (r.depth == 0 && r.best) return std::nullopt;  // stopped before any iteration completed
    return Candidate{m, score_from_child(r.raw_score), r.depth + 1, r.best};
}

void wait_until(const std::atomic<bool>& stop, Clock::time_point until) {
    while (!stop.load() && Clock::now() < until)
        std::this_thread::sleep_for(
            std::min<Clock::duration>(std::chrono::milliseconds(5), until - Clock::now()));
}

}  // namespace

int score_from_child(int child_raw) {
    if (child_raw >= TB_WIN_IN_MAX) return -child_raw + 1;
    if (child_raw <= -TB_WIN_IN_MAX) return -child_raw - 1;
    return -child_raw;
}

SearchResult search_at_level(Engine& engine, const Position& pos, SearchLimits limits,
                             const std::atomic<bool>& stop, const Strength& strength,
                             const InfoCallback& on_info) {
    auto start = Clock::now();
    bool answer_at_once = false;
    if (limits.ponder) {
        // The level thinks only on its own clock: wait for the opponent's move to be known.
        while (!stop.load() && !engine.ponderhit_pending())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        answer_at_once = stop.load();  // a ponder miss: the answer is thrown away
        limits.ponder = false;
        start = Clock::now();
    }
    const auto legal = pos.legal_moves();
    if (legal.empty()) return engine.search_full_strength(pos, limits, stop);

    const StrengthParams p = strength_params(strength.elo);
    const int depth = limits.depth > 0 ? std::clamp(limits.depth - 1, 1, p.depth) : p.depth;
    const std::uint64_t nodes = limits.nodes ? std::min(limits.nodes, p.nodes) : p.nodes;
    const std::uint64_t seed = mix_seed(strength.seed, pos.key());

    // Think for the level's share of the budget, jittered by 0.7..1.3 so replies are not
    // metronomic; an only move takes a third of it.
    const Color us = pos.side_to_move();
    const bool timed = limits.uses_time(us) && !limits.infinite && !answer_at_once;
    std::int64_t think_ms = 0;
    if (timed) {
        const TimeBudget budget = allocate_time(limits, us);
        const double jitter = 0.7 + 0.6 * double(mix_seed(seed, 0x71e) >> 11) / double(1ULL << 53);
        double ms = double(budget.soft_ms) * p.time_share * jitter;
        if (legal.size() == 1) ms /= 3;
        think_ms = std::clamp<std::int64_t>(std::int64_t(ms), 1, budget.hard_ms);
    }
    const auto left_ms = [&]() -> std::int64_t {
        return timed ? std::max<std::int64_t>(1, think_ms - elapsed_ms(start)) : 0;
    };
    const auto out_of_time = [&] {
        return stop.load() || (timed && elapsed_ms(start) >= think_ms);
    };

    // Pass 1: every root move one ply deep (the child's quiescence search included).
    std::uint64_t total_nodes = 0;
    std::vector<Candidate> seen;
    for (const Move m : legal) {
        if (!seen.empty() && out_of_time()) break;
        if (auto c = score_move(engine, pos, m, 1, 0, left_ms(), stop, total_nodes))
            seen.push_back(*c);
    }
    if (seen.empty()) {  // stopped at once: any move the search would play
        SearchLimits quick;
        quick.depth = 1;
        const std::atomic<bool> no_stop{false};
        return engine.search_full_strength(pos, quick, no_stop);
    }
    std::stable_sort(seen.begin(), seen.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });

    // The level's own look at the position: a capped search of it proposes one more candidate,
    // the quiet move a 1-ply pass ranks low. Without it a level misses every such move, which
    // held the top levels hundreds of points below their names.
    std::size_t deep = std::min<std::size_t>(seen.size(), std::size_t(p.candidates));
    std::optional<Candidate> sighted;  // the look's move, scored by the look itself
    if (p.sight_nodes > 0 && depth > 1 && !out_of_time()) {
        SearchLimits sight;
        sight.depth = depth + 1;
        sight.nodes = limits.nodes ? std::min(limits.nodes, p.sight_nodes) : p.sight_nodes;
        sight.move_overhead_ms = 0;
        if (timed) sight.movetime = left_ms();
        const SearchResult r = engine.search_full_strength(pos, sight, stop);
        total_nodes += r.nodes;
        const auto it = std::find_if(seen.begin(), seen.end(),
                                     [&](const Candidate& c) { return c.move == r.best; });
        // First in line, so the clock cannot leave it unsearched.
        if (r.best && it != seen.end()) {
            if (std::size_t(it - seen.begin()) >= deep) ++deep;
            std::rotate(seen.begin(), it, it + 1);
            if (r.depth > 0) sighted = Candidate{r.best, r.raw_score, r.depth, r.ponder};
        }
    }

    // Pass 2: the candidates again to the level's depth, within its node cap and time.
    std::vector<Candidate> chosen_from;
    if (depth > 1) {
        for (std::size_t i = 0; i < deep && !out_of_time(); ++i)
            if (auto c = score_move(engine, pos, seen[i].move, depth, nodes, left_ms(), stop,
                                    total_nodes))
                chosen_from.push_back(*c);
    }
    // The look's move keeps the look's score when pass 2 saw it less deep (its search cut short).
    if (sighted && !chosen_from.empty() && chosen_from.front().move == sighted->move &&
        chosen_from.front().depth < sighted->depth)
        chosen_from.front() = *sighted;
    // A move the clock cut short is not weighed against one searched deeper: its score is a
    // shallower guess, and at the levels whose look takes most of the budget it would otherwise
    // replace the look's move by chance.
    if (out_of_time() && !chosen_from.empty()) {
        const int first_depth = chosen_from.front().depth;
        chosen_from.erase(std::remove_if(chosen_from.begin() + 1, chosen_from.end(),
                                         [&](const Candidate& c) { return c.depth < first_depth; }),
                          chosen_from.end());
    }
    // The clock ended pass 2 before it scored any move: the look's move stands on the look's own
    // search (at the top levels the look takes the whole budget, and its move must not give way
    // to a one-ply score); without a look, the one-ply scores decide.
    if (chosen_from.empty() && sighted) chosen_from.push_back(*sighted);
    if (chosen_from.empty()) chosen_from.assign(seen.begin(), seen.begin() + std::ptrdiff_t(deep));

    std::vector<int> scores;
    for (const Candidate& c : chosen_from) scores.push_back(c.score);
    const Candidate& pick = chosen_from[choose_scored(scores, p.margin_cp, p.temperature_cp, seed)];

    // Below a couple of seconds a person in time trouble moves at once; so does the level, and a
    // loaded machine's late wake-ups cannot cost it the game.
    const std::int64_t clock = us == WHITE ? limits.wtime : limits.btime;
    const bool time_trouble = clock >= 0 && clock < NO_WAIT_BELOW_MS;
    if (timed && !time_trouble) wait_until(stop, start + std::chrono::milliseconds(think_ms));
    if (limits.infinite) wait_until(stop, Clock::time_point::max());

    SearchResult result;
    result.best = pick.move;
    result.ponder = pick.reply;
    result.pv = {pick.move};
    if (pick.reply) result.pv.push_back(pick.reply);
    result.depth = pick.depth;
    result.seldepth = pick.depth;
    result.raw_score = pick.score;
    result.score = uci_score(pick.score);
    result.nodes = total_nodes;
    result.time_ms = elapsed_ms(start);
    result.nps = total_nodes * 1000 / std::uint64_t(std::max<std::int64_t>(1, result.time_ms));
    if (on_info) on_info(result);
    return result;
}

}  // namespace engine
