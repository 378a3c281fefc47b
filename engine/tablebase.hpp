// Gaviota endgame tablebases (Debian's libgaviotatb): loading the tables from folders, and
// probing a position for win/draw/loss and distance to mate, from the side to move's view.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "board.hpp"

namespace engine {

enum class Wdl : std::int8_t { LOSS = -1, DRAW = 0, WIN = 1 };

// A table's answer from the side to move's view: win, draw or loss and, for a win or a loss,
// the plies to mate with best play on both sides (0 for a draw). Gaviota's distance to mate
// knows nothing of the 50-move rule.
struct TbResult {
    Wdl wdl = Wdl::DRAW;
    int plies_to_mate = 0;
    bool operator==(const TbResult&) const = default;
};

// One loaded set of tables: RAII over the library's tb_init/tbcache_init and
// tbcache_done/tb_done.
//
// Process-wide: libgaviotatb keeps its paths, open files and cache in globals, so a process
// has at most one set loaded. load() hands every caller that asks for the same folders the
// same shared instance (the engines of the daemon share it), refuses other folders while it
// lives, and the library is shut down when the last holder lets go. Thread-safe: loading and
// the shutdown are serialised by a mutex here, and the library serialises its probes under its
// own lock, so engines on many threads may probe at once.
class Tablebase {
  public:
    // The library's block cache, shared by every probe.
    static constexpr int kDefaultCacheMb = 32;

    // Loads the tables of these folders (the first holding a table wins). Every folder must
    // exist and hold Gaviota files of one compression scheme (*.gtb.cp1 .. *.gtb.cp4; cp4
    // is preferred where several are present), and every such file must be a well-formed table;
    // otherwise the error names the folder or file and what is wrong with it.
    static Result<std::shared_ptr<const Tablebase>> load(const std::vector<std::string>& folders,
                                                         int cache_mb = kDefaultCacheMb);

    ~Tablebase();
    Tablebase(const Tablebase&) = delete;
    Tablebase& operator=(const Tablebase&) = delete;

    const std::vector<std::string>& folders() const { return folders_; }
    // The tables found ("kpk", "kqk", ...), sorted, and the most pieces (kings included) that
    // any of them holds.
    const std::vector<std::string>& tables() const { return tables_; }
    int max_pieces() const { return max_pieces_; }
    int compression_scheme() const { return scheme_; }
    // One line for logs: "5 tables (3 pieces, cp4) from /usr/share/gaviotatb/gtb4".
    std::string describe() const;

    // Win/draw/loss, or nullopt when no table answers: more pieces than any table holds, a
    // castling right, or a table that is not among the files.
    std::optional<Wdl> probe_wdl(const Board& board) const;
    // The same with the distance to mate (slower: reads the full tables, not only their
    // win/draw/loss summary).
    std::optional<TbResult> probe_dtm(const Board& board) const;

  private:
    struct Private;
    Tablebase(const Private& p);

    std::vector<std::string> folders_;
    std::vector<std::string> tables_;
    int max_pieces_ = 0;
    int scheme_ = 0;
    const char** library_paths_ = nullptr;  // the library keeps pointers into this list
};

// The root moves the tables keep: those that keep the root's best result (win, else draw, else
// loss) and, for a win, only those that mate fastest, for a loss only those mated slowest, by
// distance to mate; for a draw every drawing move. `result` is the root's own value.
struct TbRootMoves {
    std::vector<Move> moves;
    TbResult result;
};
// Nullopt when the root has no legal move or a move leads where no table answers (then the
// search ranks every move as usual).
std::optional<TbRootMoves> tablebase_root_moves(const Tablebase& tb, const Board& root);

// The folders of a UCI GaviotaTbPath value: separated by ';', empty parts (and "<empty>",
// UCI's word for an empty string) dropped.
std::vector<std::string> split_tablebase_paths(std::string_view text);

}  // namespace engine
