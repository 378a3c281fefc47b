// Fuzz target: NNUE net files. The input is a whole file, or (first byte odd) a patch over
// the embedded net: a 4-byte offset, a flag byte (bit 0: truncate after the patch, bit 1: fix
// the checksum so the weight checks and the evaluation are reached), then the bytes to write.
// A file that parses (as the engine's shape, and alike through the trainer's reader of every
// version) evaluates positions within the eval range, the vector path equal to the
// scalar one and incremental updates equal to a refresh; one that does not gives an error.
#include <cstring>
#include <vector>

#include "engine/evaluate.hpp"
#include "engine/fen.hpp"
#include "engine/movegen.hpp"
#include "engine/nnue.hpp"
#include "fuzz_check.hpp"
#include "fuzz_positions.hpp"

namespace {

namespace nnue = engine::nnue;

void fix_checksum(std::vector<unsigned char>& bytes) {
    if (bytes.size() < 8) return;
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::size_t i = 0; i + 8 < bytes.size(); ++i) h = (h ^ bytes[i]) * 0x100000001b3ULL;
    for (int i = 0; i < 8; ++i)
        bytes[bytes.size() - 8 + std::size_t(i)] = (unsigned char)(h >> (8 * i));
}

void check_net(const nnue::Network& net) {
    for (const auto& named : fuzz::kPositions) {
        const auto parsed = engine::parse_fen(named.fen, named.chess960);
        if (!parsed) continue;
        engine::Board b = *parsed;
        nnue::Accumulator acc;
        nnue::refresh(net, b, acc);
        for (int ply = 0; ply < 4; ++ply) {
            const int v = nnue::evaluate(net, acc, b);
            fuzz::check(v == nnue::evaluate_scalar(net, acc, b), "vector == scalar");
            fuzz::check(v > -engine::EVAL_MAX && v < engine::EVAL_MAX, "eval in range");
            const engine::MoveList moves = engine::legal_moves(b);
            if (moves.empty()) break;
            engine::Board next = b;
            next.make_move(moves[ply % moves.size()]);
            nnue::Accumulator inc, fresh;
            nnue::update(net, b, next, acc, inc);
            nnue::refresh(net, next, fresh);
            fuzz::check(std::memcmp(&inc, &fresh, sizeof inc) == 0, "update == refresh");
            b = next;
            acc = inc;
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<unsigned char> bytes;
    if (size >= 6 && (data[0] & 1)) {
        const auto embedded = nnue::embedded_network();
        if (!embedded) return 0;
        bytes = nnue::serialize(*embedded);
        std::uint32_t offset = 0;
        std::memcpy(&offset, data + 1, 4);
        offset %= std::uint32_t(bytes.size());
        const std::uint8_t flags = data[5];
        std::size_t end = offset;
        for (std::size_t i = 6; i < size && end < bytes.size(); ++i) bytes[end++] = data[i];
        if (flags & 1) bytes.resize(end);
        if (flags & 2) fix_checksum(bytes);
    } else {
        bytes.assign(data, data + size);
    }
    // The trainer's reader takes every version and width; it must refuse as clearly.
    const auto any = nnue::read_net_file(bytes.data(), bytes.size());
    if (!any) fuzz::check(!any.error().empty(), "a net file error names the problem");
    const auto net = nnue::parse_network(bytes.data(), bytes.size());
    if (net)
        fuzz::check(
            any && any->hidden == std::uint32_t(nnue::HIDDEN) &&
                any->out_weights.size() == std::size_t(nnue::OUTPUT_BUCKETS) * 2 * nnue::HIDDEN,
            "what the engine reads, the trainer reads alike");
    if (!net) {
        fuzz::check(!net.error().empty(), "a net file error names the problem");
        return 0;
    }
    fuzz::check(bytes.size() == nnue::file_size((*net)->kings), "only a whole file parses");
    fuzz::check(nnue::serialize(**net) == bytes, "a parsed net prints back to its bytes");
    check_net(**net);
    return 0;
}
