// Syzygy endgame tablebases through Debian's libfathom: finding and checking the table files,
// the library's start and shutdown, and probes (win/draw/loss in the tree, distance to zeroing
// at the root), from the side to move's view.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "board.hpp"
#include "tablebase.hpp"

namespace engine {

// A Syzygy win/draw/loss with the 50-move rule: a cursed win is won only if the 50-move rule is
// not claimed, a blessed loss lost only then. lila applies the rule by itself, so the engine
// plays both as draws.
enum class SyzygyWdl : std::int8_t {
    LOSS = -2,
    BLESSED_LOSS = -1,
    DRAW = 0,
    CURSED_WIN = 1,
    WIN = 2
};

// Win, draw or loss as lila scores it: cursed wins and blessed losses are draws.
constexpr Wdl lichess_wdl(SyzygyWdl w) {
    return w == SyzygyWdl::WIN ? Wdl::WIN : w == SyzygyWdl::LOSS ? Wdl::LOSS : Wdl::DRAW;
}

// The root moves the tables keep (syzygy_root_moves).
struct SyzygyRoot {
    std::vector<Move> moves;
    // The root's value under the 50-move rule with its current half-move clock, and the plies
    // to the next capture or pawn move with the kept moves (0 for a draw).
    SyzygyWdl wdl = SyzygyWdl::DRAW;
    int dtz = 0;
    bool by_dtz = true;  // false: the DTZ tables were missing, moves kept by WDL alone
};

// One loaded set of tables: RAII over fathom's tb_init(paths) and tb_init("").
//
// Process-wide: libfathom keeps its table list and mappings in globals, so a process has at most
// one set loaded. load() hands every caller that asks for the same folders the same shared
// instance (the engines of the daemon share it), refuses other folders while it lives, and the
// library is freed when the last holder lets go. Thread-safe: loading and freeing are serialised
// here; WDL probes are safe on many threads (the library locks its lazy table set-up); the root
// probe, which the library says is not thread-safe, is serialised here.
//
// Fathom trusts its files (a wrong size or a directory under a table's name ends the process or
// reads beyond a mapping), so every .rtbw/.rtbz is checked first: a regular, readable file of a
// table's size (64 k + 16 bytes) that starts with the magic bytes of its kind and whose header
// lists the pieces its name says (a file damaged further in is not caught). A folder whose
// files all pass is handed to fathom as it is; for a folder with a bad file (or a ':' in its
// name, fathom's path separator) the good files are linked into a private folder under the
// temporary folder, which fathom reads instead and which is removed with the set. Every bad file
// or folder is a line of problems(); the set loads as long as one table is good.
class Syzygy {
  public:
    static Result<std::shared_ptr<const Syzygy>> load(const std::vector<std::string>& folders);

    ~Syzygy();
    Syzygy(const Syzygy&) = delete;
    Syzygy& operator=(const Syzygy&) = delete;

    const std::vector<std::string>& folders() const { return folders_; }
    // What was skipped, one line each, naming the file or folder: "…/KQvK.rtbw: 1000 bytes, …".
    const std::vector<std::string>& problems() const { return problems_; }
    // The win/draw/loss tables found ("KQvK", "KRPvKR", ...), sorted, and the most pieces (kings
    // included) that any of them holds (the library's TB_LARGEST).
    const std::vector<std::string>& tables() const { return tables_; }
    int max_pieces() const { return max_pieces_; }
    // One line for logs: "35 tables (up to 4 pieces) from /srv/syzygy; 1 file skipped".
    std::string describe() const;

    // Win/draw/loss of a position just after a capture or pawn move (half-move clock 0, the
    // only clock the WDL tables answer for), or nullopt: a castling right, more pieces than the
    // tables hold, a table that is missing.
    std::optional<SyzygyWdl> probe_wdl(const Board& board) const;

  private:
    struct Private;
    explicit Syzygy(Private&& p);

    std::vector<std::string> folders_;
    std::vector<std::string> problems_;
    std::vector<std::string> tables_;
    int max_pieces_ = 0;
    std::string private_folder_;  // the links to good files of folders with bad ones, or empty
};

// The root moves the tables keep: a win only the winning moves of least DTZ (each makes progress
// toward the next capture or pawn move, so the win is mated before the 50-move rule); a draw
// (cursed wins and blessed losses are draws) the drawing moves, a cursed win's first; a loss the
// moves that lose slowest by DTZ. Nullopt when the root is not in the tables (or a probe fails):
// then the search ranks every move as usual.
std::optional<SyzygyRoot> syzygy_root_moves(const Syzygy& tb, const Board& root);

// The folders of a UCI SyzygyPath value: separated by ':', empty parts (and "<empty>", UCI's
// word for an empty string) dropped.
std::vector<std::string> split_syzygy_paths(std::string_view text);

// Why a file is no Syzygy table fathom may read, or nullopt when it passes the checks above;
// the kind (.rtbw or .rtbz) comes from its name.
std::optional<std::string> check_syzygy_file(const std::string& path);

}  // namespace engine
