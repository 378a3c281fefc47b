// The UCI text protocol over any pair of streams, so GUIs, match runners and tests (with
// string streams) drive the same code. The search runs on its own thread.
#pragma once

#include <atomic>
#include <istream>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>

#include "position.hpp"
#include "search.hpp"

namespace engine {

// UCI_Elo's default: a club player's level.
inline constexpr int DEFAULT_UCI_ELO = 1500;

class Uci {
  public:
    // `debug_log`, when given, receives a line for every command that was ignored.
    explicit Uci(std::ostream& out, std::ostream* debug_log = nullptr);
    ~Uci();
    Uci(const Uci&) = delete;
    Uci& operator=(const Uci&) = delete;

    // Reads commands until `quit` or end of input. At end of input a running search with a
    // limit is allowed to finish (so scripted sessions get their bestmove); an infinite or
    // ponder search is stopped.
    void loop(std::istream& in);
    // Handles one command line; false after `quit`.
    bool handle(std::string_view line);
    // Blocks until the running search (if any) has printed its bestmove.
    void wait_for_search();

    const Position& position() const { return pos_; }

  private:
    void cmd_uci();
    void cmd_setoption(std::string_view args);
    // UCI_Variant: the game the next positions belong to; an unknown name is an error line.
    void set_variant(const std::string& value);
    // The variant's start position (Chess960 castling when UCI_Chess960 is on).
    Position start_position() const;
    void cmd_position(std::string_view args);
    void cmd_go(std::string_view args);
    // GaviotaTbPath: loads the folders (';'-separated); an error is an `info string`.
    void set_tablebase_path(const std::string& value);
    void set_syzygy_path(const std::string& value);
    void go_perft(int depth);
    void stop_search();
    // Before changing state: stops an infinite or ponder search, waits for a bounded one.
    void finish_search();
    void println(const std::string& line);
    void debug(const std::string& line);
    // UCI_LimitStrength, UCI_Elo and LevelSeed onto the engine.
    void apply_strength();
    // The seed of the next game's choices: LevelSeed, or a random one when it is 0.
    void new_level_seed();

    std::ostream& out_;
    std::ostream* debug_log_;
    std::mutex out_mutex_;
    Engine engine_;
    Position pos_;
    bool chess960_ = false;
    Variant variant_ = Variant::STANDARD;  // UCI_Variant
    std::int64_t move_overhead_ms_ = 10;
    std::thread search_thread_;
    std::atomic<bool> stop_{false};
    bool last_go_unbounded_ = false;
    bool limit_strength_ = false;  // UCI_LimitStrength
    int elo_ = DEFAULT_UCI_ELO;    // UCI_Elo
    std::uint64_t level_seed_option_ = 0;
    std::uint64_t level_seed_ = 0;  // infinite or ponder: must be stopped at end of input
};

// Formats a search report as a UCI `info` line (without the trailing newline).
std::string format_info(const Position& root, const SearchInfo& info);

}  // namespace engine
