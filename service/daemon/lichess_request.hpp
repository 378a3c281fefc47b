// The one request type: every call to Lichess that a rule owner (the challenge desk, the arena
// desk, the matchmaker, the correspondence desk, the start-up) decides on is a plain struct in
// LichessRequest, and every answer that goes back to its owner a plain struct in LichessAnswer.
// The owners stay pure; the RequestRunner carries the requests out.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "lichess_client/events.hpp"
#include "service/challenges/arena_desk.hpp"
#include "service/challenges/challenge_desk.hpp"
#include "service/challenges/matchmaking.hpp"
#include "service/daemon/correspondence.hpp"

namespace service {

// GET /api/account/playing at start-up: each ongoing game goes through the loop as a gameStart.
struct ResumeGames {};
struct GamesToResume {
    std::vector<lichess::GameEventInfo> games;
};

using LichessRequest =
    std::variant<challenge::Accept, challenge::Decline, challenge::ReadRatings,
                 challenge::ListPlaying, challenge::AbortGame, challenge::ResignGame,
                 arena::ReadArena, arena::JoinArena, arena::WithdrawArena, match::ReadAccount,
                 match::ListBots, match::CreateChallenge, match::CancelChallenge,
                 correspondence::CheckIn, ResumeGames>;

using LichessAnswer = std::variant<challenge::AcceptAnswered, challenge::DeclineAnswered,
                                   challenge::RatingsRead, challenge::PlayingListed,
                                   challenge::AbortAnswered, arena::ArenaRead, arena::JoinAnswered,
                                   match::AccountRead, match::BotsListed, match::ChallengeCreated,
                                   match::CancelAnswered, correspondence::CheckedIn, GamesToResume>;

}  // namespace service
