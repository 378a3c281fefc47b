// The generator's binary data: records round-trip positions and labels, damaged files are
// named, a torn tail is ignored by readers and cut by a resuming run, a stopped and resumed run
// writes the games a run in one go writes, and the trainer reads binary and text alike.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "engine/bitboard.hpp"
#include "engine/fen.hpp"
#include "engine/movegen.hpp"
#include "tools/datagen/data_file.hpp"
#include "tools/datagen/generator.hpp"
#include "tools/datagen/record.hpp"
#include "tools/trainer/trainer.hpp"

namespace engine {
namespace {

namespace fs = std::filesystem;

// A fresh folder for one test's files, removed at its end.
struct DataDir {
    fs::path path;
    DataDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        path = fs::temp_directory_path() /
               ("outpost-datagen-" + std::string(info->name()) + "-" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~DataDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string file(const std::string& name) const { return (path / name).string(); }
};

std::string read_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}
void append_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::app) << bytes;
}

// Each complete game's records, by game index.
std::map<std::uint64_t, std::vector<datagen::Record>> games_of(const std::string& path) {
    std::map<std::uint64_t, std::vector<datagen::Record>> games;
    const auto scan = datagen::read_data_file(
        path, [&](const datagen::Record& r) { games[datagen::record_game(r)].push_back(r); });
    EXPECT_TRUE(scan) << scan.error();
    return games;
}

TEST(DatagenRecord, PositionsAndLabelsRoundTripThroughRecords) {
    std::mt19937_64 rng(2024);
    int castling = 0, en_passant = 0, promoted = 0, positions = 0;
    // Random games from the start and from positions where castling and promotion come soon.
    for (const char* start :
         {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
          "r3k2r/1P4P1/8/8/8/8/1p4p1/R3K2R b KQkq - 0 40", "4k3/PPP5/8/8/8/8/5ppp/4K3 w - - 0 1"}) {
        for (int walk = 0; walk < 40; ++walk) {
            Board b = *parse_fen(start);
            for (int ply = 0; ply < 200; ++ply) {
                const int score = int(rng() % 65536) - 32768;
                const float result = float(rng() % 3) / 2;
                const std::uint64_t game = rng() % datagen::MAX_GAMES;
                const bool last = rng() & 1;
                const auto record = datagen::encode_record(b, score, result, game, last);
                ASSERT_TRUE(record) << record.error() << " " << to_fen(b);
                const auto back = datagen::decode_record(*record);
                ASSERT_TRUE(back) << back.error() << " " << to_fen(b);
                ASSERT_EQ(to_fen(back->board), to_fen(b));
                EXPECT_EQ(back->board.key, b.key) << to_fen(b);
                EXPECT_EQ(back->score_white, score);
                EXPECT_EQ(back->result, result);
                EXPECT_EQ(back->game, game);
                EXPECT_EQ(back->last, last);
                EXPECT_EQ(datagen::record_game(*record), game);
                EXPECT_EQ(datagen::record_last(*record), last);
                ++positions;
                castling += b.castling != NO_CASTLING;
                en_passant += b.en_passant != SQ_NONE;

                const MoveList moves = legal_moves(b);
                if (moves.empty() || b.halfmove_clock >= 100) break;
                const Move m = moves[int(rng() % std::uint64_t(moves.size()))];
                promoted += m.kind() == MoveKind::PROMOTION;
                b.make_move(m);
            }
        }
    }
    EXPECT_GT(positions, 5000);
    EXPECT_GT(castling, 100);
    EXPECT_GT(en_passant, 10);
    EXPECT_GT(promoted, 10);
}

