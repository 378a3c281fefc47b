// Our last search in a game, as the game's rules keep it: what the !eval chat command reports.
#pragma once

#include "engine/board.hpp"
#include "engine/search.hpp"

namespace service {

// The board searched (we were to move) and the search's report.
struct LastSearch {
    engine::Board board;
    engine::SearchInfo info;  // score from our side
};

}  // namespace service
