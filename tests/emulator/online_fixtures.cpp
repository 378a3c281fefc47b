// The built-in positions of the online sources' server. The bodies marked "spec" are the
// examples of the Lichess OpenAPI spec (lichess-org/api doc/specs at f59dc80, as copied to
// tests/data/lichess-api); the others are made up in the same shape, with legal moves, so that
// a game from the start position meets every source (white's first move, black's answer to
// 1. e4 or 1. d4).
#include "online_fixtures.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "engine/position.hpp"
#include "engine/variant_table.hpp"

namespace emu {

namespace {

constexpr const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr const char* kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
constexpr const char* kAfterD4 = "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1";
// spec: the explorer examples are for 1. d4 d5 2. c4 c6 3. cxd5 (their opening: D10 Slav
// Defense: Exchange Variation), the player example for 1. d4 d5 (revoof with white).
constexpr const char* kSlavExchange = "rnbqkbnr/pp2pppp/2p5/3P4/8/8/PP2PPPP/RNBQKBNR b KQkq - 0 3";
constexpr const char* kAfterD4D5 = "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2";
// spec (schemas/CloudEval.yaml): its pvs start with a White move, so it is served with White to
// move (the spec's own fen has no side; the query example has Black's).
constexpr const char* kRuyLopezWhite =
    "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 3 3";
// A back-rank mate in one (a cloud eval with a mate score).
constexpr const char* kBackRank = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
// spec: tablebase-lookupStandard is for the tag's example, 4k3/6KP/8/8/8/8/7p/8_w_-_-_0_1.
constexpr const char* kTablebaseExample = "4k3/6KP/8/8/8/8/7p/8 w - - 0 1";

constexpr const char* kMastersExample =
    R"json({"white":1927,"draws":5215,"black":1469,"moves":[{"uci":"c6d5","san":"cxd5","averageRating":2412,"white":1927,"draws":5215,"black":1468,"game":null,"opening":null},{"uci":"g8f6","san":"Nf6","averageRating":2515,"white":0,"draws":0,"black":1,"game":{"id":"1EErB5jc","winner":"black","black":{"name":"Dobrov, Vladimir","rating":2515},"white":{"name":"Drozdovskij, Yuri","rating":2509},"year":2006,"month":"2006-01"},"opening":{"eco":"D06","name":"Queen's Gambit Declined: Marshall Defense, Tan Gambit"}}],"topGames":[{"uci":"c6d5","id":"kN6d9l2i","winner":"black","black":{"name":"Anand, V.","rating":2785},"white":{"name":"Carlsen, M.","rating":2881},"year":2014,"month":"2014-06"},{"uci":"c6d5","id":"qeYPJL2y","winner":"white","black":{"name":"Carlsen, M.","rating":2843},"white":{"name":"So, W.","rating":2778},"year":2018,"month":"2018-06"},{"uci":"c6d5","id":"VpWYyv3g","winner":null,"black":{"name":"Carlsen, M..","rating":2847},"white":{"name":"So, W..","rating":2770},"year":2021,"month":"2021-03"},{"uci":"c6d5","id":"nlh6QPSg","winner":"white","black":{"name":"Vachier Lagrave, Maxime","rating":2778},"white":{"name":"Caruana, Fabiano","rating":2835},"year":2020,"month":"2020-06"},{"uci":"c6d5","id":"IYy7abvG","winner":"black","black":{"name":"Caruana, Fabiano","rating":2835},"white":{"name":"So, Wesley","rating":2770},"year":2020,"month":"2020-06"},{"uci":"c6d5","id":"sKEBcLbM","winner":null,"black":{"name":"Carlsen, M.","rating":2832},"white":{"name":"Grischuk, A.","rating":2761},"year":2017,"month":"2017-06"},{"uci":"c6d5","id":"ambcPQzJ","winner":"white","black":{"name":"Nakamura, Hikaru","rating":2775},"white":{"name":"Aronian, Levon","rating":2813},"year":2013,"month":"2013-05"},{"uci":"c6d5","id":"7x23lu2J","winner":"black","black":{"name":"Karjakin, Sergey","rating":2771},"white":{"name":"Aronian, L.","rating":2815},"year":2014,"month":"2014-06"},{"uci":"c6d5","id":"FLar3fv2","winner":"white","black":{"name":"Duda, Jan Krzysztof","rating":2757},"white":{"name":"Caruana, Fabiano","rating":2828},"year":2020,"month":"2020-10"},{"uci":"c6d5","id":"mOtWn31m","winner":"black","black":{"name":"Nakamura, Hi","rating":2804},"white":{"name":"Caruana, F.","rating":2776},"year":2025,"month":"2025-05"},{"uci":"c6d5","id":"2O6imBL4","winner":"black","black":{"name":"Aronian, L.","rating":2764},"white":{"name":"Mamedyarov, S.","rating":2808},"year":2018,"month":"2018-06"},{"uci":"c6d5","id":"4DG6brd6","winner":null,"black":{"name":"Caruana, Fabiano","rating":2835},"white":{"name":"Nakamura, Hikaru","rating":2736},"year":2020,"month":"2020-05"},{"uci":"c6d5","id":"LNwpnUi7","winner":null,"black":{"name":"Vachier Lagrave, M.","rating":2779},"white":{"name":"Nakamura, Hi","rating":2777},"year":2018,"month":"2018-10"},{"uci":"c6d5","id":"f7QMeZlL","winner":"black","black":{"name":"Carlsen, M.","rating":2840},"white":{"name":"Vallejo Pons, F.","rating":2711},"year":2016,"month":"2016-12"},{"uci":"c6d5","id":"vZzIG6Vo","winner":"white","black":{"name":"Nakamura, Hikaru","rating":2774},"white":{"name":"Ivanchuk, Vassily","rating":2776},"year":2011,"month":"2011-06"}],"opening":{"eco":"D10","name":"Slav Defense: Exchange Variation"}})json";
constexpr const char* kLichessExample =
    R"json({"white":5061745,"draws":492487,"black":4458129,"moves":[{"uci":"c6d5","san":"cxd5","averageRating":1806,"white":4517660,"draws":450366,"black":4016728,"game":null,"opening":null},{"uci":"d8d5","san":"Qxd5","averageRating":1662,"white":236785,"draws":17561,"black":170379,"game":null,"opening":null},{"uci":"g8f6","san":"Nf6","averageRating":1973,"white":195502,"draws":17425,"black":184987,"game":null,"opening":{"eco":"D06","name":"Queen's Gambit Declined: Marshall Defense, Tan Gambit"}},{"uci":"e7e6","san":"e6","averageRating":1839,"white":40807,"draws":2695,"black":32332,"game":null,"opening":null},{"uci":"d8a5","san":"Qa5+","averageRating":1436,"white":19458,"draws":1221,"black":13712,"game":null,"opening":null},{"uci":"c8f5","san":"Bf5","averageRating":1705,"white":17503,"draws":1118,"black":15374,"game":null,"opening":null},{"uci":"c6c5","san":"c5","averageRating":1802,"white":11081,"draws":678,"black":6174,"game":null,"opening":null},{"uci":"g7g6","san":"g6","averageRating":1861,"white":3867,"draws":325,"black":3561,"game":null,"opening":null},{"uci":"c8g4","san":"Bg4","averageRating":1866,"white":3775,"draws":255,"black":3715,"game":null,"opening":null},{"uci":"e7e5","san":"e5","averageRating":1820,"white":2796,"draws":156,"black":2555,"game":null,"opening":null},{"uci":"a7a6","san":"a6","averageRating":1877,"white":2180,"draws":139,"black":1876,"game":null,"opening":null},{"uci":"b8d7","san":"Nd7","averageRating":1627,"white":2302,"draws":119,"black":1574,"game":null,"opening":null}],"recentGames":[{"uci":"c6d5","id":"PFRcQXaV","winner":"white","speed":"bullet","mode":"rated","black":{"name":"chaotic_logic","rating":2611},"white":{"name":"AritzMancha","rating":2626},"year":2026,"month":"2026-01"},{"uci":"c6d5","id":"1Eu0KMO6","winner":"white","speed":"blitz","mode":"rated","black":{"name":"Helmy-Saber2","rating":2160},"white":{"name":"denk_er","rating":2222},"year":2026,"month":"2026-01"},{"uci":"c6d5","id":"Oykwl4gi","winner":"white","speed":"blitz","mode":"rated","black":{"name":"JonKi1002","rating":1831},"white":{"name":"KonstantinXCII","rating":1940},"year":2026,"month":"2026-01"},{"uci":"c6d5","id":"ayG0PtAu","winner":"black","speed":"bullet","mode":"rated","black":{"name":"IlyaGaon","rating":1364},"white":{"name":"hitomii","rating":1413},"year":2026,"month":"2026-01"}],"topGames":[{"uci":"g8f6","id":"EqJcFS1j","winner":"white","speed":"ultraBullet","mode":"rated","black":{"name":"toivok","rating":2708},"white":{"name":"penguingim1","rating":2969},"year":2018,"month":"2018-04"},{"uci":"c6d5","id":"Z8bSC15J","winner":"black","speed":"rapid","mode":"rated","black":{"name":"ShadowsOfPain","rating":2971},"white":{"name":"rightup","rating":2630},"year":2025,"month":"2025-07"},{"uci":"c6d5","id":"IGCORYDn","winner":null,"speed":"rapid","mode":"rated","black":{"name":"torombot","rating":2987},"white":{"name":"the_magnificent_bob","rating":2981},"year":2024,"month":"2024-03"}],"opening":{"eco":"D10","name":"Slav Defense: Exchange Variation"}})json";
constexpr const char* kPlayerExample =
    R"json({"white":366,"draws":23,"black":279,"moves":[{"uci":"c2c4","san":"c4","averageOpponentRating":1695,"performance":1744,"white":361,"draws":23,"black":272,"game":null,"opening":{"eco":"D06","name":"Queen's Gambit"}},{"uci":"c2c3","san":"c3","averageOpponentRating":1797,"performance":1797,"white":2,"draws":0,"black":2,"game":null,"opening":null},{"uci":"e2e4","san":"e4","averageOpponentRating":1762,"performance":1640,"white":1,"draws":0,"black":2,"game":null,"opening":{"eco":"D00","name":"Blackmar-Diemer Gambit"}},{"uci":"g1f3","san":"Nf3","averageOpponentRating":1497,"performance":1374,"white":1,"draws":0,"black":2,"game":null,"opening":{"eco":"D02","name":"Queen's Pawn Game: Zukertort Variation"}},{"uci":"h2h4","san":"h4","averageOpponentRating":1674,"performance":874,"white":0,"draws":0,"black":1,"game":{"id":"9vA24xBn","winner":"black","speed":"bullet","mode":"rated","black":{"name":"MentalBlood","rating":1674},"white":{"name":"revoof","rating":1657},"year":2020,"month":"2020-06"},"opening":null},{"uci":"h2h3","san":"h3","averageOpponentRating":1696,"performance":2496,"white":1,"draws":0,"black":0,"game":{"id":"zyI4GGKv","winner":"white","speed":"bullet","mode":"rated","black":{"name":"gocool99","rating":1696},"white":{"name":"revoof","rating":1702},"year":2020,"month":"2020-07"},"opening":null}],"recentGames":[{"uci":"c2c4","id":"ycZbWQZO","winner":"white","speed":"bullet","mode":"rated","black":{"name":"Winavesh","rating":1700},"white":{"name":"revoof","rating":1700},"year":2024,"month":"2024-11"}],"opening":{"eco":"D00","name":"Queen's Pawn Game"},"queuePosition":178})json";
constexpr const char* kTablebaseLookup =
    R"json({"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":1,"precise_dtz":1,"dtm":17,"dtw":null,"dtc":null,"category":"win","moves":[{"uci":"h7h8q","san":"h8=Q+","zeroing":true,"conversion":true,"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":-2,"precise_dtz":-2,"dtm":-16,"dtw":null,"dtc":null,"category":"loss"},{"uci":"h7h8r","san":"h8=R+","zeroing":true,"conversion":true,"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":-2,"precise_dtz":-2,"dtm":-26,"dtw":null,"dtc":null,"category":"loss"},{"uci":"g7g8","san":"Kg8","zeroing":false,"conversion":false,"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":0,"precise_dtz":0,"dtm":0,"dtw":null,"dtc":null,"category":"draw"},{"uci":"g7f6","san":"Kf6","zeroing":false,"conversion":false,"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":1,"precise_dtz":1,"dtm":19,"dtw":null,"dtc":null,"category":"win"},{"uci":"g7g6","san":"Kg6","zeroing":false,"conversion":false,"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":1,"precise_dtz":1,"dtm":19,"dtw":null,"dtc":null,"category":"win"},{"uci":"g7h6","san":"Kh6","zeroing":false,"conversion":false,"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":1,"precise_dtz":1,"dtm":19,"dtw":null,"dtc":null,"category":"win"},{"uci":"g7h8","san":"Kh8","zeroing":false,"conversion":false,"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":1,"precise_dtz":1,"dtm":19,"dtw":null,"dtc":null,"category":"win"},{"uci":"h7h8n","san":"h8=N","zeroing":true,"conversion":true,"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":1,"precise_dtz":1,"dtm":19,"dtw":null,"dtc":null,"category":"win"},{"uci":"h7h8b","san":"h8=B","zeroing":true,"conversion":true,"checkmate":false,"stalemate":false,"variant_win":false,"variant_loss":false,"insufficient_material":false,"dtz":1,"precise_dtz":1,"dtm":15,"dtw":null,"dtc":null,"category":"win"}]})json";
// Shaped like cdb.php's queryall json=1 output (noobpwnftw/chessdb web/cdb.php); the same as
// tests/data/chessdb/queryall-startpos.json.
constexpr const char* kChessdbStart =
    R"json({"status":"ok","moves":[{"uci":"e2e4","san":"e4","score":34,"rank":2,"note":"! (33-07)","winrate":"52.57"},{"uci":"d2d4","san":"d4","score":30,"rank":2,"note":"! (29-08)","winrate":"52.27"},{"uci":"g1f3","san":"Nf3","score":27,"rank":1,"note":"* (24-07)","winrate":"52.04"},{"uci":"c2c4","san":"c4","score":25,"rank":1,"note":"* (21-06)","winrate":"51.89"},{"uci":"a2a4","san":"a4","score":-40,"rank":0,"note":"? (04-12)","winrate":"46.97"},{"uci":"g2g4","san":"g4","score":"??","rank":0,"note":"? (??-??)"}],"ply":0})json";

constexpr const char* kMastersStart = R"json({"white":1000,"draws":1300,"black":700,"moves":[
{"uci":"e2e4","san":"e4","averageRating":2412,"white":420,"draws":520,"black":300,"game":null,"opening":{"eco":"B00","name":"King's Pawn Game"}},
{"uci":"d2d4","san":"d4","averageRating":2420,"white":380,"draws":500,"black":250,"game":null,"opening":{"eco":"A40","name":"Queen's Pawn Game"}},
{"uci":"g1f3","san":"Nf3","averageRating":2425,"white":120,"draws":180,"black":90,"game":null,"opening":{"eco":"A04","name":"Zukertort Opening"}},
{"uci":"c2c4","san":"c4","averageRating":2428,"white":80,"draws":100,"black":60,"game":null,"opening":{"eco":"A10","name":"English Opening"}}],
"topGames":[],"opening":null})json";
constexpr const char* kLichessStart = R"json({"white":9300,"draws":850,"black":8600,"moves":[
{"uci":"e2e4","san":"e4","averageRating":1720,"white":5200,"draws":450,"black":4900,"game":null,"opening":{"eco":"B00","name":"King's Pawn Game"}},
{"uci":"d2d4","san":"d4","averageRating":1760,"white":3100,"draws":300,"black":2800,"game":null,"opening":{"eco":"A40","name":"Queen's Pawn Game"}},
{"uci":"g1f3","san":"Nf3","averageRating":1800,"white":600,"draws":60,"black":540,"game":null,"opening":{"eco":"A04","name":"Zukertort Opening"}},
{"uci":"c2c4","san":"c4","averageRating":1790,"white":400,"draws":40,"black":360,"game":null,"opening":{"eco":"A10","name":"English Opening"}}],
"recentGames":[],"topGames":[],"opening":null})json";
constexpr const char* kExplorerAfterE4 = R"json({"white":730,"draws":830,"black":580,"moves":[
{"uci":"c7c5","san":"c5","averageRating":2410,"white":300,"draws":320,"black":260,"game":null,"opening":{"eco":"B20","name":"Sicilian Defense"}},
{"uci":"e7e5","san":"e5","averageRating":2415,"white":280,"draws":330,"black":200,"game":null,"opening":{"eco":"C20","name":"King's Pawn Game"}},
{"uci":"e7e6","san":"e6","averageRating":2405,"white":90,"draws":100,"black":70,"game":null,"opening":{"eco":"C00","name":"French Defense"}},
{"uci":"c7c6","san":"c6","averageRating":2400,"white":60,"draws":80,"black":50,"game":null,"opening":{"eco":"B10","name":"Caro-Kann Defense"}}],
"topGames":[],"recentGames":[],"opening":{"eco":"B00","name":"King's Pawn Game"}})json";
constexpr const char* kExplorerAfterD4 = R"json({"white":640,"draws":900,"black":460,"moves":[
{"uci":"g8f6","san":"Nf6","averageRating":2420,"white":350,"draws":520,"black":260,"game":null,"opening":{"eco":"A45","name":"Indian Defense"}},
{"uci":"d7d5","san":"d5","averageRating":2410,"white":290,"draws":380,"black":200,"game":null,"opening":{"eco":"D00","name":"Queen's Pawn Game"}}],
"topGames":[],"recentGames":[],"opening":{"eco":"A40","name":"Queen's Pawn Game"}})json";

