// Our last search in a game, as the game's rules keep it: what the !eval chat command reports.
#pragma once

#include "engine/position.hpp"
#include "engine/search.hpp"

namespace service {

// The position searched (we were to move; any variant) and the search's report.
struct LastSearch {
    engine::Position position;
    engine::SearchInfo info;  // score from our side
};

}  // namespace service
