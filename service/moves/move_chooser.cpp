// choose_move(): the book, the local tables, the online sources and the search, in kMoveSteps'
// order.
#include "service/moves/move_chooser.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <string>

namespace service {

namespace {

std::int64_t ms_between(std::chrono::steady_clock::time_point from,
                        std::chrono::steady_clock::time_point to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

}  // namespace

void take_lookup_time(engine::SearchLimits& limits, engine::Color us, std::int64_t spent_ms) {
    if (limits.movetime > 0)
        limits.movetime = std::max<std::int64_t>(10, limits.movetime - spent_ms);
    std::int64_t& ours = us == engine::WHITE ? limits.wtime : limits.btime;
    if (ours > 0) ours = std::max<std::int64_t>(1, ours - spent_ms);
}

GameInput choose_move(game::Think think, MoveSources& sources) {
    if (sources.final_state_seen()) return game::NoMoveChosen{};
    const auto started = sources.now();
    const auto elapsed = [&] { return ms_between(started, sources.now()); };
    std::optional<OnlineChoice> online;
    bool local_tables = false;
    for (const MoveStep step : kMoveSteps) {
        switch (step) {
            case MoveStep::Book: {
                const auto book = sources.book_move(think);
                if (!book) break;
                (void)sources.finish_ponder(false);
                return game::MoveChosen{
                    .source = MoveSource::Book,
                    .uci = book->uci,
                    .think_ms = elapsed(),
                    .note = fmt::format("weight {} from {}", book->weight, book->file)};
            }
            case MoveStep::LocalTables:
                local_tables = sources.local_tables_cover(think.position);
                break;
            case MoveStep::Online: {
                if (local_tables || !sources.online_enabled() || think.ponder_hit || think.hurry)
                    break;
                const auto asked = sources.now();
                const OnlineAsk ask{
                    .our_ms = think.clock.our_ms,
                    .real_time = think.clock.real_time,
                    .fullmove = think.fullmove,
                    .variant = think.variant,
                    .deadline = online_deadline(think.clock.our_ms, think.clock.real_time)};
                online = sources.online_move(think.position, ask);
                take_lookup_time(think.plan.limits, think.clock.us,
                                 ms_between(asked, sources.now()));
                if (!online || !online->search_among.empty()) break;
                (void)sources.finish_ponder(false);
                return game::MoveChosen{.source = online->source,
                                        .uci = online->uci,
                                        .think_ms = elapsed(),
                                        .score = online->score,
                                        .note = online->note};
            }
            case MoveStep::Search: {
                std::optional<engine::SearchResult> pondered =
                    sources.finish_ponder(think.ponder_hit);
                engine::SearchResult result;
                if (pondered && pondered->best &&
                    think.position.legal_moves().contains(pondered->best)) {
                    result = *pondered;
                } else {
                    pondered.reset();
                    result = sources.search(think.position, think.plan.limits);
                }
                if (sources.final_state_seen() || !result.best) return game::NoMoveChosen{};
                // online_egtb.move_quality suggest: the search chose; a move that spoils the
                // table's result is replaced by the table's best.
                if (online) {
                    const auto& among = online->search_among;
                    if (std::find(among.begin(), among.end(), think.position.to_uci(result.best)) ==
                        among.end())
                        return game::MoveChosen{.source = online->source,
                                                .uci = among.front(),
                                                .think_ms = elapsed(),
                                                .score = online->score,
                                                .note = online->note + ", not the search's move"};
                }
                // The Syzygy tables chose the moves the search ranked.
                const bool syzygy = result.root_tables == engine::RootTables::Syzygy;
                std::string uci = syzygy ? think.position.to_uci(result.best) : "";
                return game::MoveChosen{.source = syzygy ? MoveSource::Syzygy : MoveSource::Search,
                                        .uci = std::move(uci),
                                        .think_ms = elapsed(),
                                        .search = std::move(result),
                                        .ponder_hit = pondered.has_value()};
            }
        }
    }
    return game::NoMoveChosen{};  // not reached: the search always answers
}

}  // namespace service
