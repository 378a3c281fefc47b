// The random mover's UCI loop: the positions are the engine library's, the choice is not.
#include "tools/match/random_mover.hpp"

#include <istream>
#include <ostream>
#include <sstream>
#include <string>

#include "engine/position.hpp"
#include "tools/match/openings.hpp"

namespace match {

void run_random_mover(std::istream& in, std::ostream& out, std::uint64_t seed) {
    Rng rng(seed);
    engine::Variant variant = engine::Variant::STANDARD;
    engine::Position pos;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string cmd;
        words >> cmd;
        if (cmd == "uci") {
            out << "id name Random mover\noption name UCI_Variant type combo default chess";
            for (const engine::Variant v : engine::ALL_VARIANTS)
                out << " var " << engine::uci_name(v);
            out << "\nuciok" << std::endl;
        } else if (cmd == "isready") {
            out << "readyok" << std::endl;
        } else if (cmd == "setoption") {
            // "setoption name UCI_Variant value <name>"; other options are accepted and unused.
            std::string name_word, name, value_word, value;
            words >> name_word >> name >> value_word >> value;
            if (name == "UCI_Variant")
                if (const auto v = engine::parse_variant(value)) variant = *v;
            pos = engine::Position::start(variant);
        } else if (cmd == "ucinewgame") {
            pos = engine::Position::start(variant);
        } else if (cmd == "position") {
            std::string what, word;
            words >> what;
            if (what == "fen") {
                std::string fen;
                while (words >> word && word != "moves") fen += (fen.empty() ? "" : " ") + word;
                auto p = engine::Position::from_fen(fen, variant);
                if (!p) {
                    out << "info string error: bad FEN: " << p.error() << std::endl;
                    continue;
                }
                pos = *p;
            } else {
                pos = engine::Position::start(variant);
                words >> word;  // "moves"
            }
            while (words >> word)
                if (!pos.play_uci(word)) {
                    out << "info string error: illegal move " << word << std::endl;
                    break;
                }
        } else if (cmd == "go") {
            const auto legal = pos.legal_moves();
            out << "bestmove "
                << (legal.empty() ? "0000" : pos.to_uci(legal[rng.below(legal.size())]))
                << std::endl;
        } else if (cmd == "quit") {
            return;
        }
    }
}

}  // namespace match