constexpr const char* kCloudStart =
    R"json({"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -","knodes":1250000,"depth":45,"pvs":[
{"moves":"e2e4 e7e5 g1f3 b8c6 f1b5","cp":18},
{"moves":"d2d4 g8f6 c2c4 e7e6 g1f3","cp":18},
{"moves":"g1f3 d7d5 d2d4 g8f6 c2c4","cp":15},
{"moves":"c2c4 e7e5 b1c3 g8f6 g1f3","cp":13},
{"moves":"e2e3 d7d5 d2d4 g8f6 c2c4","cp":9}]})json";
constexpr const char* kCloudAfterE4 =
    R"json({"fen":"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -","knodes":980000,"depth":42,"pvs":[
{"moves":"c7c5 g1f3 d7d6 d2d4 c5d4","cp":25},
{"moves":"e7e5 g1f3 b8c6 f1b5 g8f6","cp":26},
{"moves":"e7e6 d2d4 d7d5 b1c3 g8f6","cp":33}]})json";
constexpr const char* kCloudAfterD4 =
    R"json({"fen":"rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -","knodes":900000,"depth":41,"pvs":[
{"moves":"g8f6 c2c4 e7e6 g1f3 d7d5","cp":19},
{"moves":"d7d5 c2c4 e7e6 b1c3 g8f6","cp":22}]})json";
constexpr const char* kCloudRuyLopez =
    R"json({"fen":"r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R","knodes":106325,"depth":29,"pvs":[
{"moves":"d1e2 d8e7 a2a4 a7a6 b5c4 d7d6 d2d3 g8f6 c1e3 c6a5","cp":41},
{"moves":"c2c3 a7a6 b5a4 g8f6 d2d3 b7b5 a4b3 h7h6 a2a4 c8b7","cp":39},
{"moves":"d2d3 d8f6 c2c3 a7a6 b5a4 f8c5 d3d4 c5a7 c1e3 g8e7","cp":37}]})json";
constexpr const char* kCloudBackRank =
    R"json({"fen":"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - -","knodes":12,"depth":245,"pvs":[
{"moves":"d1d8","mate":1}]})json";

