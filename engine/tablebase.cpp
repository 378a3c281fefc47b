// Gaviota tablebases: finding and checking the table files, the library's start and shutdown,
// and probes (see tablebase.hpp).
#include "tablebase.hpp"

#include <gtb-probe.h>

#include <algorithm>
#include <array>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <system_error>

#include "bitboard.hpp"
#include "movegen.hpp"
#include "position.hpp"

namespace engine {

namespace {

namespace fs = std::filesystem;

// Guards the library's global state: tb_init/tb_done happen under it, and `g_live` says
// whether a set is initialised (it stays true while a Tablebase's destructor is shutting the
// library down, after its weak pointer has already expired).
std::mutex g_mutex;
std::condition_variable g_done;
std::weak_ptr<const Tablebase> g_current;
bool g_live = false;

// The library's block size (gtb-probe.c: "fixed, needed for the compression schemes") and the
// largest compressed block its read buffer holds (EGTB_MAXBLOCKSIZE).
constexpr std::uint32_t kEntriesPerBlock = 16 * 1024;
constexpr std::uint32_t kMaxCompressedBlock = 1 << 16;
constexpr std::uint32_t kHeaderBytes = 40;

// "kqk", "kpkp", "krbkn": a king, up to three more pieces, a king, up to three more.
bool is_table_name(std::string_view name) {
    const auto second = name.find('k', 1);
    if (name.size() < 3 || name.size() > 5 || name[0] != 'k' || second == std::string_view::npos)
        return false;
    for (std::size_t i = 1; i < name.size(); ++i)
        if (i != second && std::string_view("pnbrq").find(name[i]) == std::string_view::npos)
            return false;
    return true;
}

// The table name and compression scheme of a file name such as "kqk.gtb.cp4", or scheme 0.
std::pair<std::string, int> parse_file_name(const std::string& file) {
    constexpr std::string_view ext = ".gtb.cp";
    const auto at = file.find(ext);
    if (at == std::string::npos || at + ext.size() + 1 != file.size()) return {"", 0};
    const char digit = file.back();
    const std::string name = file.substr(0, at);
    if (digit < '1' || digit > '4' || !is_table_name(name)) return {"", 0};
    return {name, digit - '0'};
}

std::uint32_t read_le32(const unsigned char* p) {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
           std::uint32_t(p[3]) << 24;
}

// What is wrong with a table file, or nullopt when its header and block index are sound.
// The library trusts both (a wrong block size or offset overruns its buffers), so they are
// checked here before it ever opens the file: junk, a truncated copy or a text file is caught.
// A sound file under another table's name is not.
std::optional<std::string> check_table_file(const fs::path& file) {
    std::error_code ec;
    // A FIFO or a device under a table's name would hang or never end the read below.
    if (!fs::is_regular_file(file, ec)) return "is not a regular file";
    const std::uintmax_t size = fs::file_size(file, ec);
    std::ifstream in(file, std::ios::binary);
    if (ec || !in) return "cannot be read";
    if (size < kHeaderBytes + 8)
        return "is too short for a Gaviota table (" + std::to_string(size) + " bytes)";
    std::vector<unsigned char> bytes(kHeaderBytes);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size())))
        return "cannot be read";
    const std::uint32_t block_size = read_le32(&bytes[8]);
    const std::uint32_t index_end = read_le32(&bytes[32]);
    if (block_size != kEntriesPerBlock)
        return "is not a Gaviota table (block size " + std::to_string(block_size) + ", not " +
               std::to_string(kEntriesPerBlock) + ")";
    if (index_end < kHeaderBytes + 8 || (index_end - kHeaderBytes) % 4 != 0 || index_end > size)
        return "is not a Gaviota table (block index ends at byte " + std::to_string(index_end) +
               " of " + std::to_string(size) + ")";
    // One offset per block plus the end; the blocks are the two sides' halves.
    const std::size_t offsets = (index_end - kHeaderBytes) / 4;
    bytes.resize(index_end);
    if (!in.read(reinterpret_cast<char*>(bytes.data() + kHeaderBytes),
                 std::streamsize(index_end - kHeaderBytes)))
        return "cannot be read";
    if ((offsets - 1) % 2 != 0)
        return "is not a Gaviota table (an odd number of blocks: " + std::to_string(offsets - 1) +
               ")";
    std::uint32_t previous = read_le32(&bytes[kHeaderBytes]);
    if (previous != index_end)
        return "is not a Gaviota table (the first block starts at byte " +
               std::to_string(previous) + ", not " + std::to_string(index_end) + ")";
    for (std::size_t i = 1; i < offsets; ++i) {
        const std::uint32_t offset = read_le32(&bytes[kHeaderBytes + 4 * i]);
        if (offset <= previous || offset - previous > kMaxCompressedBlock)
            return "is corrupt (block " + std::to_string(i - 1) + " of " +
                   std::to_string(offsets - 1) + " has an impossible size)";
        previous = offset;
    }
    if (previous != size)
        return "is truncated or corrupt (" + std::to_string(size) +
               " bytes, its block index says " + std::to_string(previous) + ")";
    return std::nullopt;
}

