// RequestRunner: each LichessRequest as its call to Lichess, and the answer back to its owner.
#include "service/daemon/request_runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <type_traits>
#include <utility>

#include "common/text.hpp"
#include "service/ops/logging.hpp"

namespace service {

namespace {

std::optional<lichess::ApiError> error_of(const lichess::Result<lichess::Ok>& r) {
    return r ? std::nullopt : std::optional(r.error());
}

}  // namespace

RequestRunner::RequestRunner(lichess::Api& api, GameApi& games, ChatSender& chat, Metrics& metrics,
                             Deliver deliver, std::size_t threads)
    : api_(api),
      games_(games),
      chat_(chat),
      metrics_(metrics),
      deliver_(std::move(deliver)),
      workers_(threads) {}

void RequestRunner::run(LichessRequest request) {
    // Urgent: a game waits on an accept, whatever declines the server is holding.
    const auto priority = std::holds_alternative<challenge::Accept>(request)
                              ? WorkerPool::Priority::Urgent
                              : WorkerPool::Priority::Normal;
    workers_.post([this, request = std::move(request)](
                      std::stop_token stop) mutable { carry_out(request, stop); },
                  priority);
}

bool RequestRunner::wait_idle_until(std::chrono::steady_clock::time_point deadline) {
    return workers_.wait_idle_until(deadline);
}

void RequestRunner::carry_out(LichessRequest& request, std::stop_token stop) {
    std::visit(
        [&](auto& r) {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, challenge::Accept>) {
                auto answer = api_.accept_challenge(r.challenge.id);
                if (answer) metrics_.challenges_accepted++;
                deliver_(challenge::AcceptAnswered{std::move(r), error_of(answer)});
            } else if constexpr (std::is_same_v<T, challenge::Decline>) {
                auto answer = api_.decline_challenge(r.challenge_id, r.reason);
                // Counted once it is final: a decline a 429 holds is sent (and counted) later.
                const bool held = !answer &&
                                  answer.error().kind == lichess::ApiError::Kind::RateLimited &&
                                  !lichess::bot_game_limit(answer.error());
                if (r.counted && !held)
                    metrics_.challenges_declined.increment(lichess::to_string(r.reason));
                deliver_(challenge::DeclineAnswered{std::move(r), error_of(answer)});
            } else if constexpr (std::is_same_v<T, challenge::ReadRatings>) {
                auto account = api_.account();
                deliver_(challenge::RatingsRead{
                    account ? std::optional(std::move(*account)) : std::nullopt,
                    account ? "" : account.error().describe()});
            } else if constexpr (std::is_same_v<T, challenge::ListPlaying>) {
                auto playing = api_.playing();
                deliver_(challenge::PlayingListed{
                    playing ? std::optional(std::move(playing->now_playing)) : std::nullopt,
                    playing ? "" : playing.error().describe()});
            } else if constexpr (std::is_same_v<T, challenge::AbortGame>) {
                auto answer = api_.abort(r.game_id);
                if (answer) metrics_.games_aborted_over_limit++;
                deliver_(challenge::AbortAnswered{r.game_id, error_of(answer)});
            } else if constexpr (std::is_same_v<T, challenge::ResignGame>) {
                auto answer = api_.resign(r.game_id);
                write_log({r.log.level,
                           r.log.text + (answer ? ""
                                                : " - resigning failed, left to lila's clock: " +
                                                      answer.error().describe())});
            } else if constexpr (std::is_same_v<T, arena::ReadArena>) {
                auto arena = api_.tournament(r.id);
                deliver_(arena::ArenaRead{r.id,
                                          arena ? std::optional(std::move(*arena)) : std::nullopt,
                                          arena ? std::nullopt : std::optional(arena.error())});
            } else if constexpr (std::is_same_v<T, arena::JoinArena>) {
                auto joined = api_.join_tournament(r.id, r.join);
                deliver_(arena::JoinAnswered{r.id, error_of(joined)});
            } else if constexpr (std::is_same_v<T, arena::WithdrawArena>) {
                // Still in the arena, lila pairs us while we are gone and each such game is
                // lost: a 429 from lila is waited out (a few seconds at most, within the
                // shutdown's grace) and the withdrawal sent again.
                auto left = api_.withdraw_tournament(r.id);
                for (int again = 0; again < 2 && !left &&
                                    left.error().kind == lichess::ApiError::Kind::RateLimited;
                     ++again) {
                    const auto wait = std::min<std::chrono::milliseconds>(
                        left.error().retry_after.value_or(std::chrono::seconds(1)),
                        std::chrono::seconds(2));
                    if (!api_.sleep_for(wait, stop)) break;
                    left = api_.withdraw_tournament(r.id);
                }
                if (!left)
                    spdlog::warn("arena {}: withdrawing failed: {}", r.id, left.error().describe());
            } else if constexpr (std::is_same_v<T, match::ReadAccount>) {
                auto account = api_.account();
                deliver_(
                    match::AccountRead{account ? std::optional(std::move(*account)) : std::nullopt,
                                       account ? "" : account.error().describe()});
            } else if constexpr (std::is_same_v<T, match::ListBots>) {
                auto bots = api_.bots_online(r.nb);
                deliver_(match::BotsListed{bots ? std::optional(std::move(*bots)) : std::nullopt,
                                           bots ? "" : bots.error().describe()});
            } else if constexpr (std::is_same_v<T, match::CreateChallenge>) {
                auto created = api_.create_challenge(r.username, r.request);
                deliver_(match::ChallengeCreated{
                    std::move(r), created ? std::optional(std::move(*created)) : std::nullopt,
                    created ? std::nullopt : std::optional(created.error())});
            } else if constexpr (std::is_same_v<T, match::CancelChallenge>) {
                auto cancelled = api_.cancel_challenge(r.id);
                deliver_(match::CancelAnswered{std::move(r), error_of(cancelled)});
            } else if constexpr (std::is_same_v<T, correspondence::CheckIn>) {
                auto playing = api_.playing();
                deliver_(correspondence::CheckedIn{
                    playing ? std::optional(std::move(playing->now_playing)) : std::nullopt,
                    playing ? "" : playing.error().describe()});
            } else if constexpr (std::is_same_v<T, ResumeGames>) {
                auto playing = api_.playing();
                if (!playing) {
                    spdlog::warn("could not list ongoing games: {}", playing.error().describe());
                    return;
                }
                deliver_(GamesToResume{std::move(playing->now_playing)});
            }
        },
        request);
}