TEST(DatagenRecord, WhatARecordCannotHoldIsRefusedAndDamageIsNamed) {
    const Board b = *parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    EXPECT_TRUE(datagen::encode_record(b, 0, 0.5f, datagen::MAX_GAMES - 1, true));
    EXPECT_FALSE(datagen::encode_record(b, 0, 0.5f, datagen::MAX_GAMES, true));
    EXPECT_FALSE(datagen::encode_record(b, 40000, 0.5f, 0, true));
    EXPECT_FALSE(datagen::encode_record(b, 0, 0.25f, 0, true));
    EXPECT_FALSE(
        datagen::encode_record(*parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 130 90"), 0, 0.5f, 0, true));
    EXPECT_FALSE(
        datagen::encode_record(*parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1024"), 0, 0.5f, 0, true));
    const auto chess960 = datagen::encode_record(
        *parse_fen("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1"), 0, 0.5f, 0, true);
    ASSERT_FALSE(chess960);
    EXPECT_NE(chess960.error().find("Chess960"), std::string::npos);

    const datagen::Record good = *datagen::encode_record(b, -37, 1.0f, 5, false);
    datagen::Record r = good;
    r[24 + 34 / 8] |= 3 << (34 % 8);  // result code 3
    EXPECT_FALSE(datagen::decode_record(r));
    r = good;
    r[20] = 0x50;  // a piece code beyond the three pieces on the board
    EXPECT_FALSE(datagen::decode_record(r));
    r = good;
    r[8] = 0x00;  // the king on e1 turned into a pawn: a pawn on the first rank, no white king
    EXPECT_FALSE(datagen::decode_record(r));
    EXPECT_FALSE(datagen::decode_record(datagen::Record{}));  // zeros: no pieces, fullmove 0
    r = good;
    datagen::mark_last(r);
    EXPECT_TRUE(datagen::record_last(r));
    EXPECT_TRUE(datagen::decode_record(r));
}

TEST(DatagenRecord, RandomBytesAreRefusedOrDecodedToAPositionThatEncodesBack) {
    // Damaged data must never crash a reader: random records, a few of them positions.
    std::mt19937_64 rng(77);
    int decoded = 0;
    for (int n = 0; n < 20000; ++n) {
        datagen::Record r;
        for (auto& byte : r) byte = static_cast<unsigned char>(rng());
        if (n % 2) {
            // Two to four pieces of random codes, the other nibbles 0: some of these records
            // are positions (a king of each colour, nothing illegal).
            std::uint64_t occupied = 0;
            const int pieces = 2 + int(rng() % 3);
            while (popcount(occupied) < pieces) occupied |= std::uint64_t(1) << (rng() % 64);
            for (int i = 0; i < 8; ++i)
                r[std::size_t(i)] = static_cast<unsigned char>(occupied >> (8 * i));
            for (int i = 8; i < 24; ++i) r[std::size_t(i)] = 0;
            for (int i = 0; i < pieces; ++i)
                r[std::size_t(8 + i / 2)] |=
                    static_cast<unsigned char>((rng() % 16) << (4 * (i & 1)));
        }
        const auto d = datagen::decode_record(r);
        if (!d) continue;
        ++decoded;
        const auto again =
            datagen::encode_record(d->board, d->score_white, d->result, d->game, d->last);
        ASSERT_TRUE(again) << again.error();
        const auto twice = datagen::decode_record(*again);
        ASSERT_TRUE(twice) << twice.error();
        EXPECT_EQ(to_fen(twice->board), to_fen(d->board));
    }
    EXPECT_GT(decoded, 20);  // the round trip above was exercised
    EXPECT_LT(decoded, 10000);
}

TEST(DatagenRecord, TheHeaderCarriesTheRunAndRefusesOtherFiles) {
    datagen::RunParams p;
    p.seed = 14;
    p.nodes = 10000;
    p.random_plies = 8;
    p.hash_mb = 8;
    p.net_hash = 0x1517fe65a733182dULL;
    const datagen::Header h = datagen::encode_header(p);
    const auto back = datagen::decode_header(h.data(), h.size());
    ASSERT_TRUE(back) << back.error();
    EXPECT_EQ(*back, p);
    datagen::RunParams q = p;
    q.seed = 15;
    EXPECT_EQ(datagen::describe_difference(p, q), "seed 14 vs 15");

    datagen::Header damaged = h;
    damaged[17] ^= 1;
    EXPECT_NE(datagen::decode_header(damaged.data(), damaged.size()).error().find("damaged"),
              std::string::npos);
    EXPECT_NE(datagen::decode_header(h.data(), 40).error().find("cut short"), std::string::npos);
    const std::string text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0;0.5;0\n";
    EXPECT_NE(
        datagen::decode_header(reinterpret_cast<const unsigned char*>(text.data()), text.size())
            .error()
            .find("not an outpost-datagen binary file"),
        std::string::npos);
}

TEST(DatagenFile, ATornTailIsIgnoredByReadersAndTheTrainer) {
    DataDir dir;
    const std::string path = dir.file("torn.bin");
    const auto header = datagen::encode_header({});
    std::string bytes(header.begin(), header.end());
    const Board b = *parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    // Game 0 of three positions, game 1 of two, game 2 cut off after two, and half a record.
    for (auto [game, count, complete] : {std::tuple{0, 3, true}, {1, 2, true}, {2, 2, false}})
        for (int i = 0; i < count; ++i) {
            const auto r =
                *datagen::encode_record(b, 10 * i, 1.0f, game, complete && i + 1 == count);
            bytes.append(r.begin(), r.end());
        }
    bytes.append(std::string(10, '\x7f'));
    append_bytes(path, bytes);

    int seen = 0;
    const auto scan = datagen::read_data_file(path, [&](const datagen::Record&) { ++seen; });
    ASSERT_TRUE(scan) << scan.error();
    EXPECT_EQ(scan->records, 5u);
    EXPECT_EQ(scan->torn_records, 2u);
    EXPECT_EQ(scan->torn_bytes, 10u);
    EXPECT_EQ(seen, 5);
    EXPECT_EQ(scan->complete_size(), datagen::HEADER_SIZE + 5 * datagen::RECORD_SIZE);

    trainer::Data data;
    EXPECT_EQ(trainer::load(path, data, 0, 0), 3);  // 2 records of game 2, 1 partial record
    EXPECT_EQ(data.train.size(), 5u);
    trainer::Data first;
    EXPECT_EQ(trainer::load(path, first, 0, 4), 3);
    EXPECT_EQ(first.train.size(), 4u);  // --max counts records
}

datagen::RunOptions small_run(const std::string& path) {
    datagen::RunOptions o;
    o.path = path;
    o.config.seed = 9;
    o.config.nodes = 150;
    o.config.max_plies = 40;
    o.games = 8;
    o.threads = 2;
    o.hash_mb = 1;
    o.log = nullptr;
    return o;
}

TEST(DatagenFile, AStoppedAndResumedRunWritesTheGamesOfARunInOneGo) {
    DataDir dir;
    const std::atomic<bool> never{false};
    const auto whole = datagen::run(small_run(dir.file("whole.bin")), never);
    ASSERT_TRUE(whole) << whole.error();
    EXPECT_EQ(whole->games, 8);
    EXPECT_FALSE(whole->stopped);
    const auto expected = games_of(dir.file("whole.bin"));
    ASSERT_EQ(expected.size(), 8u);

    // Stopped after two games (the games in play are dropped), then killed mid-write: one game's
    // first records without its last, and half a record.
    const std::string path = dir.file("resumed.bin");
    std::atomic<bool> stop{false};
    auto first = small_run(path);
    first.on_game = [&stop](long long written) {
        if (written >= 2) stop = true;
    };
    const auto part = datagen::run(first, stop);
    ASSERT_TRUE(part) << part.error();
    EXPECT_TRUE(part->stopped);
    EXPECT_GE(part->games, 2);
    EXPECT_LT(part->games, 8);
    const auto& [index, records] = *expected.rbegin();
    ASSERT_GE(records.size(), 2u);
    std::string torn(records[0].begin(), records[0].end());
    torn.append(records[1].begin(), records[1].begin() + 12);
    append_bytes(path, torn);
    EXPECT_EQ(games_of(path).count(index), 0u) << "the cut-off game is not complete";

    // Another run's options are refused, the file untouched.
    auto other = small_run(path);
    other.config.seed = 10;
    const std::string before = read_bytes(path);
    const auto refused = datagen::run(other, never);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("seed 9 vs 10"), std::string::npos);
    EXPECT_EQ(read_bytes(path), before);

    const auto rest = datagen::run(small_run(path), never);
    ASSERT_TRUE(rest) << rest.error();
    EXPECT_EQ(rest->torn_records, 1u);
    EXPECT_EQ(rest->torn_bytes, 12u);
    EXPECT_EQ(rest->games_before, part->games);
    EXPECT_EQ(rest->games_before + rest->games, 8);
    EXPECT_EQ(games_of(path), expected);
    EXPECT_EQ(fs::file_size(path), fs::file_size(dir.file("whole.bin")));

    // Done: a run asked for the same games again plays none.
    const auto again = datagen::run(small_run(path), never);
    ASSERT_TRUE(again) << again.error();
    EXPECT_EQ(again->games, 0);
    EXPECT_EQ(again->games_before, 8);
}

TEST(DatagenFile, TheTrainerReadsBinaryAndTextToTheSameSamples) {
    DataDir dir;
    const std::atomic<bool> never{false};
    auto options = small_run(dir.file("games.bin"));
    options.games = 6;
    ASSERT_TRUE(datagen::run(options, never));
    std::ofstream text(dir.file("games.txt"));
    const auto scan = datagen::read_data_file(dir.file("games.bin"), [&](const datagen::Record& r) {
        const auto d = datagen::decode_record(r);
        ASSERT_TRUE(d) << d.error();
        text << datagen::format_line({d->board, d->score_white}, d->result, d->game);
    });
    ASSERT_TRUE(scan);
    text.close();

    for (const bool mix : {false, true}) {
        trainer::Data bin, txt;
        EXPECT_EQ(trainer::load(dir.file("games.bin"), bin, 3, 0, mix ? 1 : -1, mix), 0);
        EXPECT_EQ(trainer::load(dir.file("games.txt"), txt, 3, 0, mix ? 1 : -1, mix), 0);
        ASSERT_GT(bin.validation.size(), 0u);
        ASSERT_EQ(bin.train.size(), txt.train.size());
        ASSERT_EQ(bin.validation.size(), txt.validation.size());
        // Every record is a sample (mixed data adds distilled ones to the training set).
        if (mix)
            EXPECT_GT(bin.train.size() + bin.validation.size(), scan->records);
        else
            EXPECT_EQ(bin.train.size() + bin.validation.size(), scan->records);
        auto same = [](const trainer::Sample& a, const trainer::Sample& b) {
            return a.count == b.count && a.stm == b.stm && a.distilled == b.distilled &&
                   a.score == b.score && a.result == b.result &&
                   std::equal(a.square, a.square + a.count, b.square) &&
                   std::equal(a.piece, a.piece + a.count, b.piece);
        };
        for (std::size_t i = 0; i < bin.train.size(); ++i)
            ASSERT_TRUE(same(bin.train[i], txt.train[i])) << i;
        for (std::size_t i = 0; i < bin.validation.size(); ++i)
            ASSERT_TRUE(same(bin.validation[i], txt.validation[i])) << i;
        EXPECT_EQ(bin.validation_fens, txt.validation_fens);
        EXPECT_EQ(bin.validation_hce, txt.validation_hce);
    }
}

// The trainer's reading of text lines from a file: what it kept, and how many it refused.
struct ReadLines {
    trainer::Data data;
    long refused = 0;
};
ReadLines read_text_lines(const std::string& lines) {
    DataDir dir;
    std::ofstream(dir.file("boards.txt")) << lines;
    ReadLines read;
    read.refused = trainer::load(dir.file("boards.txt"), read.data, 0, 0);
    return read;
}

TEST(DatagenFile, TheTrainerReadsCrazyhouseBoardsWithMoreThanEightPawnsASide) {
    // Crazyhouse boards with their pockets taken off; in the second white has dropped two
    // captured pawns and holds ten pawns, eighteen pieces. The third has two white kings, which
    // no game reaches.
    const auto [data, refused] = read_text_lines(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/2P1P3/2N2N2/PP1P1PPP/R1BQKBNR w KQkq - 0 5;35;0.5;0\n"
        "r2qkb1r/ppp2ppp/2n2n2/3pP3/2PP4/P1NP1N2/PP3PPP/R1BQKB1R b KQkq - 0 9;120;1.0;0\n"
        "4k3/8/8/8/8/8/8/3KK3 w - - 0 1;0;0.5;1\n");
    EXPECT_EQ(refused, 1);
    ASSERT_EQ(data.train.size(), 2u);
    EXPECT_EQ(data.train[1].count, 32);
    EXPECT_EQ(data.train[1].stm, std::uint8_t(BLACK));
    EXPECT_EQ(data.train[1].score, -120);
    EXPECT_FALSE(parse_fen("r2qkb1r/ppp2ppp/2n2n2/3pP3/2PP4/P1NP1N2/PP3PPP/R1BQKB1R b KQkq - 0 9"))
        << "a standard board reader refuses nine pawns; the trainer reads them";
}

TEST(DatagenFile, TheTrainerReadsAtomicBoardsWithTheKingsSideBySide) {
    // Atomic: the kings on e4 and e5 touch, as no standard board allows; in the second line
    // black's king has exploded, which leaves no board to judge.
    const auto [data, refused] = read_text_lines(
        "8/8/8/4k3/4K3/8/3Q4/8 b - - 3 40;-450;0.0;0\n"
        "8/8/8/8/4K3/8/3Q4/8 b - - 0 40;0;1.0;1\n");
    EXPECT_EQ(refused, 1);
    ASSERT_EQ(data.train.size(), 1u);
    EXPECT_EQ(data.train[0].count, 3);
    EXPECT_EQ(data.train[0].stm, std::uint8_t(BLACK));
    EXPECT_EQ(data.train[0].score, 450);
    EXPECT_FALSE(parse_fen("8/8/8/4k3/4K3/8/3Q4/8 b - - 3 40"))
        << "a standard board reader refuses kings side by side; the trainer reads them";
}

}  // namespace
}  // namespace engine