// The tables of one folder by compression scheme: scheme -> table names.
using FolderTables = std::map<int, std::set<std::string>>;

Result<FolderTables> scan_folder(const std::string& folder) {
    std::error_code ec;
    const fs::file_status st = fs::status(folder, ec);
    if (ec || !fs::exists(st)) return Result<FolderTables>::failure(folder + ": no such folder");
    if (!fs::is_directory(st)) return Result<FolderTables>::failure(folder + ": not a folder");
    FolderTables found;
    std::vector<std::string> subfolders_with_tables;
    fs::directory_iterator it(folder, ec), end;
    if (ec)
        return Result<FolderTables>::failure(folder + ": cannot list it (" + ec.message() + ")");
    for (; it != end; it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        std::error_code sub_ec;
        if (it->is_directory(sub_ec)) {
            for (fs::directory_iterator s(it->path(), sub_ec); !sub_ec && s != end;
                 s.increment(sub_ec))
                if (parse_file_name(s->path().filename().string()).second != 0) {
                    subfolders_with_tables.push_back(it->path().string());
                    break;
                }
            continue;
        }
        const auto [table, scheme] = parse_file_name(name);
        if (scheme != 0) found[scheme].insert(table);
    }
    if (ec)
        return Result<FolderTables>::failure(folder + ": cannot list it (" + ec.message() + ")");
    if (found.empty()) {
        std::string message = folder +
                              ": holds no Gaviota tablebase files (names like kqk.gtb.cp4; "
                              "compression schemes cp1 to cp4)";
        if (!subfolders_with_tables.empty()) {
            std::sort(subfolders_with_tables.begin(), subfolders_with_tables.end());
            message += "; its subfolder " + subfolders_with_tables.back() +
                       " does: give that folder instead";
        }
        return Result<FolderTables>::failure(message);
    }
    return found;
}

unsigned char tb_piece(PieceType pt) {
    static constexpr std::array<unsigned char, PIECE_TYPE_NB> map = {tb_PAWN, tb_KNIGHT, tb_BISHOP,
                                                                     tb_ROOK, tb_QUEEN,  tb_KING};
    return map[pt];
}

// The library's piece lists: squares and pieces per colour, each ended by a sentinel.
struct ProbeInput {
    unsigned stm = tb_WHITE_TO_MOVE;
    unsigned ep = tb_NOSQUARE;
    unsigned squares[COLOR_NB][17];
    unsigned char pieces[COLOR_NB][17];

    explicit ProbeInput(const Board& b) {
        stm = b.side == WHITE ? tb_WHITE_TO_MOVE : tb_BLACK_TO_MOVE;
        ep = b.en_passant == SQ_NONE ? unsigned(tb_NOSQUARE) : unsigned(b.en_passant);
        for (Color c : {WHITE, BLACK}) {
            int n = 0;
            for (Bitboard bb = b.pieces(c); bb && n < 16; ++n) {
                const Square s = pop_lsb(bb);
                squares[c][n] = unsigned(s);
                pieces[c][n] = tb_piece(type_of(b.piece_on(s)));
            }
            squares[c][n] = tb_NOSQUARE;
            pieces[c][n] = tb_NOPIECE;
        }
    }
};