constexpr const char* kChessdbAfterE4 = R"json({"status":"ok","moves":[
{"uci":"c7c5","san":"c5","score":-28,"rank":2,"note":"! (24-09)","winrate":"47.88"},
{"uci":"e7e5","san":"e5","score":-30,"rank":2,"note":"! (27-08)","winrate":"47.73"},
{"uci":"e7e6","san":"e6","score":-35,"rank":1,"note":"* (19-06)","winrate":"47.35"},
{"uci":"d7d6","san":"d6","score":-60,"rank":0,"note":"? (08-11)","winrate":"45.47"}],"ply":1})json";

}  // namespace

std::optional<std::string> OnlineFixtures::position_key(std::string_view fen,
                                                        std::string_view variant) {
    const auto v = engine::parse_variant(variant);
    if (!v) return std::nullopt;
    auto pos = engine::Position::from_fen(fen, *v, engine::castles_as_chess960(variant));
    if (!pos.ok()) return std::nullopt;
    // chess960 and fromPosition are standard chess for every service.
    const std::string text = std::string(engine::lichess_key(*v)) + " " + pos->fen();
    // variant, placement, side, castling: up to the fourth space
    std::size_t cut = 0;
    for (int spaces = 0; cut < text.size(); ++cut) {
        if (text[cut] == ' ' && ++spaces == 4) break;
    }
    return text.substr(0, cut);
}

