// The stream loop: chunk framing, keep-alive timing and the per-connection fault behaviour.
#include "stream_writer.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <deque>
#include <random>
#include <thread>

namespace emu {

const char* stream_end_name(StreamEnd e) {
    switch (e) {
        case StreamEnd::COMPLETED:
            return "completed";
        case StreamEnd::DROPPED:
            return "dropped";
        case StreamEnd::PEER_GONE:
            return "peer_gone";
        case StreamEnd::STOPPED:
            return "stopped";
        case StreamEnd::WRITE_FAILED:
            return "write_failed";
    }
    return "?";
}

namespace {

class Writer {
  public:
    Writer(const StreamStart& s, ByteSink& sink) : s_(s), sink_(sink), rng_(s.seed) {
        for (const auto& f : s.faults) {
            if (f.kind == FaultSpec::Kind::DROP && !drop_) drop_ = &f;
            if (f.kind == FaultSpec::Kind::SILENCE && !silence_) silence_ = &f;
            if (f.kind == FaultSpec::Kind::SPLIT && !split_) split_ = &f;
            if (f.kind == FaultSpec::Kind::BATCH && !batch_) batch_ = &f;
            if (f.kind == FaultSpec::Kind::INJECT && !inject_) inject_ = &f;
        }
    }

    StreamEnd run() {
        opened_ = last_write_ = s_.now();
        // Faults with nothing to wait for announce themselves when the connection opens.
        if (split_)
            s_.on_fault(*split_, "chunks of " + std::to_string(split_->min_chunk) + "-" +
                                     std::to_string(split_->max_chunk) + " bytes");
        if (batch_) s_.on_fault(*batch_, "lines held " + std::to_string(batch_->hold_ms) + " ms");
        for (;;) {
            if (s_.stopping()) {
                chunk("");
                return StreamEnd::STOPPED;
            }
            if (sink_.peer_gone()) return StreamEnd::PEER_GONE;
            if (failed_) return StreamEnd::WRITE_FAILED;
            if (drop_ && !drop_->mid_line && due(*drop_)) {
                s_.on_fault(*drop_, "after " + std::to_string(lines_) + " lines");
                return StreamEnd::DROPPED;
            }
            if (silence_ && due(*silence_)) {
                const Ms d = silence_->duration_ms;
                s_.on_fault(*silence_, d > 0 ? std::to_string(d) + " ms" : "until closed");
                silent_until_ = d > 0 ? s_.now() + d : INT64_MAX;
                silence_ = nullptr;
            }
            // A silent stream the server closes (replaced by a new connection) ends normally.
            if (s_.now() < silent_until_ && s_.queue->closed()) silent_until_ = 0;
            if (s_.now() < silent_until_) {
                std::this_thread::sleep_for(
                    std::chrono::milliseconds(std::min<Ms>(20, silent_until_ - s_.now())));
                continue;
            }
            const Ms keepalive_due = last_write_ + s_.keepalive_ms;
            if (pending_.empty()) {
                const Ms wait = std::clamp<Ms>(keepalive_due - s_.now(), 0, 50);
                for (auto& l : s_.queue->pop_all(std::chrono::milliseconds(wait)))
                    pending_.push_back(std::move(l));
                if (batch_ && !pending_.empty()) {
                    const Ms until = s_.now() + batch_->hold_ms;
                    while (s_.now() < until && !s_.queue->closed() && !s_.stopping())
                        for (auto& l : s_.queue->pop_all(
                                 std::chrono::milliseconds(std::min<Ms>(10, until - s_.now()))))
                            pending_.push_back(std::move(l));
                }
            }
            if (pending_.empty()) {
                if (s_.queue->closed_and_empty()) {
                    chunk("");
                    return failed_ ? StreamEnd::WRITE_FAILED : StreamEnd::COMPLETED;
                }
                if (s_.now() >= keepalive_due) {
                    chunk("\n");
                    last_write_ = s_.now();
                }
                continue;
            }
            if (auto end = send()) return *end;
        }
    }

  private:
    bool due(const FaultSpec& f) const {
        return lines_ >= f.after_lines && s_.now() - opened_ >= f.after_ms;
    }

