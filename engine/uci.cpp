// UCI command parsing and output formatting.
#include "uci.hpp"

#include <chrono>
#include <random>
#include <sstream>
#include <vector>

#include "fen.hpp"
#include "perft.hpp"

namespace engine {

namespace {

std::vector<std::string> split(std::string_view s) {
    std::vector<std::string> out;
    std::istringstream in{std::string(s)};
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

}  // namespace

std::string format_info(const Position& root, const SearchInfo& info) {
    std::ostringstream s;
    s << "info depth " << info.depth << " seldepth " << info.seldepth << " multipv 1 score "
      << (info.score.is_mate ? "mate " : "cp ") << info.score.value;
    if (info.bound == BOUND_LOWER) s << " lowerbound";
    if (info.bound == BOUND_UPPER) s << " upperbound";
    s << " nodes " << info.nodes << " nps " << info.nps;
    if (info.tbhits > 0) s << " tbhits " << info.tbhits;
    s << " hashfull " << info.hashfull << " time " << info.time_ms;
    if (!info.pv.empty()) {
        s << " pv";
        root.visit([&](const auto& board) {
            auto b = board;
            for (Move m : info.pv) {
                if (!is_legal(b, m)) break;  // never print an illegal tail
                s << ' ' << move_to_uci(b, m);
                b.make_move(m);
            }
        });
    }
    return s.str();
}

Uci::Uci(std::ostream& out, std::ostream* debug_log) : out_(out), debug_log_(debug_log) {
    new_level_seed();
}

void Uci::new_level_seed() {
    // LevelSeed 0: each game its own choices; a fixed seed replays them.
    level_seed_ = level_seed_option_ != 0
                      ? level_seed_option_
                      : (std::uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
    apply_strength();
}

void Uci::apply_strength() {
    engine_.set_strength(limit_strength_ ? std::optional<Strength>(Strength{elo_, level_seed_})
                                         : std::nullopt);
}

Uci::~Uci() { stop_search(); }

void Uci::println(const std::string& line) {
    std::lock_guard lock(out_mutex_);
    out_ << line << '\n' << std::flush;
}

void Uci::debug(const std::string& line) {
    if (!debug_log_) return;
    std::lock_guard lock(out_mutex_);
    *debug_log_ << "uci: " << line << '\n' << std::flush;
}

void Uci::wait_for_search() {
    if (search_thread_.joinable()) search_thread_.join();
}

void Uci::stop_search() {
    stop_ = true;
    wait_for_search();
}

void Uci::finish_search() {
    if (last_go_unbounded_) stop_ = true;
    wait_for_search();
}

void Uci::loop(std::istream& in) {
    // std::cin is tied to std::cout: every read would flush the output from this thread,
    // outside out_mutex_, racing the search thread's lines (seen as a bestmove printed twice
    // when a GUI answers fast). Every line is flushed under the mutex anyway.
    in.tie(nullptr);
    for (std::string line; std::getline(in, line);)
        if (!handle(line)) return;
    finish_search();
}

bool Uci::handle(std::string_view line) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    const auto first = line.find_first_not_of(' ');
    if (first == std::string_view::npos) return true;
    line.remove_prefix(first);
    const auto space = line.find(' ');
    const std::string cmd{line.substr(0, space)};
    const std::string_view args = space == std::string_view::npos ? "" : line.substr(space + 1);

    if (cmd == "uci") {
        cmd_uci();
    } else if (cmd == "isready") {
        println("readyok");
    } else if (cmd == "ucinewgame") {
        finish_search();
        engine_.new_game();
        new_level_seed();
        pos_ = start_position();
    } else if (cmd == "setoption") {
        cmd_setoption(args);
    } else if (cmd == "position") {
        cmd_position(args);
    } else if (cmd == "go") {
        cmd_go(args);
    } else if (cmd == "stop") {
        stop_search();
    } else if (cmd == "ponderhit") {
        engine_.ponderhit();
        last_go_unbounded_ = false;
    } else if (cmd == "quit") {
        stop_search();
        return false;
    } else if (cmd == "d") {
        println(pos_.fen());
    } else {
        debug("ignored unknown command '" + std::string(line) + "'");
    }
    return true;
}

void Uci::cmd_uci() {
    println(std::string("id name Outpost ") + OUTPOST_VERSION);
    println("id author the Outpost developers");
    println("option name Hash type spin default 16 min 1 max 65536");
    println("option name Threads type spin default 1 min 1 max 256");
    println("option name Move Overhead type spin default 10 min 0 max 10000");
    println("option name UCI_Chess960 type check default false");
    std::string variants = "option name UCI_Variant type combo default chess";
    for (const Variant v : ALL_VARIANTS) variants += " var " + std::string(uci_name(v));
    println(variants);
    println("option name Ponder type check default false");
    println("option name Clear Hash type button");
    println(std::string("option name UseNNUE type check default ") +
            (engine_.nnue() ? "true" : "false"));
    println("option name EvalFile type string default <embedded>");
    println("option name GaviotaTbPath type string default <empty>");
    println("option name GaviotaTbMaxPieces type spin default 5 min 3 max 5");
    println("option name SyzygyPath type string default <empty>");
    println("option name SyzygyProbeLimit type spin default " +
            std::to_string(kSyzygyProbeLimitMax) + " min 0 max " +
            std::to_string(kSyzygyProbeLimitMax));
    println("option name UCI_LimitStrength type check default false");
    println("option name UCI_Elo type spin default " + std::to_string(DEFAULT_UCI_ELO) + " min " +
            std::to_string(MIN_LEVEL_ELO) + " max " + std::to_string(MAX_LEVEL_ELO));
    println("option name LevelSeed type spin default 0 min 0 max 2147483647");
    println("uciok");
}

void Uci::cmd_setoption(std::string_view args) {
    // "name <words...> [value <words...>]"; option names are case-insensitive.
    const auto tokens = split(args);
    std::string name, value;
    std::string* target = nullptr;
    for (const auto& t : tokens) {
        if (t == "name")
            target = &name;
        else if (t == "value")
            target = &value;
        else if (target)
            *target += (target->empty() ? "" : " ") + t;
    }
    name = lower(name);
    auto as_int = [&](int lo, int hi) -> std::optional<int> {
        try {
            const int v = std::stoi(value);
            if (v >= lo && v <= hi) return v;
        } catch (const std::exception&) {}
        debug("bad value '" + value + "' for option '" + name + "'");
        return std::nullopt;
    };
    if (name == "hash") {
        if (auto v = as_int(1, 65536)) finish_search(), engine_.set_hash_mb(*v);
    } else if (name == "threads") {
        if (auto v = as_int(1, 256)) finish_search(), engine_.set_threads(*v);
    } else if (name == "move overhead") {
        if (auto v = as_int(0, 10000)) move_overhead_ms_ = *v;
    } else if (name == "uci_chess960") {
        chess960_ = lower(value) == "true";
    } else if (name == "uci_variant") {
        set_variant(value);
    } else if (name == "ponder") {
        // Nothing to set: pondering is driven by `go ponder` and `ponderhit`.
    } else if (name == "clear hash") {
        finish_search();
        engine_.clear_hash();
    } else if (name == "usennue") {
        finish_search();
        engine_.set_nnue(lower(value) == "true");
        if (lower(value) == "true" && !engine_.nnue())
            println("info string error: UseNNUE: no net loaded, the hand-crafted evaluation stays");
    } else if (name == "evalfile") {
        finish_search();
        const auto r = engine_.load_net(value.empty() ? "<embedded>" : value);
        println(r ? "info string EvalFile: loaded " + value
                  : "info string error: EvalFile: " + r.error() + "; the previous net stays");
    } else if (name == "gaviotatbpath") {
        finish_search();
        set_tablebase_path(value);
    } else if (name == "gaviotatbmaxpieces") {
        if (auto v = as_int(3, 5)) finish_search(), engine_.set_tablebase(engine_.tablebase(), *v);
    } else if (name == "syzygypath") {
        finish_search();
        set_syzygy_path(value);
    } else if (name == "syzygyprobelimit") {
        if (auto v = as_int(0, kSyzygyProbeLimitMax))
            finish_search(), engine_.set_syzygy(engine_.syzygy(), *v);
    } else if (name == "uci_limitstrength") {
        finish_search();
        limit_strength_ = lower(value) == "true";
        apply_strength();
    } else if (name == "uci_elo") {
        if (auto v = as_int(MIN_LEVEL_ELO, MAX_LEVEL_ELO))
            finish_search(), elo_ = *v, apply_strength();
    } else if (name == "levelseed") {
        if (auto v = as_int(0, 2147483647)) {
            finish_search();
            level_seed_option_ = std::uint64_t(*v);
            new_level_seed();
        }
    } else {
        debug("ignored unknown option '" + name + "'");
    }
}

void Uci::set_tablebase_path(const std::string& value) {
    // The library holds one set per process: the old set goes before the new one loads.
    const int max_pieces = engine_.tablebase_max_pieces();
    engine_.set_tablebase(nullptr, max_pieces);
    const std::vector<std::string> folders = split_tablebase_paths(value);
    if (folders.empty()) {
        println("info string GaviotaTbPath: no tablebases");
        return;
    }
    auto tb = Tablebase::load(folders);
    if (!tb) {
        println("info string error: GaviotaTbPath: " + tb.error() + "; no tablebases are used");
        return;
    }
    println("info string GaviotaTbPath: " + (*tb)->describe());
    engine_.set_tablebase(*tb, max_pieces);
}

void Uci::set_syzygy_path(const std::string& value) {
    // The library holds one set per process: the old set goes before the new one loads.
    const int limit = engine_.syzygy_probe_limit();
    engine_.set_syzygy(nullptr, limit);
    const std::vector<std::string> folders = split_syzygy_paths(value);
    if (folders.empty()) {
        println("info string SyzygyPath: no tablebases");
        return;
    }
    auto tb = Syzygy::load(folders);
    if (!tb) {
        println("info string error: SyzygyPath: " + tb.error() + "; no Syzygy tables are used");
        return;
    }
    for (const std::string& problem : (*tb)->problems())
        println("info string error: SyzygyPath: " + problem);
    println("info string SyzygyPath: " + (*tb)->describe());
    engine_.set_syzygy(*tb, limit);
}

void Uci::set_variant(const std::string& value) {
    const auto v = parse_variant(value);
    if (!v) {
        println("info string error: UCI_Variant: unknown variant '" + value + "'; it stays " +
                std::string(uci_name(variant_)));
        return;
    }
    finish_search();
    if (*v != variant_) engine_.new_game();  // the TT and histories belong to the old game
    variant_ = *v;
    pos_ = start_position();
}

Position Uci::start_position() const {
    if (!chess960_) return Position::start(variant_);
    auto p = Position::from_fen(start_fen(variant_), variant_, true);
    return p ? *p : Position::start(variant_);
}

void Uci::cmd_position(std::string_view args) {
    const auto tokens = split(args);
    std::size_t i = 0;
    Position next = start_position();
    if (i < tokens.size() && tokens[i] == "startpos") {
        ++i;
    } else if (i < tokens.size() && tokens[i] == "fen") {
        std::string fen;
        for (++i; i < tokens.size() && tokens[i] != "moves"; ++i)
            fen += (fen.empty() ? "" : " ") + tokens[i];
        auto p = Position::from_fen(fen, variant_, chess960_);
        if (!p) {
            debug("bad FEN '" + fen + "': " + p.error());
            println("info string error: bad FEN '" + fen + "': " + p.error());
            return;
        }
        next = *p;
    } else {
        debug("position needs startpos or fen");
        return;
    }
    if (i < tokens.size() && tokens[i] == "moves") {
        for (++i; i < tokens.size(); ++i) {
            auto m = next.play_uci(tokens[i]);
            if (!m) {
                debug("illegal move '" + tokens[i] + "': " + m.error());
                println("info string error: illegal move '" + tokens[i] + "': " + m.error() +
                        "; the moves before it are played");
                break;
            }
        }
    }
    pos_ = std::move(next);
}

void Uci::cmd_go(std::string_view args) {
    finish_search();  // a `go` while searching is a GUI error; finish the old search first
    const auto tokens = split(args);
    SearchLimits limits;
    limits.move_overhead_ms = move_overhead_ms_;
    auto number = [&](std::size_t& i) -> std::int64_t {
        if (i + 1 >= tokens.size()) return 0;
        try {
            return std::stoll(tokens[++i]);
        } catch (const std::exception&) {
            debug("bad number '" + tokens[i] + "' in go");
            return 0;
        }
    };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        const std::string& t = tokens[i];
        if (t == "wtime")
            limits.wtime = std::max<std::int64_t>(0, number(i));
        else if (t == "btime")
            limits.btime = std::max<std::int64_t>(0, number(i));
        else if (t == "winc")
            limits.winc = number(i);
        else if (t == "binc")
            limits.binc = number(i);
        else if (t == "movestogo")
            limits.movestogo = int(number(i));
        else if (t == "movetime")
            limits.movetime = number(i);
        else if (t == "depth")
            limits.depth = int(number(i));
        else if (t == "nodes")
            limits.nodes = std::uint64_t(std::max<std::int64_t>(0, number(i)));
        else if (t == "mate")
            limits.mate = int(number(i));
        else if (t == "infinite")
            limits.infinite = true;
        else if (t == "ponder")
            limits.ponder = true;
        else if (t == "perft")
            return go_perft(int(number(i)));
        else
            debug("ignored go token '" + t + "'");
    }
    last_go_unbounded_ = limits.infinite || limits.ponder;
    stop_ = false;
    search_thread_ = std::thread([this, limits, pos = pos_] {
        const SearchResult r = engine_.search(
            pos, limits, stop_, [&](const SearchInfo& info) { println(format_info(pos, info)); });
        if (!r.best) {
            println(std::string("info string no legal move (") + to_string(r.root_status) + ")");
            println("bestmove 0000");
            return;
        }
        // A last report so GUIs see the final depth and node count.
        if (r.depth > 0) println(format_info(pos, r));
        std::string line = "bestmove " + pos.to_uci(r.best);
        Position next = pos;
        next.play(r.best);
        if (r.ponder && next.legal_moves().contains(r.ponder))
            line += " ponder " + next.to_uci(r.ponder);
        println(line);
    });
}

void Uci::go_perft(int depth) {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    std::ostringstream s;
    for (const auto& [move, count] : perft_divide(pos_, std::max(depth, 1))) {
        s << pos_.to_uci(move) << ": " << count << '\n';
        total += count;
    }
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    s << "\nNodes searched: " << total;
    println(s.str());
    debug("perft " + std::to_string(depth) + " took " + std::to_string(ms) + " ms");
}

}  // namespace engine
