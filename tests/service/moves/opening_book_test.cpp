// OpeningBook: books read from .bin files in a temporary folder (each once, errors that name the
// file), the three selections, min_weight, max_depth, and books tried in their listed order.
#include "service/moves/opening_book.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/engine/polyglot_test_util.hpp"

namespace service {
namespace {

class BookMove : public ::testing::Test {
  protected:
    std::string write(const std::string& name, std::vector<engine::polyglot::Entry> entries) {
        return dir_.book(name, std::move(entries));
    }
    std::string write_raw(const std::string& name, const std::string& bytes) {
        return dir_.raw(name, bytes);
    }

    // A standard-chess OpeningBook of these files with the given settings.
    static OpeningBook load(std::vector<std::string> files, const std::string& selection,
                            int min_weight = 1, int max_depth = 20) {
        config::BookConfig c;
        c.enabled = true;
        c.files["standard"] = std::move(files);
        c.selection = selection;
        c.min_weight = min_weight;
        c.max_depth = max_depth;
        auto book = OpeningBook::load(c, "standard");
        EXPECT_TRUE(book.ok()) << book.error().message;
        return book.ok() ? *book : OpeningBook({}, BookSelection::BestMove, 1, 20);
    }

    // How often each move is chosen in `draws` tries with one seeded generator.
    static std::map<std::string, int> tally(const OpeningBook& book, const engine::Position& p,
                                            int draws, std::uint64_t seed = 42) {
        BookRng rng(seed);
        std::map<std::string, int> counts;
        for (int i = 0; i < draws; ++i) {
            auto choice = book.choose(p, 1, rng);
            if (choice) ++counts[choice->uci];
        }
        return counts;
    }

    // One choice with a fixed seed (for selections that do not draw, or tests of one draw).
    static std::optional<BookChoice> choose_once(const OpeningBook& book, const engine::Position& p,
                                                 int fullmove = 1) {
        BookRng rng(1);
        return book.choose(p, fullmove, rng);
    }