    // One HTTP chunk; the empty one ("0\r\n\r\n") ends the body.
    void chunk(std::string_view data) {
        if (failed_) return;
        char head[24];
        std::snprintf(head, sizeof head, "%zx\r\n", data.size());
        std::string framed = head;
        framed.append(data);
        framed += "\r\n";
        if (!sink_.write(framed)) failed_ = true;
    }

    // Sends queued lines one by one; a drop or silence that falls due between two lines
    // takes effect there (the rest waits in pending_). on_sent is called just before the bytes
    // go out, so a fast client's answer can never arrive before its state counts as sent.
    std::optional<StreamEnd> send() {
        std::string batch;
        std::vector<Line> batched;
        while (!pending_.empty()) {
            if (drop_ && due(*drop_)) {
                if (!batch.empty()) flush_batch(batch, batched);
                if (drop_->mid_line) {
                    const auto& text = pending_.front().text;
                    const auto half = std::max<std::size_t>(1, text.size() / 2);
                    chunk(std::string_view(text).substr(0, half));
                    s_.on_fault(*drop_, "mid-line after " + std::to_string(lines_) + " lines, " +
                                            std::to_string(half) + " bytes of the next");
                } else {
                    s_.on_fault(*drop_, "after " + std::to_string(lines_) + " lines");
                }
                return StreamEnd::DROPPED;
            }
            if (silence_ && due(*silence_)) break;  // the main loop starts the silence
            Line line = std::move(pending_.front());
            pending_.pop_front();
            maybe_inject(line);
            const std::string data = line.text + "\n";
            ++lines_;
            if (batch_ && !split_) {
                batch += data;
                batched.push_back(std::move(line));
                continue;
            }
            s_.on_sent(line);
            if (split_) {
                std::uniform_int_distribution<int> size(split_->min_chunk, split_->max_chunk);
                for (std::size_t pos = 0; pos < data.size();) {
                    const auto n =
                        std::min<std::size_t>(std::size_t(size(rng_)), data.size() - pos);
                    chunk(std::string_view(data).substr(pos, n));
                    pos += n;
                    if (s_.chunk_gap_ms > 0)
                        std::this_thread::sleep_for(std::chrono::milliseconds(s_.chunk_gap_ms));
                }
            } else {
                chunk(data);
            }
            if (failed_) return StreamEnd::WRITE_FAILED;
            last_write_ = s_.now();
        }
        if (!batch.empty()) flush_batch(batch, batched);
        if (failed_) return StreamEnd::WRITE_FAILED;
        return std::nullopt;
    }

    // Bad input from the server: the first line of the wanted type, once due, gets the patch.
    void maybe_inject(Line& line) {
        if (!inject_ || !due(*inject_)) return;
        auto j = nlohmann::json::parse(line.text, nullptr, /*allow_exceptions=*/false);
        if (!j.is_object()) return;
        const std::string type = j.value("type", std::string());
        if (!inject_->line_type.empty() && type != inject_->line_type) return;
        j.merge_patch(nlohmann::json::parse(inject_->patch, nullptr, false));
        line.text = j.dump();
        s_.on_fault(*inject_, "patched a " + (type.empty() ? std::string("line") : type) +
                                  " line after " + std::to_string(lines_) + " lines");
        inject_ = nullptr;
    }

    void flush_batch(std::string& batch, std::vector<Line>& batched) {
        for (const auto& l : batched) s_.on_sent(l);
        chunk(batch);
        last_write_ = s_.now();
        batch.clear();
        batched.clear();
    }

    const StreamStart& s_;
    ByteSink& sink_;
    std::mt19937_64 rng_;
    const FaultSpec* drop_ = nullptr;
    const FaultSpec* silence_ = nullptr;
    const FaultSpec* split_ = nullptr;
    const FaultSpec* batch_ = nullptr;
    const FaultSpec* inject_ = nullptr;
    Ms opened_ = 0, last_write_ = 0;
    Ms silent_until_ = 0;
    int lines_ = 0;
    bool failed_ = false;
    std::deque<Line> pending_;
};

}  // namespace

StreamEnd run_stream(const StreamStart& stream, ByteSink& sink) {
    return Writer(stream, sink).run();
}

}  // namespace emu