// The library's answer (tb_WMATE: white mates) from the side to move's view.
Wdl wdl_for_side(unsigned info, Color side) {
    if (info == tb_WMATE) return side == WHITE ? Wdl::WIN : Wdl::LOSS;
    if (info == tb_BMATE) return side == BLACK ? Wdl::WIN : Wdl::LOSS;
    return Wdl::DRAW;
}

}  // namespace

struct Tablebase::Private {
    std::vector<std::string> folders;
    std::vector<std::string> tables;
    int max_pieces = 0;
    int scheme = 0;
    const char** library_paths = nullptr;
};

Tablebase::Tablebase(const Private& p)
    : folders_(p.folders),
      tables_(p.tables),
      max_pieces_(p.max_pieces),
      scheme_(p.scheme),
      library_paths_(p.library_paths) {}

Tablebase::~Tablebase() {
    std::lock_guard lock(g_mutex);
    tbcache_done();
    tb_done();
    tbpaths_done(library_paths_);
    g_live = false;
    g_done.notify_all();
}

Result<std::shared_ptr<const Tablebase>> Tablebase::load(const std::vector<std::string>& folders,
                                                         int cache_mb) {
    using R = Result<std::shared_ptr<const Tablebase>>;
    if (folders.empty()) return R::failure("no tablebase folder given");
    // The set already loaded when it is these folders, an error when it is others.
    auto loaded_set = [&]() -> std::optional<R> {
        const auto current = g_current.lock();
        if (!current) return std::nullopt;
        if (current->folders() == folders) return R(current);
        std::string loaded;
        for (const std::string& f : current->folders()) loaded += (loaded.empty() ? "" : ";") + f;
        return R::failure("Gaviota tablebases are already loaded from " + loaded +
                          " and the library holds one set per process");
    };
    {
        std::lock_guard lock(g_mutex);
        if (auto r = loaded_set()) return std::move(*r);
    }

    // Every folder, and in them the scheme all of them share (cp4 first: the library's default).
    std::vector<FolderTables> scanned;
    for (const std::string& folder : folders) {
        auto r = scan_folder(folder);
        if (!r) return R::failure(r.error());
        scanned.push_back(std::move(*r));
    }
    int scheme = 0;
    for (int candidate : {4, 3, 2, 1})
        if (std::all_of(scanned.begin(), scanned.end(),
                        [&](const FolderTables& f) { return f.contains(candidate); })) {
            scheme = candidate;
            break;
        }
    if (scheme == 0) {
        std::string message = "the folders hold tables of different compression schemes (";
        for (std::size_t i = 0; i < folders.size(); ++i) {
            message += (i ? "; " : "") + folders[i] + ":";
            for (const auto& [s, names] : scanned[i]) message += " cp" + std::to_string(s);
        }
        return R::failure(message +
                          "); the library reads one scheme at a time, so give folders of one");
    }

    Private p;
    p.folders = folders;
    p.scheme = scheme;
    std::set<std::string> tables;
    for (std::size_t i = 0; i < folders.size(); ++i)
        for (const std::string& name : scanned[i].at(scheme)) {
            const fs::path file =
                fs::path(folders[i]) / (name + ".gtb.cp" + std::to_string(scheme));
            if (auto problem = check_table_file(file))
                return R::failure(file.string() + ": " + *problem);
            tables.insert(name);
        }
    p.tables.assign(tables.begin(), tables.end());
    for (const std::string& t : p.tables) p.max_pieces = std::max(p.max_pieces, int(t.size()));

    std::unique_lock lock(g_mutex);
    if (auto r = loaded_set()) return std::move(*r);  // another thread was quicker
    // The last holder of the previous set may still be shutting the library down.
    g_done.wait(lock, [] { return !g_live; });

    const char** paths = tbpaths_init();
    for (const std::string& folder : folders)
        if (paths) paths = tbpaths_add(paths, folder.c_str());
    if (!paths) return R::failure("out of memory for the tablebase paths");
    tb_init(0, scheme, paths);
    tbcache_init(std::size_t(std::max(1, cache_mb)) * 1024 * 1024, 96);
    if (tb_availability() == 0) {
        tbcache_done();
        tb_done();
        tbpaths_done(paths);
        return R::failure(folders.front() + ": the Gaviota library found no table it can use");
    }
    p.library_paths = paths;
    g_live = true;
    std::shared_ptr<const Tablebase> tb(new Tablebase(p));
    g_current = tb;
    return tb;
}