std::optional<GameInput> RequestRunner::run_for_game(const GameRequest& request) {
    const std::string& id = request.game_id;
    const auto warn_if_failed = [&](const char* what, const lichess::Result<lichess::Ok>& r) {
        if (!r)
            spdlog::warn("game {}: {} failed: {}", common::printable(id), what,
                         r.error().describe());
    };
    return std::visit(
        [&](const auto& r) -> std::optional<GameInput> {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, game::PostMove>) {
                auto posted = games_.post_move(id, r.uci, r.offer_draw, request.still_on);
                if (posted) metrics_.moves_played++;
                return game::MovePosted{Outcome::from(posted)};
            } else if constexpr (std::is_same_v<T, game::Resign>) {
                return game::ResignAnswered{Outcome::from(games_.resign(id))};
            } else if constexpr (std::is_same_v<T, game::AnswerTakeback>) {
                return game::TakebackAnswered{r.accept,
                                              Outcome::from(games_.answer_takeback(id, r.accept))};
            } else if constexpr (std::is_same_v<T, game::ClaimVictory>) {
                return game::ClaimAnswered{Outcome::from(games_.claim_victory(id))};
            } else if constexpr (std::is_same_v<T, game::AcceptDraw>) {
                warn_if_failed("accepting the draw", games_.accept_draw(id));
            } else if constexpr (std::is_same_v<T, game::Abort>) {
                warn_if_failed("aborting", games_.abort(id));
            } else if constexpr (std::is_same_v<T, game::LeaveGame>) {
                // Abort while lila allows it; when it does not (or the abort failed), resign.
                auto left = r.abort ? games_.abort(id) : games_.resign(id);
                if (!left) left = games_.resign(id);
                if (!left)
                    spdlog::warn("game {}: could not abort or resign: {}", common::printable(id),
                                 left.error().describe());
            } else if constexpr (std::is_same_v<T, game::Say>) {
                chat_.send(id, r.room, r.text);
            }
            return std::nullopt;
        },
        request.call);
}

}  // namespace service
