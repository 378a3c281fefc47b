// The search at a level below full strength (engine/strength.hpp): a one-ply pass over every
// root move, the best few of it searched again to the level's depth, and a seeded choice among
// those within the level's margin of the best. Engine::search comes here when a Strength is set.
#pragma once

#include <atomic>

#include "search.hpp"
#include "strength.hpp"

namespace engine {

// Blocks like Engine::search and answers like it (a legal move whenever there is one). With a
// clock it thinks for the level's share of the normal budget (engine/timeman.hpp), jittered by
// the seed, and waits out that time when the capped search finished early; `stop` ends both. A
// ponder search waits for ponderhit (or stop) before it starts; an infinite one waits for stop
// before it answers. One `on_info` report comes at the end, for the move chosen.
[[nodiscard]] SearchResult search_at_level(Engine& engine, const Position& pos, SearchLimits limits,
                                           const std::atomic<bool>& stop, const Strength& strength,
                                           const InfoCallback& on_info);

// A child's score (side to move there) seen from the parent: negated, and a mate or tablebase
// result one ply further away.
[[nodiscard]] int score_from_child(int child_raw);

}  // namespace engine
