// NdjsonStream framing: the same byte stream in every chunking yields the same lines and events.
#include "lichess_client/ndjson_stream.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "lichess_client/events.hpp"
#include "test_data.hpp"

namespace lichess {
namespace {

using Lines = std::vector<std::string>;

// Real event-stream lines from the spec examples, with keep-alives, CRLF and an unterminated end.
struct Corpus {
    Lines lines;
    std::string bytes;
};

Corpus make_corpus() {
    Corpus c;
    for (const char* name :
         {"stream-challenge.json", "stream-challengeCanceled.json", "stream-challengeDeclined.json",
          "stream-gameStart.json", "stream-gameStart-ai.json", "stream-gameFinish.json",
          "stream-gameFinish-ai.json"}) {
        c.lines.push_back(test::read_example(name));
    }
    c.bytes = "\n";  // a keep-alive first
    for (std::size_t i = 0; i < c.lines.size(); ++i) {
        c.bytes += c.lines[i];
        if (i + 1 == c.lines.size()) break;  // the last line has no newline at all
        c.bytes += (i % 2 == 0) ? "\r\n" : "\n";
        if (i % 3 == 0) c.bytes += "\n\r\n";  // keep-alives between lines, one of them CRLF
    }
    return c;
}

Lines frame(const std::string& bytes, const std::vector<std::size_t>& sizes) {
    NdjsonStream s;
    Lines out;
    const auto on_line = [&](std::string_view l) { out.emplace_back(l); };
    std::size_t pos = 0;
    for (std::size_t i = 0; pos < bytes.size(); ++i) {
        const std::size_t n =
            std::min(sizes.empty() ? bytes.size() : sizes[i % sizes.size()], bytes.size() - pos);
        s.feed(std::string_view(bytes).substr(pos, n), on_line);
        pos += n;
    }
    s.finish(on_line);
    return out;
}

TEST(NdjsonStream, AllAtOnce) {
    const Corpus c = make_corpus();
    EXPECT_EQ(frame(c.bytes, {}), c.lines);
}

TEST(NdjsonStream, OneByteChunks) {
    const Corpus c = make_corpus();
    EXPECT_EQ(frame(c.bytes, {1}), c.lines);
}

TEST(NdjsonStream, EverySplitPointInTwoChunks) {
    const Corpus c = make_corpus();
    for (std::size_t cut = 0; cut <= c.bytes.size(); ++cut) {
        NdjsonStream s;
        Lines out;
        const auto on_line = [&](std::string_view l) { out.emplace_back(l); };
        s.feed(std::string_view(c.bytes).substr(0, cut), on_line);
        s.feed(std::string_view(c.bytes).substr(cut), on_line);
        s.finish(on_line);
        ASSERT_EQ(out, c.lines) << "split at " << cut;
    }
}

TEST(NdjsonStream, RandomChunkSizesWithFixedSeeds) {
    const Corpus c = make_corpus();
    for (std::uint32_t seed = 1; seed <= 50; ++seed) {
        std::mt19937 rng(seed);
        std::uniform_int_distribution<std::size_t> size(1, 97);
        std::vector<std::size_t> sizes(64);
        for (auto& s : sizes) s = size(rng);
        ASSERT_EQ(frame(c.bytes, sizes), c.lines) << "seed " << seed;
    }
}

TEST(NdjsonStream, EveryChunkingGivesTheSameEvents) {
    const Corpus c = make_corpus();
    const auto events_of = [](const Lines& lines) {
        std::vector<std::string> kinds;
        for (const auto& l : lines) {
            auto e = parse_event(l);
            EXPECT_TRUE(e.ok()) << l;
            if (e.ok() && e.value()) kinds.emplace_back(type_name(*e.value()));
        }
        return kinds;
    };
    const std::vector<std::string> expected{"challenge", "challengeCanceled", "challengeDeclined",
                                            "gameStart", "gameStart",         "gameFinish",
                                            "gameFinish"};
    EXPECT_EQ(events_of(frame(c.bytes, {})), expected);
    EXPECT_EQ(events_of(frame(c.bytes, {1})), expected);
    EXPECT_EQ(events_of(frame(c.bytes, {7, 3, 250})), expected);
}

TEST(NdjsonStream, KeepAlivesAreCountedNotDelivered) {
    NdjsonStream s;
    Lines out;
    s.feed("\n\n\r\n{\"a\":1}\n\n", [&](std::string_view l) { out.emplace_back(l); });
    EXPECT_EQ(out, Lines{"{\"a\":1}"});
    EXPECT_EQ(s.keep_alives(), 4u);
    EXPECT_EQ(s.lines(), 1u);
}

TEST(NdjsonStream, ManyLinesInOneChunk) {
    NdjsonStream s;
    Lines out;
    s.feed("{\"a\":1}\n{\"b\":2}\r\n{\"c\":3}\n{\"d\"",
           [&](std::string_view l) { out.emplace_back(l); });
    EXPECT_EQ(out, (Lines{"{\"a\":1}", "{\"b\":2}", "{\"c\":3}"}));
    EXPECT_EQ(s.buffered(), 4u);
}

TEST(NdjsonStream, ResetDiscardsPartialLine) {
    NdjsonStream s;
    Lines out;
    const auto on_line = [&](std::string_view l) { out.emplace_back(l); };
    s.feed("{\"type\":\"gameSt", on_line);
    s.reset();  // the connection dropped mid-line
    s.feed("{\"x\":1}\n", on_line);
    s.finish(on_line);
    EXPECT_EQ(out, Lines{"{\"x\":1}"});
}

TEST(NdjsonStream, OverlongLineIsDroppedAndFramingRecovers) {
    NdjsonStream s(16);
    Lines out;
    const auto on_line = [&](std::string_view l) { out.emplace_back(l); };
    s.feed(std::string(10, 'x'), on_line);
    s.feed(std::string(10, 'y'), on_line);  // now over the limit
    s.feed("zz\n{\"ok\":1}\n", on_line);
    EXPECT_EQ(out, Lines{"{\"ok\":1}"});
}

TEST(NdjsonStream, FinishWithoutPartialIsNoop) {
    NdjsonStream s;
    Lines out;
    const auto on_line = [&](std::string_view l) { out.emplace_back(l); };
    s.feed("{\"a\":1}\n", on_line);
    s.finish(on_line);
    s.finish(on_line);
    EXPECT_EQ(out.size(), 1u);
}

}  // namespace
}  // namespace lichess