std::string Tablebase::describe() const {
    std::string text =
        std::to_string(tables_.size()) + (tables_.size() == 1 ? " table" : " tables") + " (up to " +
        std::to_string(max_pieces_) + " pieces, cp" + std::to_string(scheme_) + ") from ";
    for (std::size_t i = 0; i < folders_.size(); ++i) text += (i ? ";" : "") + folders_[i];
    return text;
}

std::optional<Wdl> Tablebase::probe_wdl(const Board& board) const {
    if (board.castling != NO_CASTLING || popcount(board.pieces()) > max_pieces_)
        return std::nullopt;
    const ProbeInput in(board);
    unsigned info = tb_UNKNOWN;
    if (!tb_probe_WDL_hard(in.stm, in.ep, tb_NOCASTLE, in.squares[WHITE], in.squares[BLACK],
                           in.pieces[WHITE], in.pieces[BLACK], &info))
        return std::nullopt;
    if (info != tb_DRAW && info != tb_WMATE && info != tb_BMATE) return std::nullopt;
    return wdl_for_side(info, board.side);
}

std::optional<TbResult> Tablebase::probe_dtm(const Board& board) const {
    if (board.castling != NO_CASTLING || popcount(board.pieces()) > max_pieces_)
        return std::nullopt;
    const ProbeInput in(board);
    unsigned info = tb_UNKNOWN, plies = 0;
    if (!tb_probe_hard(in.stm, in.ep, tb_NOCASTLE, in.squares[WHITE], in.squares[BLACK],
                       in.pieces[WHITE], in.pieces[BLACK], &info, &plies))
        return std::nullopt;
    if (info != tb_DRAW && info != tb_WMATE && info != tb_BMATE) return std::nullopt;
    const Wdl wdl = wdl_for_side(info, board.side);
    return TbResult{wdl, wdl == Wdl::DRAW ? 0 : int(plies)};
}

std::optional<TbRootMoves> tablebase_root_moves(const Tablebase& tb, const Board& root) {
    const MoveList legal = legal_moves(root);
    if (legal.empty()) return std::nullopt;
    // Each move's result from our side: the position after it, from the opponent's, turned round.
    std::vector<std::pair<Move, TbResult>> ranked;
    for (const Move m : legal) {
        Board next = root;
        next.make_move(m);
        TbResult ours;
        if (legal_moves(next).empty()) {
            ours = next.in_check() ? TbResult{Wdl::WIN, 1} : TbResult{Wdl::DRAW, 0};
        } else if (insufficient_material(next)) {
            ours = TbResult{Wdl::DRAW, 0};
        } else {
            const auto theirs = tb.probe_dtm(next);
            if (!theirs) return std::nullopt;
            ours = theirs->wdl == Wdl::DRAW
                       ? TbResult{Wdl::DRAW, 0}
                       : TbResult{Wdl(-int(theirs->wdl)), theirs->plies_to_mate + 1};
        }
        ranked.emplace_back(m, ours);
    }
    // Better for us: a better result; between two wins the shorter, between two losses the
    // longer.
    auto better = [](const TbResult& a, const TbResult& b) {
        if (a.wdl != b.wdl) return a.wdl > b.wdl;
        if (a.wdl == Wdl::WIN) return a.plies_to_mate < b.plies_to_mate;
        if (a.wdl == Wdl::LOSS) return a.plies_to_mate > b.plies_to_mate;
        return false;
    };
    TbRootMoves out;
    out.result = ranked.front().second;
    for (const auto& [m, r] : ranked)
        if (better(r, out.result)) out.result = r;
    for (const auto& [m, r] : ranked)
        if (!better(out.result, r)) out.moves.push_back(m);
    return out;
}

std::vector<std::string> split_tablebase_paths(std::string_view text) {
    std::vector<std::string> out;
    while (!text.empty()) {
        const auto semi = text.find(';');
        std::string_view part = text.substr(0, semi);
        while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
        if (!part.empty() && part != "<empty>") out.emplace_back(part);
        if (semi == std::string_view::npos) break;
        text.remove_prefix(semi + 1);
    }
    return out;
}

}  // namespace engine
