// The stream writer alone, against an in-memory sink: framing, keep-alives, and each stream
// fault's exact byte pattern.
#include "stream_writer.hpp"

#include "faults.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace emu {
namespace {

struct MemorySink : ByteSink {
    std::vector<std::string> writes;
    bool write(std::string_view d) override {
        writes.emplace_back(d);
        return true;
    }
    bool peer_gone() override { return false; }
    // Decoded chunk payloads (the final empty chunk excluded).
    std::vector<std::string> chunks() const {
        std::vector<std::string> out;
        for (const auto& w : writes) {
            const auto eol = w.find("\r\n");
            const auto size = std::stoul(w.substr(0, eol), nullptr, 16);
            if (size) out.push_back(w.substr(eol + 2, size));
        }
        return out;
    }
    bool terminated() const { return !writes.empty() && writes.back() == "0\r\n\r\n"; }
};

Ms steady_now() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

struct Harness {
    StreamStart start;
    std::vector<std::string> sent;
    std::vector<std::string> faults;
    explicit Harness(std::vector<FaultSpec> f, Ms keepalive = 10000) {
        start.queue = std::make_shared<LineQueue>();
        start.faults = std::move(f);
        start.keepalive_ms = keepalive;
        start.chunk_gap_ms = 0;
        start.now = steady_now;
        start.stopping = [] { return false; };
        start.on_sent = [this](const Line& l) { sent.push_back(l.text); };
        start.on_fault = [this](const FaultSpec& f, const std::string&) {
            faults.push_back(fault_kind_name(f.kind));
        };
        start.on_end = [](StreamEnd, int) {};
    }
    void push(std::initializer_list<const char*> lines) {
        for (const char* l : lines) start.queue->push(Line{l, "", -1, false});
    }
};

TEST(StreamWriter, SendsLinesAsChunksThenTheLastChunk) {
    Harness h({});
    h.push({R"({"a":1})", R"({"b":2})"});
    h.start.queue->close("done");
    MemorySink sink;
    EXPECT_EQ(run_stream(h.start, sink), StreamEnd::COMPLETED);
    EXPECT_EQ(sink.chunks(), (std::vector<std::string>{"{\"a\":1}\n", "{\"b\":2}\n"}));
    EXPECT_TRUE(sink.terminated());
    EXPECT_EQ(h.sent.size(), 2u);
}

TEST(StreamWriter, KeepAlivesWhenIdle) {
    Harness h({}, 20);
    MemorySink sink;
    std::thread closer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        h.start.queue->close("done");
    });
    run_stream(h.start, sink);
    closer.join();
    int keepalives = 0;
    for (const auto& c : sink.chunks()) keepalives += c == "\n";
    EXPECT_GE(keepalives, 2);
}

TEST(StreamWriter, SplitSendsEveryLineIn1To7ByteChunks) {
    FaultSpec f;
    f.kind = FaultSpec::Kind::SPLIT;
    Harness h({f});
    h.push({R"({"type":"gameState","moves":"e2e4 e7e5","status":"started"})"});
    h.start.queue->close("done");
    MemorySink sink;
    run_stream(h.start, sink);
    std::string joined;
    for (const auto& c : sink.chunks()) {
        EXPECT_GE(c.size(), 1u);
        EXPECT_LE(c.size(), 7u);
        joined += c;
    }
    EXPECT_EQ(joined,
              std::string(R"({"type":"gameState","moves":"e2e4 e7e5","status":"started"})") + "\n");
    EXPECT_GT(sink.chunks().size(), 8u);
}

TEST(StreamWriter, BatchPutsManyLinesInOneChunk) {
    FaultSpec f;
    f.kind = FaultSpec::Kind::BATCH;
    f.hold_ms = 50;
    Harness h({f});
    h.push({"{\"n\":1}", "{\"n\":2}", "{\"n\":3}"});
    MemorySink sink;
    std::thread closer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        h.push({"{\"n\":4}"});
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        h.start.queue->close("done");
    });
    run_stream(h.start, sink);
    closer.join();
    ASSERT_FALSE(sink.chunks().empty());
    EXPECT_EQ(sink.chunks()[0], "{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n{\"n\":4}\n");
    EXPECT_EQ(h.sent.size(), 4u);
}

TEST(StreamWriter, DropAfterLinesClosesWithoutTheLastChunk) {
    FaultSpec f;
    f.kind = FaultSpec::Kind::DROP;
    f.after_lines = 2;
    Harness h({f});
    h.push({"{\"n\":1}", "{\"n\":2}", "{\"n\":3}"});
    MemorySink sink;
    EXPECT_EQ(run_stream(h.start, sink), StreamEnd::DROPPED);
    EXPECT_EQ(sink.chunks().size(), 2u);
    EXPECT_FALSE(sink.terminated());
    EXPECT_EQ(h.faults, std::vector<std::string>{"drop"});
}

TEST(StreamWriter, MidLineDropSendsHalfALine) {
    FaultSpec f;
    f.kind = FaultSpec::Kind::DROP;
    f.after_lines = 1;
    f.mid_line = true;
    Harness h({f});
    h.push({"{\"n\":1}", "{\"type\":\"gameState\",\"moves\":\"e2e4\"}"});
    MemorySink sink;
    EXPECT_EQ(run_stream(h.start, sink), StreamEnd::DROPPED);
    ASSERT_EQ(sink.chunks().size(), 2u);
    EXPECT_EQ(sink.chunks()[1],
              std::string("{\"type\":\"gameState\",\"moves\":\"e2e4\"}").substr(0, 17));
    EXPECT_EQ(sink.chunks()[1].find('\n'), std::string::npos);
}

TEST(StreamWriter, SilenceHoldsLinesAndKeepAlives) {
    FaultSpec f;
    f.kind = FaultSpec::Kind::SILENCE;
    f.after_lines = 1;
    f.duration_ms = 150;
    Harness h({f}, 20);
    h.push({"{\"n\":1}", "{\"n\":2}"});
    MemorySink sink;
    std::thread closer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        // Mid-silence nothing but the first line has been written.
        EXPECT_LE(sink.writes.size(), 1u);
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        h.start.queue->close("done");
    });
    run_stream(h.start, sink);
    closer.join();
    const auto chunks = sink.chunks();
    ASSERT_GE(chunks.size(), 2u);
    EXPECT_EQ(chunks[0], "{\"n\":1}\n");
    EXPECT_EQ(chunks[1], "{\"n\":2}\n");
}

}  // namespace
}  // namespace emu