    test_util::BookDir dir_{std::string("book-test-") +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name()};
    const engine::Position start_;
};

TEST_F(BookMove, BestMoveTakesTheHeaviestAndTheFirstOfEqualWeights) {
    const OpeningBook book = load({write("a.bin", {test_util::book_entry(start_, "d2d4", 40),
                                                   test_util::book_entry(start_, "e2e4", 90),
                                                   test_util::book_entry(start_, "c2c4", 90)})},
                                  "best_move");
    BookRng rng(7);
    for (int i = 0; i < 5; ++i) {  // best_move draws nothing: the same move every time
        auto choice = book.choose(start_, 1, rng);
        ASSERT_TRUE(choice);
        EXPECT_EQ(choice->uci, "e2e4");
        EXPECT_EQ(choice->weight, 90);
        EXPECT_EQ(choice->file, (dir_.path() / "a.bin").string());
    }
}

TEST_F(BookMove, WeightedRandomFollowsTheWeightsAndIsDeterministicPerSeed) {
    const OpeningBook book = load({write("a.bin", {test_util::book_entry(start_, "e2e4", 300),
                                                   test_util::book_entry(start_, "d2d4", 100)})},
                                  "weighted_random");
    const auto counts = tally(book, start_, 4000);
    ASSERT_EQ(counts.size(), 2u);
    // 3:1 weights: about 3000 and 1000 (the seed fixes the numbers; the band is generous).
    EXPECT_NEAR(counts.at("e2e4"), 3000, 150);
    EXPECT_NEAR(counts.at("d2d4"), 1000, 150);
    EXPECT_EQ(tally(book, start_, 200, 7), tally(book, start_, 200, 7));
    EXPECT_NE(tally(book, start_, 200, 7), tally(book, start_, 200, 8));
}

TEST_F(BookMove, UniformRandomIgnoresTheWeights) {
    const OpeningBook book = load({write("a.bin", {test_util::book_entry(start_, "e2e4", 1000),
                                                   test_util::book_entry(start_, "d2d4", 1),
                                                   test_util::book_entry(start_, "c2c4", 1)})},
                                  "uniform_random");
    const auto counts = tally(book, start_, 3000);
    ASSERT_EQ(counts.size(), 3u);
    for (const auto& [uci, n] : counts) EXPECT_NEAR(n, 1000, 120) << uci;
}

TEST_F(BookMove, MinWeightDropsLightMoves) {
    const std::string file = write("a.bin", {test_util::book_entry(start_, "e2e4", 5),
                                             test_util::book_entry(start_, "a2a3", 1),
                                             test_util::book_entry(start_, "h2h3", 0)});
    const auto counts = tally(load({file}, "uniform_random", 2), start_, 200);
    ASSERT_EQ(counts.size(), 1u);
    EXPECT_EQ(counts.begin()->first, "e2e4");
    EXPECT_FALSE(choose_once(load({file}, "best_move", 6), start_));
    // min_weight 0 lets weight-0 moves in; weighted_random with weights 0 picks among them.
    const std::string zeros = write("z.bin", {test_util::book_entry(start_, "a2a3", 0),
                                              test_util::book_entry(start_, "h2h3", 0)});
    EXPECT_EQ(tally(load({zeros}, "weighted_random", 0), start_, 400).size(), 2u);
}

TEST_F(BookMove, RepeatedEntriesOfAMoveAddUp) {
    const OpeningBook book = load({write("a.bin", {test_util::book_entry(start_, "d2d4", 30),
                                                   test_util::book_entry(start_, "e2e4", 20),
                                                   test_util::book_entry(start_, "e2e4", 20)})},
                                  "best_move");
    auto choice = choose_once(book, start_);
    ASSERT_TRUE(choice);
    EXPECT_EQ(choice->uci, "e2e4");
    EXPECT_EQ(choice->weight, 40);
}

TEST_F(BookMove, MaxDepthEndsTheBook) {
    engine::Position p = start_;
    ASSERT_TRUE(p.play_uci("e2e4"));
    ASSERT_TRUE(p.play_uci("e7e5"));
    const OpeningBook book = load({write("a.bin", {test_util::book_entry(p, "g1f3", 10)})},
                                  "best_move", 1, /*max_depth=*/2);
    EXPECT_TRUE(choose_once(book, p, 2));
    EXPECT_FALSE(choose_once(book, p, 3));
}

TEST_F(BookMove, BooksAreTriedInOrderAndAnInvalidEntryDoesNotCount) {
    engine::Position e4 = start_;
    ASSERT_TRUE(e4.play_uci("e2e4"));
    // The first book knows the start only through an illegal entry (e2e5) and a light move.
    engine::polyglot::Entry illegal = test_util::book_entry(start_, "e2e4", 50);
    illegal.move = std::uint16_t(engine::E5 | (engine::E2 << 6));
    const std::string first = write("first.bin", {illegal, test_util::book_entry(start_, "a2a3", 1),
                                                  test_util::book_entry(e4, "c7c5", 9)});
    const std::string second = write("second.bin", {test_util::book_entry(start_, "d2d4", 7)});
    const OpeningBook book = load({first, second}, "best_move", 2);
    auto at_start = choose_once(book, start_);
    ASSERT_TRUE(at_start);
    EXPECT_EQ(at_start->uci, "d2d4");
    EXPECT_EQ(at_start->file, second);
    auto reply = choose_once(book, e4);
    ASSERT_TRUE(reply);
    EXPECT_EQ(reply->uci, "c7c5");
    EXPECT_EQ(reply->file, first);
    engine::Position out = start_;
    ASSERT_TRUE(out.play_uci("h2h4"));
    EXPECT_FALSE(choose_once(book, out));
}

TEST_F(BookMove, CastlingComesOutAsLichessTakesIt) {
    const engine::Position p = *engine::Position::from_fen(
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    const OpeningBook book =
        load({write("a.bin", {test_util::book_entry(p, "e1h1", 10)})}, "best_move");
    auto choice = choose_once(book, p, 4);
    ASSERT_TRUE(choice);
    EXPECT_EQ(choice->move.kind(), engine::MoveKind::CASTLING);
    EXPECT_EQ(choice->uci, "e1g1");
}

TEST_F(BookMove, EveryVariantGetsItsFilesAndAFileIsReadOnce) {
    const std::string shared = write("shared.bin", {test_util::book_entry(start_, "e2e4", 1)});
    config::BookConfig c;
    c.enabled = true;
    c.files = {{"standard", {shared}}, {"chess960", {shared}}, {"fromPosition", {}}};
    auto books = OpeningBooks::load(c);
    ASSERT_TRUE(books.ok()) << books.error().message;
    const OpeningBook* standard = books->for_variant("standard");
    const OpeningBook* chess960 = books->for_variant("chess960");
    ASSERT_TRUE(standard && chess960);
    EXPECT_EQ(standard->sources().at(0).book, chess960->sources().at(0).book);
    EXPECT_EQ(books->for_variant("fromPosition"), nullptr);
    EXPECT_EQ(books->for_variant("atomic"), nullptr);

    c.enabled = false;
    auto disabled = OpeningBooks::load(c);
    ASSERT_TRUE(disabled.ok());
    EXPECT_EQ(disabled->for_variant("standard"), nullptr);
}

TEST_F(BookMove, AVariantBookGivesItsMovesInThatVariantsGames) {
    // A crazyhouse book (keys over the board, pockets not in them, as python-chess writes
    // variant books) and a horde book: each answers its own variant's positions, castling
    // king-to-rook as Lichess takes it; a drop has no Polyglot code, so no entry stands for one.
    const auto zh = *engine::Position::from_fen(
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pp] w KQkq - 4 5",
        engine::Variant::CRAZYHOUSE);
    const auto horde = engine::Position::start(engine::Variant::HORDE);
    config::BookConfig c;
    c.enabled = true;
    c.selection = "best_move";
    c.files["crazyhouse"] = {write("zh.bin", {test_util::book_entry(zh, "e1h1", 10)})};
    c.files["horde"] = {write("horde.bin", {test_util::book_entry(horde, "f5f6", 7)})};
    auto books = OpeningBooks::load(c);
    ASSERT_TRUE(books.ok()) << books.error().message;
    BookRng rng(1);
    const auto castle = books->for_variant("crazyhouse")->choose(zh, 5, rng);
    ASSERT_TRUE(castle);
    EXPECT_EQ(castle->uci, "e1g1");
    const auto push = books->for_variant("horde")->choose(horde, 1, rng);
    ASSERT_TRUE(push);
    EXPECT_EQ(push->uci, "f5f6");
    EXPECT_EQ(push->weight, 7);
    // The standard start is not in the horde book, nor the horde start in a standard one.
    EXPECT_FALSE(books->for_variant("horde")->choose(start_, 1, rng));
    EXPECT_EQ(books->for_variant("standard"), nullptr);
}

TEST_F(BookMove, BadFilesAreErrorsThatNameTheFile) {
    const std::string good = write("good.bin", {test_util::book_entry(start_, "e2e4", 1)});
    const std::string truncated =
        write_raw("truncated.bin",
                  test_util::book_bytes({test_util::book_entry(start_, "e2e4", 1)}).substr(0, 13));
    const std::string missing = (dir_.path() / "missing.bin").string();
    const std::string folder = dir_.path().string();
    // Files that are not what they seem, refused before a byte is read: a FIFO (the read hung),
    // a link to /dev/zero and a sparse file past the limit (both were read whole).
    const std::string fifo = (dir_.path() / "fifo.bin").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string zero = (dir_.path() / "zero.bin").string();
    std::filesystem::create_symlink("/dev/zero", zero);
    const std::string huge = write_raw("huge.bin", "");
    std::filesystem::resize_file(huge, config::kMaxBookFileBytes + 16);
    for (const auto& [file, why] : std::vector<std::pair<std::string, std::string>>{
             {truncated, "13 bytes is not a whole number of 16-byte entries"},
             {missing, "does not exist"},
             {folder, "is a folder"},
             {fifo, "FIFO"},
             {zero, "device"},
             {huge, "larger than"}}) {
        config::BookConfig c;
        c.enabled = true;
        c.files = {{"standard", {good, file}}};
        auto books = OpeningBooks::load(c);
        ASSERT_FALSE(books.ok()) << file;
        EXPECT_NE(books.error().message.find("'" + file + "'"), std::string::npos)
            << books.error().message;
        EXPECT_NE(books.error().message.find(why), std::string::npos) << books.error().message;
    }
}

TEST_F(BookMove, EmptyFileIsABookWithoutMoves) {
    const OpeningBook book = load({write_raw("empty.bin", "")}, "best_move");
    EXPECT_FALSE(book.empty());
    EXPECT_FALSE(choose_once(book, start_));
}

}  // namespace
}  // namespace service
