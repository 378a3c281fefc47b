// The request types: every call to Lichess that a rule owner (the challenge desk, the arena desk,
// the matchmaker, the correspondence desk, the start-up) decides on is a plain struct in
// LichessRequest, and every answer that goes back to its owner a plain struct in LichessAnswer.
// A game's own calls (GameRules's actions that reach Lichess) are a GameRequest, answered by the
// GameInput its rules wait for. The owners stay pure; the RequestRunner carries the requests out.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "lichess_client/events.hpp"
#include "service/challenges/arena_desk.hpp"
#include "service/challenges/challenge_desk.hpp"
#include "service/challenges/matchmaking.hpp"
#include "service/daemon/correspondence.hpp"
#include "service/game/game_rules.hpp"

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

// One of a game's calls: a move (with a draw offer), an answer to a draw or takeback offer, a
// resignation, an abort, a claim of victory, leaving the game (abort, else resign), a chat line.
using GameCall = std::variant<game::PostMove, game::AcceptDraw, game::AnswerTakeback, game::Resign,
                              game::Abort, game::ClaimVictory, game::LeaveGame, game::Say>;
struct GameRequest {
    std::string game_id;
    GameCall call;
    // A move's post is sent again (a network error, a 5xx) only while this holds: the game on,
    // the session not stopping, the server's list without the move, our clock not out.
    std::function<bool()> still_on = [] { return true; };
};

}  // namespace service