void OnlineFixtures::add(Table& table, const std::string& fen, OnlineEntry entry,
                         std::string_view variant) {
    const auto key = position_key(fen, variant);
    if (!key) throw std::invalid_argument("online fixture: not a FEN: " + fen);
    // One line: the player database streams NDJSON, and a compact body is what the services send.
    const auto j = nlohmann::json::parse(entry.body, nullptr, false);
    if (!j.is_discarded()) entry.body = j.dump();
    table[*key] = std::move(entry);
}

OnlineFixtures::OnlineFixtures(const OnlineSpec& spec) {
    if (spec.builtin) {
        add(explorer_["masters"], kStart, {200, kMastersStart});
        add(explorer_["lichess"], kStart, {200, kLichessStart});
        add(explorer_["any"], kAfterE4, {200, kExplorerAfterE4});
        add(explorer_["any"], kAfterD4, {200, kExplorerAfterD4});
        add(explorer_["masters"], kSlavExchange, {200, kMastersExample});
        add(explorer_["lichess"], kSlavExchange, {200, kLichessExample});
        add(explorer_["player"], kAfterD4D5, {200, kPlayerExample});
        add(cloud_eval_, kStart, {200, kCloudStart});
        add(cloud_eval_, kAfterE4, {200, kCloudAfterE4});
        add(cloud_eval_, kAfterD4, {200, kCloudAfterD4});
        add(cloud_eval_, kRuyLopezWhite, {200, kCloudRuyLopez});
        add(cloud_eval_, kBackRank, {200, kCloudBackRank});
        add(tablebase_, kTablebaseExample, {200, kTablebaseLookup});
        add(chessdb_, kStart, {200, kChessdbStart});
        add(chessdb_, kAfterE4, {200, kChessdbAfterE4});
    }
    for (const auto& e : spec.explorer) add(explorer_[e.db], e.fen, {e.status, e.body}, e.variant);
    for (const auto& e : spec.cloud_eval) add(cloud_eval_, e.fen, {e.status, e.body}, e.variant);
    for (const auto& e : spec.tablebase) add(tablebase_, e.fen, {e.status, e.body}, e.variant);
    for (const auto& e : spec.chessdb) add(chessdb_, e.fen, {e.status, e.body}, e.variant);
}

namespace {
const OnlineEntry* find(const std::map<std::string, OnlineEntry>& table, const std::string& key) {
    const auto it = table.find(key);
    return it == table.end() ? nullptr : &it->second;
}
}  // namespace

const OnlineEntry* OnlineFixtures::explorer(const std::string& db, const std::string& key) const {
    for (const auto& name : {db, std::string("any")}) {
        const auto table = explorer_.find(name);
        if (table == explorer_.end()) continue;
        if (const auto* e = find(table->second, key)) return e;
    }
    return nullptr;
}

const OnlineEntry* OnlineFixtures::cloud_eval(const std::string& key) const {
    return find(cloud_eval_, key);
}
const OnlineEntry* OnlineFixtures::tablebase(const std::string& key) const {
    return find(tablebase_, key);
}
const OnlineEntry* OnlineFixtures::chessdb(const std::string& key) const {
    return find(chessdb_, key);
}

}  // namespace emu
