// Every spec example that is a stream event, game-stream line or challenge parses into the right
// struct; malformed and unknown lines become values, never exceptions.
#include "lichess_client/events.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "lichess_client/api.hpp"
#include "lichess_client/payloads.hpp"
#include "test_data.hpp"

namespace lichess {
namespace {

template <class T>
T event_of(const std::string& file) {
    auto r = parse_event(test::read_example(file));
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
    const auto g = game_event_of<GameFull>(test::read_example("schema-GameFullEvent.json"));
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
    const auto s = game_event_of<GameState>(test::read_example("schema-GameStateEvent.json"));
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
    const auto c = game_event_of<ChatLine>(test::read_example("schema-ChatLineEvent.json"));
    EXPECT_EQ(c.username, "thibault");
    EXPECT_EQ(c.text, "Good luck, have fun");
    EXPECT_EQ(c.room, "player");
    const auto g = game_event_of<OpponentGone>(test::read_example("schema-OpponentGoneEvent.json"));
    EXPECT_TRUE(g.gone);
    EXPECT_EQ(g.claim_win_in_seconds, 8);
    const auto back = game_event_of<OpponentGone>(R"({"type":"opponentGone","gone":false})");
    EXPECT_FALSE(back.gone);
    EXPECT_FALSE(back.claim_win_in_seconds.has_value());
}

TEST(ChallengeExamples, ChallengeJsonWithClockInSeconds) {
    auto r = parse_challenge(test::read_example("schema-ChallengeJson.json"));
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
    auto created = parse_challenge(test::read_example("challenges-createChallenge.json"));
    ASSERT_TRUE(created.ok());
    EXPECT_EQ(created->id, "uGK4MHaQ");
    EXPECT_EQ(created->direction, "out");
    EXPECT_EQ(created->final_color, Color::White);
    auto shown = parse_challenge(test::read_example("challenges-showOneChallenge.json"));
    ASSERT_TRUE(shown.ok());
    EXPECT_EQ(shown->direction, "in");
    const auto list =
        nlohmann::json::parse(test::read_example("challenges-listYourChallenges.json"));
    ASSERT_EQ(list.at("in").size(), 1u);
    auto in = challenge_from_json(list.at("in").at(0));
    ASSERT_TRUE(in.ok());
    EXPECT_EQ(in->challenger.id, "bobby");
    EXPECT_TRUE(list.at("out").empty());
}

TEST(PayloadExamples, AccountBotsTokenAndAi) {
    auto account = parse_account(test::read_example("account-getMyProfile.json"));
    ASSERT_TRUE(account.ok()) << account.error().message;
    EXPECT_EQ(account->id, "bobby");
    EXPECT_EQ(account->username, "Bobby");
    EXPECT_FALSE(account->is_bot());
    EXPECT_EQ(account->perfs.at("blitz").rating, 1629);
    EXPECT_TRUE(account->perfs.at("rapid").provisional);

    auto bot = parse_user(test::read_example("bot-getOnlineBots.json"));
    ASSERT_TRUE(bot.ok());
    EXPECT_EQ(bot->id, "bernstein-2ply");
    EXPECT_EQ(bot->title, "BOT");
    EXPECT_EQ(bot->perfs.at("bullet").rating, 1355);

    const std::string tokens = test::read_example("oauth-testMultipleOauthTokens.json");
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

    auto ai = parse_ai_game(test::read_example("challenges-challengeAi.json"));
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
    for (const char* line : {"{not json", "[1,2,3]", "\"str\"", "42", "",
                             R"({"type":"gameStart"})",  // no game
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

// gameFull and gameState lines whose fields cannot be read: never skipped, never defaulted, but
// a GameUnreadable naming the field (the session then ends the game rather than wait).
TEST(Parsing, UnreadableGameLinesNameTheGameAndTheField) {
    const std::string state_tail = R"("btime":1000,"status":"started"})";
    const std::string full_head =
        R"({"type":"gameFull","id":"abcdefgh","variant":{"key":"standard"},)"
        R"("white":{"id":"a","name":"a"},"black":{"id":"b","name":"b"},)";
    const std::string good_state =
        R"("state":{"type":"gameState","moves":"","wtime":1000,"btime":1000,"status":"started"})";
    struct Row {
        std::string line;
        std::string type;
        std::string game_id;
        std::string field;
        std::string problem;
    };
    const std::vector<Row> rows = {
        {R"({"type":"gameState","moves":"e2e4"})", "gameState", "", "wtime", "missing"},
        {R"({"type":"gameState","moves":1,"wtime":1,)" + state_tail, "gameState", "", "moves",
         "expected text, got a number"},
        {R"({"type":"gameState","moves":"","wtime":"1000",)" + state_tail, "gameState", "", "wtime",
         "expected a number, got text"},
        {R"({"type":"gameState","moves":"","wtime":1000,"winc":[2000],)" + state_tail, "gameState",
         "", "winc", "expected a number, got a list"},
        {R"({"type":"gameState","moves":"","wtime":1000,"wdraw":"yes",)" + state_tail, "gameState",
         "", "wdraw", "expected true or false, got text"},
        {R"({"type":"gameState","moves":"","wtime":1,"btime":1,"status":{"name":"mate"}})",
         "gameState", "", "status", "expected text, got an object"},
        {R"({"type":"gameState","moves":"","wtime":1,"btime":1,"status":"resign",)"
         "\"winner\":\"black\\u001b\"}",  // JSON's escape of ESC, not a raw byte
         "gameState", "", "winner", "expected white or black, got \"black\\x1b\""},
        {R"({"type":"gameState","moves":"","wtime":1,"btime":1,"status":"draw","winner":"draw"})",
         "gameState", "", "winner", "expected white or black, got \"draw\""},
        {full_head + R"("clock":{"initial":"60000","increment":0},)" + good_state + "}", "gameFull",
         "abcdefgh", "clock.initial", "expected a number, got text"},
        {full_head + R"("clock":{"initial":60000},)" + good_state + "}", "gameFull", "abcdefgh",
         "clock.increment", "missing"},
        {full_head + R"("state":{"type":"gameState","moves":"","wtime":true,"btime":1,)"
                     R"("status":"started"}})",
         "gameFull", "abcdefgh", "state.wtime", "expected a number, got true or false"},
        {full_head + R"("initialFen":7,)" + good_state + "}", "gameFull", "abcdefgh", "initialFen",
         "expected text, got a number"},
        {full_head + R"("daysPerTurn":"3",)" + good_state + "}", "gameFull", "abcdefgh",
         "daysPerTurn", "expected a number, got text"},
        {R"({"type":"gameFull","id":"abcdefgh","variant":{"key":"standard"},)"
         R"("white":"a","black":{"id":"b"},)" +
             good_state + "}",
         "gameFull", "abcdefgh", "white", "expected an object, got text"},
        {R"({"type":"gameFull","variant":{"key":"standard"}})", "gameFull", "", "id", "missing"},
    };
    for (const Row& row : rows) {
        auto r = parse_game_event(row.line);
        ASSERT_TRUE(r.ok()) << row.line << ": " << r.error().message;
        ASSERT_TRUE(r.value().has_value()) << row.line;
        const auto* u = std::get_if<GameUnreadable>(&*r.value());
        ASSERT_NE(u, nullptr) << row.line;
        EXPECT_EQ(u->type, row.type) << row.line;
        EXPECT_EQ(u->game_id, row.game_id) << row.line;
        EXPECT_EQ(u->field, row.field) << row.line;
        EXPECT_EQ(u->problem, row.problem) << row.line;
        EXPECT_STREQ(type_name(*r.value()), "game line (unreadable)");
    }
    // Null and absent optional fields are not errors; a valid winner is read.
    const auto s = game_event_of<GameState>(
        R"({"type":"gameState","moves":"","wtime":1,"btime":1,"winc":null,"wdraw":null,)"
        R"("status":"mate","winner":"black"})");
    EXPECT_EQ(s.winc_ms, 0);
    EXPECT_EQ(s.winner, Color::Black);
    // Informative fields of the wrong type cost nothing: a rating as text is ignored.
    auto lenient = parse_game_event(full_head.substr(0, full_head.find("\"white\"")) +
                                    R"("white":{"id":"a","rating":"1500?"},"black":{"id":"b"},)"
                                    R"("perf":"blitz","createdAt":"today",)" +
                                    good_state + "}");
    ASSERT_TRUE(lenient.ok() && lenient.value());
    ASSERT_TRUE(std::holds_alternative<GameFull>(*lenient.value()));
    EXPECT_FALSE(std::get<GameFull>(*lenient.value()).white.rating.has_value());
}

TEST(Parsing, AChallengeThatCannotBeReadStillNamesItsIdSoItCanBeDeclined) {
    // No variant, no time control: the challenge cannot be judged, but it must be answered.
    auto e = parse_event(R"({"type":"challenge","challenge":{"id":"x1234567","challenger":null}})");
    ASSERT_TRUE(e.ok()) << e.error().message;
    ASSERT_TRUE(e.value().has_value());
    const auto* u = std::get_if<ChallengeUnreadable>(&*e.value());
    ASSERT_NE(u, nullptr);
    EXPECT_EQ(u->id, "x1234567");
    EXPECT_FALSE(u->problem.empty());
    EXPECT_STREQ(type_name(*e.value()), "challenge (unreadable)");
    // Without an id there is nothing to answer: an error value.
    EXPECT_FALSE(parse_event(R"({"type":"challenge","challenge":{"rated":true}})").ok());
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

// ---- lines shaped as lila's JSON writers write them, with the nulls and gaps they really have
// (modules/challenge/src/main/JsonView.scala, modules/game/src/main/JsonView.scala ownerPreview,
// modules/bot/src/main/BotJsonView.scala; see docs/LICHESS.md).
namespace lila_shapes {

template <class T>
T parsed(const std::string& line) {
    auto r = parse_event(line);
    EXPECT_TRUE(r.ok()) << line << ": " << (r.ok() ? "" : r.error().message);
    EXPECT_TRUE(r.ok() && r.value() && std::holds_alternative<T>(*r.value())) << line;
    return std::get<T>(*r.value());
}

TEST(LilaShapes, AnonymousChallengerIsNullAndStillAChallenge) {
    const auto c = parsed<Challenge>(
        R"({"type":"challenge","challenge":{"id":"Ab12Cd34","url":"https://lichess.org/Ab12Cd34",)"
        R"("status":"created","challenger":null,"destUser":{"id":"outpostbot","name":"OutpostBot",)"
        R"("rating":1500,"title":"BOT"},"variant":{"key":"standard","name":"Standard","short":"Std"},)"
        R"("rated":false,"speed":"blitz","timeControl":{"type":"clock","limit":180,"increment":2,)"
        R"("show":"3+2"},"color":"random","finalColor":"white","perf":{"icon":"","name":"Blitz"}},)"
        R"("compat":{"bot":true,"board":true}})");
    EXPECT_EQ(c.challenge.challenger.id, "");
    EXPECT_EQ(c.challenge.challenger.name, "Anonymous");
    EXPECT_FALSE(c.challenge.challenger.is_bot());
    ASSERT_TRUE(c.challenge.dest_user.has_value());
    EXPECT_TRUE(c.challenge.dest_user->is_bot());
}

TEST(LilaShapes, OpenChallengeWithNullDestTitleNullNoPerfAndARematch) {
    const auto c = parsed<Challenge>(
        R"({"type":"challenge","challenge":{"id":"Ef56Gh78","url":"https://lichess.org/Ef56Gh78",)"
        R"("status":"created","challenger":{"id":"someone","name":"Someone","rating":1712,)"
        R"("title":null,"online":true},"destUser":null,"variant":{"key":"chess960",)"
        R"("name":"Chess960","short":"960"},"rated":true,"speed":"rapid","timeControl":)"
        R"({"type":"clock","limit":600,"increment":0,"show":"10+0"},"color":"white",)"
        R"("finalColor":"white","rematchOf":"Zz99Yy88","initialFen":)"
        R"("bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1"}})");
    EXPECT_EQ(c.challenge.challenger.id, "someone");
    EXPECT_FALSE(c.challenge.challenger.title.has_value());
    EXPECT_FALSE(c.challenge.dest_user.has_value());
    EXPECT_EQ(c.challenge.perf_name, "");
    EXPECT_EQ(c.challenge.rematch_of, std::optional<std::string>("Zz99Yy88"));
    EXPECT_EQ(c.challenge.variant.key, "chess960");
}

TEST(LilaShapes, CorrespondenceAndUnlimitedTimeControls) {
    const std::string head =
        R"({"type":"challenge","challenge":{"id":"Cc11Dd22","status":"created",)"
        R"("challenger":{"id":"a","name":"A","rating":1500},"destUser":null,)"
        R"("variant":{"key":"standard","name":"Standard"},"rated":false,"speed":"correspondence",)";
    const auto corr = parsed<Challenge>(
        head + R"("timeControl":{"type":"correspondence","daysPerTurn":3},"color":"random"}})");
    EXPECT_EQ(corr.challenge.time_control.type, TimeControl::Type::Correspondence);
    EXPECT_EQ(corr.challenge.time_control.days_per_turn, std::optional<int>(3));
    const auto unl =
        parsed<Challenge>(head + R"("timeControl":{"type":"unlimited"},"color":"random"}})");
    EXPECT_EQ(unl.challenge.time_control.type, TimeControl::Type::Unlimited);
}

TEST(LilaShapes, DeclinedAndCanceledWithAnonymousChallenger) {
    const std::string body =
        R"({"id":"Ab12Cd34","status":"declined","challenger":null,"destUser":null,)"
        R"("variant":{"key":"standard","name":"Standard"},"rated":false,"speed":"blitz",)"
        R"("timeControl":{"type":"clock","limit":180,"increment":0,"show":"3+0"},)"
        R"("color":"random","declineReason":"I'm not accepting challenges at the moment.",)"
        R"("declineReasonKey":"generic"})";
    const auto d =
        parsed<ChallengeDeclined>(R"({"type":"challengeDeclined","challenge":)" + body + "}");
    EXPECT_EQ(d.challenge.decline_reason_key, std::optional<std::string>("generic"));
    const auto c =
        parsed<ChallengeCanceled>(R"({"type":"challengeCanceled","challenge":)" + body + "}");
    EXPECT_EQ(c.challenge.id, "Ab12Cd34");
}

TEST(LilaShapes, GameStartOfAGameWeDoNotKnowAgainstTheAi) {
    // ownerPreview + source + compat + id (modules/api/src/main/EventStream.scala gameJson):
    // perf is a key string, the AI opponent has a null id and an `ai` level.
    const auto g = parsed<GameStart>(
        R"({"type":"gameStart","game":{"fullId":"Qq11Ww22Ee33","gameId":"Qq11Ww22",)"
        R"("fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","color":"white",)"
        R"("lastMove":"","source":"ai","status":{"id":20,"name":"started"},)"
        R"("variant":{"key":"standard","name":"Standard","short":"Std"},"speed":"blitz",)"
        R"("perf":"blitz","rated":false,"hasMoved":false,"opponent":{"id":null,)"
        R"("username":"Stockfish level 3","ai":3},"isMyTurn":true,"secondsLeft":300,)"
        R"("compat":{"bot":false,"board":true},"id":"Qq11Ww22"}})");
    EXPECT_EQ(g.game.game_id, "Qq11Ww22");
    EXPECT_EQ(g.game.perf, std::optional<std::string>("blitz"));
    ASSERT_TRUE(g.game.opponent.has_value());
    EXPECT_FALSE(g.game.opponent->id.has_value());
    EXPECT_EQ(g.game.opponent->ai_level, std::optional<int>(3));
    EXPECT_EQ(g.game.status, std::optional<GameStatus>(GameStatus::Started));
}

TEST(LilaShapes, GameFinishWithoutPerfOrSecondsLeft) {
    const auto g = parsed<GameFinish>(
        R"({"type":"gameFinish","game":{"fullId":"Rr11Tt22Yy33","gameId":"Rr11Tt22",)"
        R"("fen":"8/8/8/8/8/8/8/8 w - - 0 1","color":"black","lastMove":"e2e4",)"
        R"("source":"friend","status":{"id":25,"name":"aborted"},"variant":{"key":"standard",)"
        R"("name":"Standard"},"speed":"correspondence","rated":false,"hasMoved":true,)"
        R"("opponent":{"id":"someone","username":"Someone","rating":1500},"isMyTurn":false,)"
        R"("compat":{"bot":true,"board":true},"id":"Rr11Tt22"}})");
    EXPECT_EQ(g.game.status, std::optional<GameStatus>(GameStatus::Aborted));
    EXPECT_FALSE(g.game.seconds_left.has_value());
    EXPECT_FALSE(g.game.perf.has_value());
}

TEST(LilaShapes, EveryFinalStatusLilaWritesEndsTheGame) {
    // chess.Status names (scalachess): each is parsed by name and is a game over.
    for (const auto& [name, status] : std::vector<std::pair<std::string, GameStatus>>{
             {"unknownFinish", GameStatus::UnknownFinish},
             {"noStart", GameStatus::NoStart},
             {"cheat", GameStatus::Cheat},
             {"timeout", GameStatus::Timeout},
             {"outoftime", GameStatus::OutOfTime},
             {"insufficientMaterialClaim", GameStatus::InsufficientMaterialClaim},
             {"variantEnd", GameStatus::VariantEnd}}) {
        // BotJsonView.gameState: draw/takeback flags only when true, no `expiration`.
        const auto s = game_event_of<GameState>(
            R"({"type":"gameState","moves":"e2e4 e7e5","wtime":1000,"btime":2000,"winc":0,)"
            R"("binc":0,"status":")" +
            name + R"(","winner":"white"})");
        EXPECT_EQ(s.status, status) << name;
        EXPECT_TRUE(is_game_over(s.status)) << name;
        EXPECT_EQ(s.status_name, name);
        EXPECT_FALSE(s.wdraw || s.bdraw || s.wtakeback || s.btakeback);
        EXPECT_FALSE(s.expiration.has_value());
    }
}

TEST(LilaShapes, GameFullWithAnUntitledOpponentWhoseTitleIsNull) {
    const auto f = game_event_of<GameFull>(
        R"({"id":"Uu11Ii22","variant":{"key":"standard","name":"Standard","short":"Std"},)"
        R"("speed":"bullet","perf":{"name":"Bullet"},"rated":true,"createdAt":1700000000000,)"
        R"("white":{"id":"outpostbot","name":"OutpostBot","title":"BOT","rating":2000},)"
        R"("black":{"id":"human","name":"Human","title":null,"rating":1800,"provisional":true},)"
        R"("initialFen":"startpos","clock":{"initial":60000,"increment":0},"type":"gameFull",)"
        R"("state":{"type":"gameState","moves":"","wtime":60000,"btime":60000,"winc":0,"binc":0,)"
        R"("status":"started"}})");
    EXPECT_FALSE(f.black.title.has_value());
    EXPECT_TRUE(f.black.provisional);
    EXPECT_TRUE(f.white.is_bot());
    EXPECT_EQ(f.state.status, GameStatus::Started);
}

}  // namespace lila_shapes

}  // namespace
}  // namespace lichess
