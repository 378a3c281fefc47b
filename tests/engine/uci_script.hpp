// Helpers for the UCI tests: a script of command lines run through engine::Uci, and the move of
// the output's last `bestmove` line.
#pragma once

#include <sstream>
#include <string>

#include "engine/uci.hpp"

namespace uci_script {

inline std::string run(const std::string& script, std::ostringstream* log = nullptr) {
    std::istringstream in(script);
    std::ostringstream out;
    engine::Uci uci(out, log);
    uci.loop(in);
    return out.str();
}

inline std::string bestmove_of(const std::string& output) {
    const auto at = output.rfind("bestmove ");
    if (at == std::string::npos) return "";
    std::istringstream s(output.substr(at + 9));
    std::string m;
    s >> m;
    return m;
}

}  // namespace uci_script
