// Perft counting and perft EPD parsing.
#include "perft.hpp"

#include <charconv>

#include "movegen.hpp"

namespace engine {

template <Variant V>
std::uint64_t perft(const BasicBoard<V>& board, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return count_legal_moves(board);
    MoveListOf<V> moves;
    generate_moves(board, moves);
    std::uint64_t nodes = 0;
    for (const Move m : moves) {
        BasicBoard<V> next = board;
        next.make_move(m);
        nodes += perft(next, depth - 1);
    }
    return nodes;
}

template <Variant V>
std::vector<std::pair<Move, std::uint64_t>> perft_divide(const BasicBoard<V>& board, int depth) {
    std::vector<std::pair<Move, std::uint64_t>> result;
    MoveListOf<V> moves;
    generate_moves(board, moves);
    for (const Move m : moves) {
        BasicBoard<V> next = board;
        next.make_move(m);
        result.emplace_back(m, depth <= 1 ? 1 : perft(next, depth - 1));
    }
    return result;
}

#define OUTPOST_INSTANTIATE(V)                                  \
    template std::uint64_t perft<V>(const BasicBoard<V>&, int); \
    template std::vector<std::pair<Move, std::uint64_t>> perft_divide<V>(const BasicBoard<V>&, int);
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

namespace {
std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() &&
           (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}
}  // namespace

Result<std::optional<PerftCase>> parse_perft_line(std::string_view line) {
    using R = Result<std::optional<PerftCase>>;
    line = trim(line);
    if (line.empty() || line.front() == '#') return std::optional<PerftCase>{};
    PerftCase c;
    std::size_t semi = line.find(';');
    c.fen = std::string(trim(line.substr(0, semi)));
    while (semi != std::string_view::npos) {
        const std::size_t next = line.find(';', semi + 1);
        const std::string_view field = trim(line.substr(
            semi + 1, next == std::string_view::npos ? std::string_view::npos : next - semi - 1));
        semi = next;
        if (field.starts_with("id ")) {
            std::string_view id = trim(field.substr(3));
            if (id.size() >= 2 && id.front() == '"' && id.back() == '"')
                id = id.substr(1, id.size() - 2);
            c.id = std::string(id);
            continue;
        }
        if (field.size() < 2 || field[0] != 'D') continue;  // other EPD opcodes are ignored
        const std::size_t space = field.find(' ');
        int depth = 0;
        std::uint64_t nodes = 0;
        const auto d =
            field.substr(1, space == std::string_view::npos ? std::string_view::npos : space - 1);
        const auto n =
            space == std::string_view::npos ? std::string_view{} : trim(field.substr(space + 1));
        if (std::from_chars(d.data(), d.data() + d.size(), depth).ec != std::errc() || depth < 1 ||
            depth > 20 || n.empty() ||
            std::from_chars(n.data(), n.data() + n.size(), nodes).ec != std::errc())
            return R::failure("perft field '" + std::string(field) + "' is not like 'D3 8902'");
        c.expected.emplace_back(depth, nodes);
    }
    if (c.expected.empty()) return R::failure("perft line has no ';D<depth> <nodes>' field");
    return std::optional<PerftCase>{std::move(c)};
}

std::vector<PerftSuiteEntry> parse_perft_suite(std::string_view text) {
    std::vector<PerftSuiteEntry> entries;
    std::string id;
    int line_no = 0;
    while (!text.empty()) {
        const std::size_t end = text.find('\n');
        const std::string_view line = trim(text.substr(0, end));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
        ++line_no;
        if (line.starts_with("id ")) {
            id = std::string(trim(line.substr(3)));
        } else if (line.starts_with("epd ")) {
            PerftCase c;
            c.fen = std::string(trim(line.substr(4)));
            c.id = id;
            entries.push_back({line_no, std::move(c), {}});
        } else if (line.starts_with("perft ")) {
            const std::string_view rest = trim(line.substr(6));
            const std::size_t space = rest.find(' ');
            int depth = 0;
            std::uint64_t nodes = 0;
            const std::string_view d = rest.substr(0, space);
            const std::string_view n =
                space == std::string_view::npos ? std::string_view{} : trim(rest.substr(space));
            if (entries.empty() || !entries.back().test) {
                entries.push_back({line_no, std::nullopt, "perft line follows no 'epd' line"});
            } else if (std::from_chars(d.data(), d.data() + d.size(), depth).ec != std::errc() ||
                       depth < 1 || depth > 20 || n.empty() ||
                       std::from_chars(n.data(), n.data() + n.size(), nodes).ec != std::errc()) {
                entries.push_back(
                    {line_no, std::nullopt,
                     "perft line '" + std::string(line) + "' is not like 'perft 3 8902'"});
            } else {
                entries.back().test->expected.emplace_back(depth, nodes);
            }
        } else {
            auto parsed = parse_perft_line(line);
            if (!parsed)
                entries.push_back({line_no, std::nullopt, parsed.error()});
            else if (parsed->has_value())
                entries.push_back({line_no, std::move(**parsed), {}});
        }
    }
    return entries;
}

}  // namespace engine
