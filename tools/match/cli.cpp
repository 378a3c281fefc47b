// Parsing of the match runner's arguments into a MatchConfig.
#include "tools/match/cli.hpp"

#include <charconv>
#include <map>
#include <sstream>

namespace match {

namespace {

struct Group {
    std::string name;  // "--engine"
    std::vector<std::string> values;
};

std::optional<long long> to_number(const std::string& s) {
    long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size() || v < 0) return std::nullopt;
    return v;
}

std::vector<std::string> split_words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// Applies one `key=value` of an --engine or --each group to an engine.
std::optional<std::string> apply_engine_pair(EngineSpec& e, TimeControl& tc, const std::string& key,
                                             const std::string& value) {
    if (key == "name") {
        e.name = value;
    } else if (key == "cmd") {
        e.cmd = value;
    } else if (key == "args") {
        e.args = split_words(value);
    } else if (key.rfind("option.", 0) == 0 && key.size() > 7) {
        e.options.emplace_back(key.substr(7), value);
    } else if (key == "tc") {
        const auto clock = parse_clock(value);
        if (!clock) return "tc=" + value + ": expected seconds+increment, such as 10+0.1";
        tc.base_ms = clock->base_ms;
        tc.inc_ms = clock->inc_ms;
    } else if (key == "movetime" || key == "nodes" || key == "depth") {
        const auto n = to_number(value);
        if (!n || *n == 0) return key + "=" + value + ": expected a positive whole number";
        if (key == "movetime") tc.movetime_ms = *n;
        if (key == "nodes") tc.nodes = *n;
        if (key == "depth") tc.depth = int(*n);
    } else {
        return "unknown key '" + key + "'";
    }
    return std::nullopt;
}

}  // namespace

std::variant<MatchConfig, std::string> parse_command_line(const std::vector<std::string>& args) {
    std::vector<Group> groups;
    for (const std::string& a : args) {
        if (a.rfind("--", 0) == 0)
            groups.push_back({a, {}});
        else if (groups.empty())
            return "expected an option starting with --, got '" + a + "'";
        else
            groups.back().values.push_back(a);
    }

    MatchConfig config;
    int engines = 0;
    bool have_variant = false;
    std::vector<std::pair<std::string, std::string>> each;
    for (const Group& g : groups) {
        std::map<std::string, std::string> pairs;
        std::vector<std::pair<std::string, std::string>> ordered;
        const bool keyed = g.name == "--engine" || g.name == "--each" || g.name == "--openings" ||
                           g.name == "--resign" || g.name == "--draw";
        if (keyed) {
            for (const std::string& v : g.values) {
                const auto eq = v.find('=');
                if (eq == std::string::npos || eq == 0)
                    return g.name + ": expected key=value, got '" + v + "'";
                pairs[v.substr(0, eq)] = v.substr(eq + 1);
                ordered.emplace_back(v.substr(0, eq), v.substr(eq + 1));
            }
        } else if (g.values.size() != 1) {
            return g.name + " takes one value";
        }
        auto number = [&](const std::string& key, long long& out) -> std::optional<std::string> {
            const auto it = pairs.find(key);
            if (it == pairs.end()) return std::nullopt;
            const auto n = to_number(it->second);
            if (!n) return g.name + " " + key + "=" + it->second + ": expected a whole number";
            out = *n;
            return std::nullopt;
        };
        auto single = [&](long long& out) -> std::optional<std::string> {
            const auto n = to_number(g.values[0]);
            if (!n) return g.name + " " + g.values[0] + ": expected a whole number";
            out = *n;
            return std::nullopt;
        };
        long long n = 0;
        std::optional<std::string> error;
        if (g.name == "--variant") {
            const auto v = engine::parse_variant(g.values[0]);
            if (!v) return "--variant: unknown variant '" + g.values[0] + "'";
            config.variant = *v;
            have_variant = true;
        } else if (g.name == "--engine") {
            if (engines == 2) return "--engine: a match has two engines";
            for (const auto& [key, value] : ordered)
                if (auto e =
                        apply_engine_pair(config.engines[engines], config.time_control, key, value))
                    return "--engine: " + *e;
            ++engines;
        } else if (g.name == "--each") {
            each = ordered;
        } else if (g.name == "--games") {
            error = single(n);
            config.games = int(n);
        } else if (g.name == "--concurrency") {
            error = single(n);
            config.concurrency = int(n);
        } else if (g.name == "--margin") {
            error = single(n);
            config.margin_ms = n;
        } else if (g.name == "--maxplies") {
            error = single(n);
            config.adjudication.max_plies = int(n);
        } else if (g.name == "--pgn") {
            config.pgn_path = g.values[0];
        } else if (g.name == "--openings") {
            long long seed = 1, plies = config.opening_plies;
            if ((error = number("plies", plies)) || (error = number("seed", seed))) return *error;
            config.opening_plies = int(plies);
            config.seed = std::uint64_t(seed);
        } else if (g.name == "--resign") {
            long long moves = 0, score = config.adjudication.resign_score;
            if ((error = number("movecount", moves)) || (error = number("score", score)))
                return *error;
            config.adjudication.resign_moves = int(moves);
            config.adjudication.resign_score = int(score);
        } else if (g.name == "--draw") {
            long long after = 0, moves = 0, score = 0;
            if ((error = number("movenumber", after)) || (error = number("movecount", moves)) ||
                (error = number("score", score)))
                return *error;
            config.adjudication.draw_after_move = int(after);
            config.adjudication.draw_moves = int(moves);
            config.adjudication.draw_score = int(score);
        } else {
            return "unknown option '" + g.name + "'";
        }
        if (error) return *error;
    }
    if (!have_variant) return "--variant is required (a Lichess key or a UCI_Variant name)";
    if (engines != 2) return "two --engine groups are required";
    for (auto& e : config.engines) {
        for (const auto& [key, value] : each)
            if (auto err = apply_engine_pair(e, config.time_control, key, value))
                return "--each: " + *err;
        if (e.cmd.empty()) return "--engine: cmd= is required";
        if (e.name.empty()) e.name = e.cmd;
    }
    const TimeControl& tc = config.time_control;
    if (!tc.has_clock() && !tc.movetime_ms && !tc.nodes && !tc.depth)
        return "no time control: give tc=, movetime=, nodes= or depth= (in --each)";
    if (config.engines[0].name == config.engines[1].name) config.engines[1].name += "-2";
    return config;
}

}  // namespace match
