// Shared helpers of the emulator tests: JSON parsing, and a scripted bot that follows a game
// stream and answers with random legal moves through plain HTTP.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

#include "engine/position.hpp"
#include "test_client.hpp"

namespace emu_test {

inline nlohmann::json parse_json(const std::string& text) {
    return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
}

// Reads lines until one parses to an object with this "type" (skipping others); null on timeout.
inline nlohmann::json next_of_type(StreamReader& s, const std::string& type,
                                   int timeout_ms = 5000) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (std::chrono::steady_clock::now() < deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        const auto line = s.next_line(int(std::max<long long>(1, left.count())));
        if (!line) {
            if (s.ended()) break;
            continue;
        }
        auto j = parse_json(*line);
        if (j.is_object() && j.value("type", "") == type) return j;
    }
    return nullptr;
}

struct PlayedGame {
    std::string status, winner;
    int plies = 0;
    int bot_moves = 0;
    std::vector<std::string> states;  // every gameState status seen
};

// Follows a game stream (gameFull first) and plays random legal moves for `bot_white` until the
// game ends or max_plies; every move goes through POST /api/bot/game/{id}/move/{uci}.
inline PlayedGame play_random(const HttpClient& http, StreamReader& stream, const std::string& id,
                              std::uint64_t seed, int max_plies = 3000,
                              int line_timeout_ms = 10000) {
    PlayedGame out;
    std::mt19937_64 rng(seed);
    auto full = next_of_type(stream, "gameFull", line_timeout_ms);
    if (full.is_null()) return out;
    const bool bot_white = full["white"]["id"] == "outpostbot";
    const std::string fen = full["initialFen"];
    nlohmann::json state = full["state"];
    for (int guard = 0; guard < max_plies * 2; ++guard) {
        out.states.push_back(state["status"]);
        const std::string moves = state["moves"];
        auto pos = fen == "startpos" ? engine::Position() : *engine::Position::from_fen(fen);
        std::istringstream in(moves);
        int plies = 0;
        for (std::string m; in >> m; ++plies) EXPECT_TRUE(pos.play_uci(m)) << m << " in " << moves;
        out.plies = plies;
        if (state["status"] != "started") {
            out.status = state["status"];
            out.winner = state.value("winner", "");
            return out;
        }
        if (plies >= max_plies) return out;
        if ((pos.side_to_move() == engine::WHITE) == bot_white) {
            const auto legal = pos.legal_moves();
            const auto m = legal[std::uniform_int_distribution<int>(0, legal.size() - 1)(rng)];
            const auto r = http.post("/api/bot/game/" + id + "/move/" + pos.to_uci(m));
            EXPECT_EQ(r.status, 200) << r.body;
            ++out.bot_moves;
        }
        // The next state (skipping chat lines and the like).
        auto next = next_of_type(stream, "gameState", line_timeout_ms);
        if (next.is_null()) return out;
        state = next;
    }
    return out;
}

}  // namespace emu_test
