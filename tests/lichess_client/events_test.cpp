// Every spec example that is a stream event, game-stream line or challenge parses into the right
// struct; malformed and unknown lines become values, never exceptions.
#include "lichess_client/events.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "lichess_client/api.hpp"
#include "lichess_client/payloads.hpp"
#include "test_data.hpp"

namespace lichess {
namespace {

using test::read_example;

template <class T>
T event_of(const std::string& file) {
    auto r = parse_event(read_example(file));
    EXPECT_TRUE(r.ok()) << file << ": " << (r.ok() ? "" : r.error().message);
    EXPECT_TRUE(r.ok() && r.value().has_value()) << file;
    EXPECT_TRUE(r.ok() && r.value() && std::holds_alternative<T>(*r.value())) << file;
    return std::get<T>(*r.value());
}

template <class T>
T game_event_of(const std::string& text) {
    auto r = parse_game_event(text);
    EXPECT_TRUE(r.ok()) << text;
    EXPECT_TRUE(r.ok() && r.value() && std::holds_alternative<T>(*r.value())) << text;
    return std::get<T>(*r.value());
}

TEST(EventExamples, Challenge) {
    const auto e = event_of<Challenge>("stream-challenge.json");
    const ChallengeInfo& c = e.challenge;
    EXPECT_EQ(c.id, "jWAgu6ga");
    EXPECT_EQ(c.url, "https://lichess.org/jWAgu6ga");
    EXPECT_EQ(c.status, "created");
    EXPECT_EQ(c.challenger.id, "adriana");
    EXPECT_EQ(c.challenger.name, "Adriana");
    EXPECT_EQ(c.challenger.rating, 734);
    EXPECT_FALSE(c.challenger.title.has_value());
    EXPECT_FALSE(c.challenger.is_bot());
    ASSERT_TRUE(c.dest_user.has_value());
    EXPECT_EQ(c.dest_user->id, "gabriela");
    EXPECT_TRUE(c.dest_user->provisional);
    EXPECT_EQ(c.dest_user->online, true);
    EXPECT_EQ(c.variant.key, "standard");
    EXPECT_FALSE(c.rated);
    EXPECT_EQ(c.speed, "correspondence");
    EXPECT_EQ(c.time_control.type, TimeControl::Type::Unlimited);
    EXPECT_EQ(c.color, "random");
    EXPECT_EQ(c.final_color, Color::Black);
    EXPECT_EQ(c.perf_name, "Correspondence");
    EXPECT_FALSE(c.direction.has_value());
    ASSERT_TRUE(e.compat.has_value());
    EXPECT_FALSE(e.compat->bot);
    EXPECT_TRUE(e.compat->board);
}

TEST(EventExamples, ChallengeCanceled) {
    const auto e = event_of<ChallengeCanceled>("stream-challengeCanceled.json");
    EXPECT_EQ(e.challenge.id, "BO2kXa9v");
    EXPECT_EQ(e.challenge.status, "canceled");
    EXPECT_EQ(e.challenge.challenger.title, "WNM");
    EXPECT_EQ(e.challenge.challenger.rating, 2307);
    EXPECT_EQ(e.challenge.dest_user->name, "Diego");
}

TEST(EventExamples, ChallengeDeclined) {
    const auto e = event_of<ChallengeDeclined>("stream-challengeDeclined.json");
    EXPECT_EQ(e.challenge.id, "jWAgu6ga");
    EXPECT_EQ(e.challenge.status, "declined");
    EXPECT_EQ(e.challenge.decline_reason_key, "generic");
    EXPECT_EQ(e.challenge.decline_reason, "I'm not accepting challenges at the moment.");
    // The event's lowercase key maps back to the request enum.
    EXPECT_EQ(parse_decline_reason(*e.challenge.decline_reason_key), DeclineReason::Generic);
    EXPECT_EQ(parse_decline_reason("toofast"), DeclineReason::TooFast);
    EXPECT_STREQ(to_string(DeclineReason::TooFast), "tooFast");
    EXPECT_STREQ(to_string(DeclineReason::OnlyBot), "onlyBot");
    EXPECT_FALSE(parse_decline_reason("nonsense").has_value());
}

TEST(EventExamples, GameStart) {
    const auto e = event_of<GameStart>("stream-gameStart.json");
    const GameEventInfo& g = e.game;
    EXPECT_EQ(g.game_id, "0FgNPGRz");
    EXPECT_EQ(g.full_id, "0FgNPGRzhDaW");
    EXPECT_EQ(g.color, Color::White);
    EXPECT_EQ(g.fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    EXPECT_EQ(g.last_move, "");
    EXPECT_EQ(g.source, "friend");
    EXPECT_EQ(g.status, GameStatus::Started);
    EXPECT_EQ(g.status_name, "started");
    EXPECT_EQ(g.variant->key, "standard");
    EXPECT_EQ(g.speed, "blitz");
    EXPECT_EQ(g.perf, "blitz");
    EXPECT_EQ(g.rated, true);
    EXPECT_EQ(g.has_moved, false);
    EXPECT_EQ(g.opponent->id, "aaron");
    EXPECT_EQ(g.opponent->username, "Aaron");
    EXPECT_EQ(g.opponent->rating, 776);
    EXPECT_EQ(g.is_my_turn, true);
    EXPECT_EQ(g.seconds_left, 300);  // seconds, not ms
    EXPECT_FALSE(g.winner.has_value());
}

TEST(EventExamples, GameStartAgainstAi) {
    const auto e = event_of<GameStart>("stream-gameStart-ai.json");
    EXPECT_EQ(e.game.game_id, "RwDo6DN6");
    EXPECT_EQ(e.game.color, Color::Black);
    EXPECT_FALSE(e.game.opponent->id.has_value());
    EXPECT_EQ(e.game.opponent->ai_level, 1);
    EXPECT_EQ(e.game.opponent->username, "Stockfish level 1");
    EXPECT_FALSE(e.game.seconds_left.has_value());
}

TEST(EventExamples, GameFinish) {
    const auto e = event_of<GameFinish>("stream-gameFinish.json");
    EXPECT_EQ(e.game.game_id, "0FgNPGRz");
    EXPECT_EQ(e.game.status, GameStatus::Resign);
    EXPECT_TRUE(is_game_over(*e.game.status));
    EXPECT_EQ(e.game.winner, Color::Black);
    EXPECT_EQ(e.game.last_move, "e7e5");
    EXPECT_EQ(e.game.rating_diff, -9);
    EXPECT_EQ(e.game.opponent->rating_diff, 5);
}

TEST(EventExamples, GameFinishAborted) {
    const auto e = event_of<GameFinish>("stream-gameFinish-ai.json");
    EXPECT_EQ(e.game.status, GameStatus::Aborted);
    EXPECT_FALSE(e.game.winner.has_value());
}

TEST(GameStreamExamples, GameFull) {
    const auto g = game_event_of<GameFull>(read_example("schema-GameFullEvent.json"));
    EXPECT_EQ(g.id, "BEOucQJo");
    EXPECT_EQ(g.variant.key, "standard");
    ASSERT_TRUE(g.clock.has_value());
    EXPECT_EQ(g.clock->initial_ms, 900000);  // ms in game streams
    EXPECT_EQ(g.clock->increment_ms, 0);
    EXPECT_EQ(g.speed, "rapid");
    EXPECT_EQ(g.perf_name, "Rapid");
    EXPECT_FALSE(g.rated);
    EXPECT_EQ(g.created_at_ms, 1745112707998);
    EXPECT_EQ(g.white.id, "bobby");
    EXPECT_EQ(g.white.name, "Bobby");
    EXPECT_FALSE(g.white.title.has_value());  // "title": null
    EXPECT_EQ(g.black.rating, 1021);
    EXPECT_TRUE(g.is_startpos());
    EXPECT_EQ(g.state.moves, "d2d3");
    EXPECT_EQ(g.state.wtime_ms, 900000);
    EXPECT_EQ(g.state.status, GameStatus::Started);
    EXPECT_FALSE(g.days_per_turn.has_value());
}

TEST(GameStreamExamples, GameState) {
    const auto s = game_event_of<GameState>(read_example("schema-GameStateEvent.json"));
    EXPECT_EQ(s.moves, "e2e4 c7c5 f2f4 d7d6 g1f3 b8c6 f1c4 g8f6 d2d3 g7g6 e1g1 f8g7 b1c3");
    EXPECT_EQ(s.wtime_ms, 7598040);
    EXPECT_EQ(s.btime_ms, 8395220);
    EXPECT_EQ(s.winc_ms, 10000);
    EXPECT_EQ(s.binc_ms, 10000);
    EXPECT_FALSE(s.wdraw);
    EXPECT_FALSE(s.btakeback);
    EXPECT_EQ(s.status, GameStatus::Started);
    EXPECT_FALSE(s.winner.has_value());
}

TEST(GameStreamExamples, ChatLineAndOpponentGone) {
    const auto c = game_event_of<ChatLine>(read_example("schema-ChatLineEvent.json"));
    EXPECT_EQ(c.username, "thibault");
    EXPECT_EQ(c.text, "Good luck, have fun");
    EXPECT_EQ(c.room, "player");
    const auto g = game_event_of<OpponentGone>(read_example("schema-OpponentGoneEvent.json"));
    EXPECT_TRUE(g.gone);
    EXPECT_EQ(g.claim_win_in_seconds, 8);
    const auto back = game_event_of<OpponentGone>(R"({"type":"opponentGone","gone":false})");
    EXPECT_FALSE(back.gone);
    EXPECT_FALSE(back.claim_win_in_seconds.has_value());
}

TEST(ChallengeExamples, ChallengeJsonWithClockInSeconds) {
    auto r = parse_challenge(read_example("schema-ChallengeJson.json"));
    ASSERT_TRUE(r.ok()) << r.error().message;
    const ChallengeInfo& c = r.value();
    EXPECT_EQ(c.id, "H9fIRZUk");
    EXPECT_TRUE(c.challenger.is_bot());
    EXPECT_EQ(c.challenger.rating, 1500);
    EXPECT_EQ(c.dest_user->title, "GM");
    EXPECT_EQ(c.time_control.type, TimeControl::Type::Clock);
    EXPECT_EQ(c.time_control.limit_s, 600);  // seconds in challenges
    EXPECT_EQ(c.time_control.increment_s, 0);
    EXPECT_EQ(c.time_control.show, "10+0");
    EXPECT_TRUE(c.rated);
    EXPECT_EQ(c.direction, "out");
    EXPECT_EQ(c.perf_name, "Rapid");
}

TEST(ChallengeExamples, CreateShowAndList) {
    auto created = parse_challenge(read_example("challenges-createChallenge.json"));
    ASSERT_TRUE(created.ok());
    EXPECT_EQ(created->id, "uGK4MHaQ");
    EXPECT_EQ(created->direction, "out");
    EXPECT_EQ(created->final_color, Color::White);
    auto shown = parse_challenge(read_example("challenges-showOneChallenge.json"));
    ASSERT_TRUE(shown.ok());
    EXPECT_EQ(shown->direction, "in");
    const auto list = nlohmann::json::parse(read_example("challenges-listYourChallenges.json"));
    ASSERT_EQ(list.at("in").size(), 1u);
    auto in = challenge_from_json(list.at("in").at(0));
    ASSERT_TRUE(in.ok());
    EXPECT_EQ(in->challenger.id, "bobby");
    EXPECT_TRUE(list.at("out").empty());
}

TEST(PayloadExamples, AccountBotsTokenAndAi) {
    auto account = parse_account(read_example("account-getMyProfile.json"));
    ASSERT_TRUE(account.ok()) << account.error().message;
    EXPECT_EQ(account->id, "bobby");
    EXPECT_EQ(account->username, "Bobby");
    EXPECT_FALSE(account->is_bot());
    EXPECT_EQ(account->perfs.at("blitz").rating, 1629);
    EXPECT_TRUE(account->perfs.at("rapid").provisional);

    auto bot = parse_user(read_example("bot-getOnlineBots.json"));
    ASSERT_TRUE(bot.ok());
    EXPECT_EQ(bot->id, "bernstein-2ply");
    EXPECT_EQ(bot->title, "BOT");
    EXPECT_EQ(bot->perfs.at("bullet").rating, 1355);

    const std::string tokens = read_example("oauth-testMultipleOauthTokens.json");
    auto good = parse_token_test(tokens, "lip_jose");
    ASSERT_TRUE(good.ok());
    ASSERT_TRUE(good.value().has_value());
    EXPECT_EQ(good.value()->user_id, "jose");
    EXPECT_TRUE(good.value()->has_scope("bot:play"));
    EXPECT_TRUE(good.value()->has_scope("challenge:read"));
    EXPECT_FALSE(good.value()->has_scope("bot"));
    EXPECT_FALSE(good.value()->expires_ms.has_value());
    auto bad = parse_token_test(tokens, "lip_badToken");
    ASSERT_TRUE(bad.ok());
    EXPECT_FALSE(bad.value().has_value());

    auto ai = parse_ai_game(read_example("challenges-challengeAi.json"));
    ASSERT_TRUE(ai.ok());
    EXPECT_EQ(ai->id, "v8BRXYtM");
    EXPECT_EQ(ai->player, Color::White);
}

TEST(Parsing, UnknownTypeIsNulloptNotError) {
    auto r = parse_event(R"({"type":"somethingNew","x":1})");
    ASSERT_TRUE(r.ok());
    EXPECT_FALSE(r.value().has_value());
    auto g = parse_game_event(R"({"type":"gameFull2"})");
    ASSERT_TRUE(g.ok());
    EXPECT_FALSE(g.value().has_value());
    auto no_type = parse_event(R"({"hello":"world"})");
    ASSERT_TRUE(no_type.ok());
    EXPECT_FALSE(no_type.value().has_value());
}

TEST(Parsing, MalformedLinesAreErrorValues) {
    for (const char* line :
         {"{not json", "[1,2,3]", "\"str\"", "42", "",
          R"({"type":"gameStart"})",                         // no game
          R"({"type":"gameState","moves":"e2e4"})",          // no clocks
          R"({"type":"challenge","challenge":{"id":"x"}})",  // no challenger
          R"({"type":"gameState","moves":1,"wtime":1,"btime":1,"status":"started"})",
          R"({"type":"chatLine","room":"player"})"}) {
        auto e = parse_event(line);
        auto g = parse_game_event(line);
        const bool event_err = !e.ok();
        const bool game_err = !g.ok();
        const bool event_unknown = e.ok() && !e.value().has_value();
        const bool game_unknown = g.ok() && !g.value().has_value();
        EXPECT_TRUE(event_err || event_unknown) << line;
        EXPECT_TRUE(game_err || game_unknown) << line;
        EXPECT_TRUE(event_err || game_err) << "some parser must reject: " << line;
    }
}

TEST(Parsing, UnknownFieldsAndOptionalFields) {
    const auto s = game_event_of<GameState>(
        R"({"type":"gameState","moves":"e2e4 e7e5 e1h1","wtime":2147483647,"btime":2147483647,)"
        R"("winc":0,"binc":0,"status":"variantEnd","winner":"white","bdraw":true,)"
        R"("btakeback":true,"expiration":{"idleMillis":1200,"millisToMove":30000},)"
        R"("rematch":"abcdefgh","newField":{"deep":[1,2]}})");
    EXPECT_EQ(s.moves, "e2e4 e7e5 e1h1");  // moves are strings; king-to-rook kept as sent
    EXPECT_EQ(s.wtime_ms, 2147483647);     // unlimited
    EXPECT_EQ(s.status, GameStatus::VariantEnd);
    EXPECT_EQ(s.winner, Color::White);
    EXPECT_TRUE(s.bdraw);
    EXPECT_FALSE(s.wdraw);
    EXPECT_TRUE(s.btakeback);
    ASSERT_TRUE(s.expiration.has_value());
    EXPECT_EQ(s.expiration->millis_to_move, 30000);
    EXPECT_EQ(s.rematch, "abcdefgh");
}

TEST(Parsing, GameFullWithFenCorrespondenceAndAi) {
    const auto g = game_event_of<GameFull>(
        R"({"type":"gameFull","id":"abcd1234","variant":{"key":"chess960","name":"Chess960"},)"
        R"("speed":"correspondence","perf":{"name":"Chess960"},"rated":true,"createdAt":1,)"
        R"("white":{"aiLevel":3},"black":{"id":"me","name":"Me","title":"BOT","rating":2000},)"
        R"("initialFen":"bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1",)"
        R"("daysPerTurn":3,"state":{"type":"gameState","moves":"","wtime":259200000,)"
        R"("btime":259200000,"winc":0,"binc":0,"status":"started"}})");
    EXPECT_FALSE(g.is_startpos());
    EXPECT_EQ(g.initial_fen, "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1");
    EXPECT_FALSE(g.clock.has_value());
    EXPECT_EQ(g.days_per_turn, 3);
    EXPECT_EQ(g.white.ai_level, 3);
    EXPECT_FALSE(g.white.id.has_value());
    EXPECT_TRUE(g.black.is_bot());
}

TEST(Parsing, CorrespondenceChallengeAndStatusNames) {
    auto r = parse_challenge(
        R"({"id":"c1","url":"u","status":"created","challenger":{"id":"a","name":"A"},)"
        R"("destUser":null,"variant":{"key":"fromPosition","name":"From Position"},"rated":false,)"
        R"("speed":"correspondence","timeControl":{"type":"correspondence","daysPerTurn":2},)"
        R"("color":"white","perf":{"icon":"","name":"Correspondence"},"initialFen":"8/8/8/8/8/8/8/K6k w - - 0 1",)"
        R"("rules":["noAbort","noRematch"],"rematchOf":"zzzzzzzz"})");
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_FALSE(r->dest_user.has_value());  // open challenge
    EXPECT_EQ(r->time_control.type, TimeControl::Type::Correspondence);
    EXPECT_EQ(r->time_control.days_per_turn, 2);
    EXPECT_EQ(r->initial_fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
    EXPECT_EQ(r->rules.size(), 2u);
    EXPECT_EQ(r->rematch_of, "zzzzzzzz");

    EXPECT_EQ(parse_game_status("outoftime"), GameStatus::OutOfTime);
    EXPECT_EQ(parse_game_status("noStart"), GameStatus::NoStart);
    EXPECT_EQ(parse_game_status("insufficientMaterialClaim"),
              GameStatus::InsufficientMaterialClaim);
    EXPECT_EQ(parse_game_status("brandNew"), GameStatus::Unknown);
    EXPECT_TRUE(is_game_over(GameStatus::Unknown));
    EXPECT_FALSE(is_game_over(GameStatus::Created));
    EXPECT_STREQ(to_string(GameStatus::Mate), "mate");
}

}  // namespace
}  // namespace lichess
