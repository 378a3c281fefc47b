// EPD test positions and their bm answers.
#include "tools/epd/epd.hpp"

#include <cctype>
#include <sstream>

#include "engine/position.hpp"
#include "engine/san.hpp"

namespace epd {

Problem parse_problem(std::string_view line) {
    std::istringstream in{std::string(line)};
    Problem p;
    std::string field;
    for (int i = 0; i < 4 && in >> field; ++i) p.fen += (i ? " " : "") + field;
    std::string rest;
    std::getline(in, rest);
    std::istringstream ops(rest);
    for (std::string op; std::getline(ops, op, ';');) {
        std::istringstream words(op);
        std::string key;
        words >> key;
        if (key == "bm") {
            for (std::string m; words >> m;) p.best.push_back(m);
        } else if (key == "id") {
            std::getline(words >> std::ws, p.id);
            if (p.id.size() >= 2 && p.id.front() == '"' && p.id.back() == '"')
                p.id = p.id.substr(1, p.id.size() - 2);
        }
    }
    return p;
}

engine::Move parse_answer(const engine::Board& board, std::string_view text) {
    if (auto san = engine::parse_san(board, text)) return *san;
    // Long algebraic: the two squares, then an optional promotion piece.
    std::string squares;
    char promo = 0;
    for (char c : text) {
        if ((c >= 'a' && c <= 'h') || (c >= '1' && c <= '8'))
            squares += c;
        else if (squares.size() == 4 && (c == 'N' || c == 'B' || c == 'R' || c == 'Q'))
            promo = c;
    }
    if (squares.size() != 4) return engine::Move::none();
    if (promo) squares += char(std::tolower(static_cast<unsigned char>(promo)));
    auto m = engine::parse_uci_move(board, squares);
    return m ? *m : engine::Move::none();
}

}  // namespace epd
