// Syzygy tablebases through libfathom: checking the table files, the library's start and
// shutdown, and probes (see syzygy.hpp).
#include "syzygy.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <tbprobe.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <system_error>

#include "bitboard.hpp"
#include "movegen.hpp"

namespace engine {

namespace {

namespace fs = std::filesystem;

// Guards the library's global state (tb_init/tb_free, the root probe); `g_syzygy_live` says whether
// a set is initialised (it stays true while a Syzygy's destructor is freeing the library, after its
// weak pointer has already expired).
std::mutex g_syzygy_mutex;
std::condition_variable g_syzygy_done;
std::weak_ptr<const Syzygy> g_syzygy_current;
bool g_syzygy_live = false;

// The first four bytes of every win/draw/loss and every distance-to-zero file (the format's
// magic numbers, as fathom reads them little-endian: 0x5d23e871 and 0xa50c66d7).
constexpr std::array<unsigned char, 4> kWdlMagic{0x71, 0xE8, 0x23, 0x5D};
constexpr std::array<unsigned char, 4> kDtzMagic{0xD7, 0x66, 0x0C, 0xA5};
// Every table file is 64-byte blocks and a 16-byte checksum; the smallest (a one-value table
// such as KBvK.rtbw) is one block.
constexpr std::uintmax_t kSizeStep = 64, kSizeRest = 16, kMinSize = kSizeStep + kSizeRest;
// fathom's tables hold at most 7 pieces.
constexpr int kMaxTablePieces = 7;

// The material of a file name such as "KQvKR.rtbw": "KQvKR" and true for a WDL file, or an
// empty name when it is no table file's name.
struct TableName {
    std::string material;
    bool wdl = true;
    int pieces = 0;
};

// The pieces a table's header lists for its first sub-table, as the format codes them (1..6:
// pawn..king of one side, 9..14 the other's), sorted, with either side as the first; fathom
// sizes its tables from the name, so a header of other pieces (another table under this name, a
// damaged header) would make it read beyond the file. The list starts after the magic, a flags
// byte and an order byte (two when both sides have pawns).
std::vector<int> header_pieces(const std::string& material, bool first_side_is_low) {
    std::vector<int> out;
    const auto v = material.find('v');
    for (std::size_t i = 0; i < material.size(); ++i) {
        if (i == v) continue;
        const int type = int(std::string_view("PNBRQK").find(material[i])) + 1;
        out.push_back(type | ((i < v) == first_side_is_low ? 0 : 8));
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::optional<TableName> parse_table_name(const std::string& file) {
    constexpr std::size_t ext = 5;  // ".rtbw", ".rtbz"
    if (file.size() <= ext) return std::nullopt;
    const std::string suffix = file.substr(file.size() - ext);
    if (suffix != ".rtbw" && suffix != ".rtbz") return std::nullopt;
    TableName t{file.substr(0, file.size() - ext), suffix == ".rtbw", 0};
    // K[QRBNP]*vK[QRBNP]*
    const auto v = t.material.find('v');
    if (v == std::string::npos || t.material[0] != 'K' || v + 1 >= t.material.size() ||
        t.material[v + 1] != 'K')
        return std::nullopt;
    for (std::size_t i = 0; i < t.material.size(); ++i) {
        if (i == v) continue;
        if (i != 0 && i != v + 1 &&
            std::string_view("QRBNP").find(t.material[i]) == std::string::npos)
            return std::nullopt;
        ++t.pieces;
    }
    if (t.pieces < 3 || t.pieces > kMaxTablePieces) return std::nullopt;
    return t;
}

std::string errno_text(int e) { return std::strerror(e); }

// A folder's table files that passed, by file name, and the problems of the others.
struct ScannedFolder {
    std::string folder;
    std::map<std::string, fs::path> good;  // "KQvK.rtbw" -> path
    std::vector<std::string> problems;
    bool usable = false;       // listed and holding at least one good file
    bool needs_links = false;  // a bad file, or a ':' in the folder's name
};

ScannedFolder scan_syzygy_folder(const std::string& folder) {
    ScannedFolder out{folder, {}, {}, false, false};
    std::error_code ec;
    const fs::file_status st = fs::status(folder, ec);
    if (ec || !fs::exists(st)) {
        out.problems.push_back(folder + ": no such folder");
        return out;
    }
    if (!fs::is_directory(st)) {
        out.problems.push_back(folder + ": not a folder");
        return out;
    }
    fs::directory_iterator it(folder, ec), end;
    if (ec) {
        out.problems.push_back(folder + ": cannot list it (" + ec.message() + ")");
        return out;
    }
    std::size_t table_files = 0;
    for (; it != end; it.increment(ec)) {
        if (ec) break;
        const std::string name = it->path().filename().string();
        if (!parse_table_name(name)) continue;
        ++table_files;
        if (auto problem = check_syzygy_file(it->path().string())) {
            out.problems.push_back(it->path().string() + ": " + *problem + "; skipped");
            out.needs_links = true;
        } else {
            out.good.emplace(name, it->path());
        }
    }
    if (ec) {
        out.problems.push_back(folder + ": cannot list it (" + ec.message() + ")");
        return out;
    }
    if (table_files == 0) {
        out.problems.push_back(folder +
                               ": holds no Syzygy table files (names like KQvK.rtbw, KQvK.rtbz)");
        return out;
    }
    out.usable = !out.good.empty();
    if (folder.find(':') != std::string::npos) out.needs_links = true;
    return out;
}

// A private folder for links to good files, under the temporary folder; empty on failure.
std::string make_private_folder(std::string& error) {
    std::error_code ec;
    const fs::path base = fs::temp_directory_path(ec);
    if (ec) {
        error = "no temporary folder (" + ec.message() + ")";
        return {};
    }
    std::string pattern = (base / "outpost-syzygy-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        error = "cannot make a folder in " + base.string() + " (" + errno_text(errno) + ")";
        return {};
    }
    return pattern;
}

// fathom's tb_init. libgaviotatb exports a tb_init of its own (another signature), and the
// process's first definition is the one a plain call reaches: Gaviota's, which the engine links
// first. So fathom's is looked up inside fathom itself.
using FathomInit = bool (*)(const char*);
FathomInit fathom_tb_init() {
    static const FathomInit init = [] {
        Dl_info info{};
        void* lib = nullptr;
        if (::dladdr(reinterpret_cast<void*>(&tb_probe_wdl_impl), &info) && info.dli_fname)
            lib = ::dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD);
        if (!lib) lib = ::dlopen("libfathom.so.1", RTLD_NOW | RTLD_NOLOAD);
        // The handle stays open: the library is linked, so it is never unloaded anyway.
        return lib ? reinterpret_cast<FathomInit>(::dlsym(lib, "tb_init")) : nullptr;
    }();
    return init;
}

// The library's en passant square (0: none) and pieces from our board.
struct FathomPosition {
    std::uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
    unsigned ep;
    bool white_to_move;

    explicit FathomPosition(const Board& b)
        : white(b.pieces(WHITE)),
          black(b.pieces(BLACK)),
          kings(b.pieces(KING)),
          queens(b.pieces(QUEEN)),
          rooks(b.pieces(ROOK)),
          bishops(b.pieces(BISHOP)),
          knights(b.pieces(KNIGHT)),
          pawns(b.pieces(PAWN)),
          ep(b.en_passant == SQ_NONE ? 0u : unsigned(b.en_passant)),
          white_to_move(b.side == WHITE) {}
};

SyzygyWdl from_fathom(unsigned wdl) {
    switch (wdl) {
        case TB_LOSS:
            return SyzygyWdl::LOSS;
        case TB_BLESSED_LOSS:
            return SyzygyWdl::BLESSED_LOSS;
        case TB_CURSED_WIN:
            return SyzygyWdl::CURSED_WIN;
        case TB_WIN:
            return SyzygyWdl::WIN;
        default:
            return SyzygyWdl::DRAW;
    }
}

// Our legal move that is the library's (from, to, promotion piece).
std::optional<Move> our_move(const MoveList& legal, unsigned from, unsigned to, unsigned promotes) {
    static constexpr std::array<PieceType, 5> kPromotion{PAWN, QUEEN, ROOK, BISHOP, KNIGHT};
    for (const Move m : legal) {
        if (unsigned(m.from()) != from || unsigned(m.to()) != to) continue;
        const bool promotion = m.kind() == MoveKind::PROMOTION;
        if (promotion != (promotes != TB_PROMOTES_NONE)) continue;
        if (promotion && (promotes >= kPromotion.size() || m.promotion() != kPromotion[promotes]))
            continue;
        return m;
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::string> check_syzygy_file(const std::string& path) {
    const auto name = parse_table_name(fs::path(path).filename().string());
    if (!name) return "is not named like a Syzygy table (KQvK.rtbw, KQvK.rtbz)";
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (ec || !fs::exists(st)) return std::string("cannot be read (a link to nothing)");
    if (!fs::is_regular_file(st)) return std::string("is not a regular file");
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) return "cannot be read (" + ec.message() + ")";
    if (size < kMinSize || size % kSizeStep != kSizeRest)
        return std::to_string(size) +
               " bytes, not a Syzygy table's size (64 k + 16 bytes): truncated or corrupt";
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return "cannot be read (" + errno_text(errno) + ")";
    std::array<unsigned char, 16> head{};
    const ssize_t got = ::read(fd, head.data(), head.size());
    const int read_errno = errno;
    ::close(fd);
    if (got < 0) return "cannot be read (" + errno_text(read_errno) + ")";
    if (got != ssize_t(head.size())) return std::string("cannot be read (short read)");
    // (16 bytes hold the magic, the flags and up to 7 pieces' codes; every table has 80 or more.)
    const auto& magic = name->wdl ? kWdlMagic : kDtzMagic;
    if (!std::equal(magic.begin(), magic.end(), head.begin()))
        return std::string("is corrupt: it does not start with the magic bytes of a Syzygy ") +
               (name->wdl ? "WDL (.rtbw)" : "DTZ (.rtbz)") + " table";
    const auto v = name->material.find('v');
    const bool both_pawns =
        name->material.find('P') < v && name->material.find('P', v) != std::string::npos;
    const std::size_t at = 6 + (both_pawns ? 1 : 0);
    std::vector<int> listed;
    for (int i = 0; i < name->pieces; ++i) listed.push_back(head[at + std::size_t(i)] & 0x0f);
    std::sort(listed.begin(), listed.end());
    if (listed != header_pieces(name->material, true) &&
        listed != header_pieces(name->material, false))
        return "is corrupt or another table: its header does not list the pieces of " +
               name->material;
    return std::nullopt;
}

struct Syzygy::Private {
    std::vector<std::string> folders, problems, tables;
    int max_pieces = 0;
    std::string private_folder;
};

Syzygy::Syzygy(Private&& p)
    : folders_(std::move(p.folders)),
      problems_(std::move(p.problems)),
      tables_(std::move(p.tables)),
      max_pieces_(p.max_pieces),
      private_folder_(std::move(p.private_folder)) {}

Syzygy::~Syzygy() {
    std::lock_guard lock(g_syzygy_mutex);
    // tb_init("") unmaps every table and forgets the paths. Not tb_free: Debian's fathom frees
    // its table list there without forgetting it, so the next tb_init would write into freed
    // memory; the list (a fixed block) stays for the next set instead.
    // (It prints "munmap: ..." for each table it unmaps: Debian's build reports success as an
    // error.)
    if (const FathomInit init = fathom_tb_init()) init("");
    if (!private_folder_.empty()) {
        std::error_code ec;
        fs::remove_all(private_folder_, ec);
    }
    g_syzygy_live = false;
    g_syzygy_done.notify_all();
}

Result<std::shared_ptr<const Syzygy>> Syzygy::load(const std::vector<std::string>& folders) {
    using R = Result<std::shared_ptr<const Syzygy>>;
    if (folders.empty()) return R::failure("no Syzygy folder given");
    auto loaded_set = [&]() -> std::optional<R> {
        const auto current = g_syzygy_current.lock();
        if (!current) return std::nullopt;
        if (current->folders() == folders) return R(current);
        std::string loaded;
        for (const std::string& f : current->folders()) loaded += (loaded.empty() ? "" : ":") + f;
        return R::failure("Syzygy tablebases are already loaded from " + loaded +
                          " and the library holds one set per process");
    };
    {
        std::lock_guard lock(g_syzygy_mutex);
        if (auto r = loaded_set()) return std::move(*r);
    }

    Private p;
    p.folders = folders;
    std::vector<ScannedFolder> scanned;
    for (const std::string& folder : folders) {
        scanned.push_back(scan_syzygy_folder(folder));
        for (const std::string& problem : scanned.back().problems) p.problems.push_back(problem);
    }

    // The folders fathom reads, in the given order (the first holding a file wins): a clean one
    // as it is, one with bad files as a private folder of links to its good ones.
    std::vector<std::string> library_folders;
    std::set<std::string> wdl_tables;
    std::set<std::string> seen_files;
    for (std::size_t i = 0; i < scanned.size(); ++i) {
        ScannedFolder& f = scanned[i];
        if (!f.usable) continue;
        if (f.needs_links) {
            std::string error;
            if (p.private_folder.empty()) p.private_folder = make_private_folder(error);
            const fs::path links = p.private_folder.empty()
                                       ? fs::path()
                                       : fs::path(p.private_folder) / std::to_string(i);
            std::error_code ec;
            if (!links.empty()) fs::create_directory(links, ec);
            for (const auto& [name, path] : f.good) {
                if (links.empty() || ec) break;
                fs::create_symlink(fs::absolute(path, ec), links / name, ec);
            }
            if (links.empty() || ec) {
                p.problems.push_back(
                    f.folder + ": skipped, its good tables cannot be linked apart " +
                    "from its bad ones (" + (error.empty() ? ec.message() : error) + ")");
                continue;
            }
            library_folders.push_back(links.string());
        } else {
            library_folders.push_back(f.folder);
        }
        for (const auto& [name, path] : f.good) {
            const auto t = parse_table_name(name);
            seen_files.insert(name);
            if (t->wdl) wdl_tables.insert(t->material);
        }
    }
    p.tables.assign(wdl_tables.begin(), wdl_tables.end());
    auto fail = [&](const std::string& why) {
        std::error_code ec;
        if (!p.private_folder.empty()) fs::remove_all(p.private_folder, ec);
        std::string message = why;
        for (const std::string& problem : p.problems) message += "; " + problem;
        return R::failure(message);
    };
    if (p.tables.empty())
        return fail("no usable Syzygy table (.rtbw) in " + [&] {
            std::string all;
            for (const std::string& f : folders) all += (all.empty() ? "" : ":") + f;
            return all;
        }());

    std::string path;
    for (const std::string& f : library_folders) path += (path.empty() ? "" : ":") + f;

    std::unique_lock lock(g_syzygy_mutex);
    if (auto r = loaded_set()) {  // another thread was quicker
        std::error_code ec;
        if (!p.private_folder.empty()) fs::remove_all(p.private_folder, ec);
        return std::move(*r);
    }
    g_syzygy_done.wait(lock, [] { return !g_syzygy_live; });
    const FathomInit init = fathom_tb_init();
    if (!init) {
        lock.unlock();
        return fail("libfathom's tb_init cannot be found in the loaded library");
    }
    if (!init(path.c_str()) || TB_LARGEST == 0) {
        init("");
        lock.unlock();
        return fail("libfathom found no table it can use in " + path);
    }
    p.max_pieces = int(TB_LARGEST);
    g_syzygy_live = true;
    std::shared_ptr<const Syzygy> tb(new Syzygy(std::move(p)));
    g_syzygy_current = tb;
    return tb;
}

std::string Syzygy::describe() const {
    std::string text = std::to_string(tables_.size()) +
                       (tables_.size() == 1 ? " table" : " tables") + " (up to " +
                       std::to_string(max_pieces_) + " pieces) from ";
    for (std::size_t i = 0; i < folders_.size(); ++i) text += (i ? ":" : "") + folders_[i];
    if (!problems_.empty())
        text += "; " + std::to_string(problems_.size()) +
                (problems_.size() == 1 ? " problem" : " problems") + " skipped";
    return text;
}

std::optional<SyzygyWdl> Syzygy::probe_wdl(const Board& b) const {
    if (b.castling != NO_CASTLING || popcount(b.pieces()) > max_pieces_) return std::nullopt;
    const FathomPosition f(b);
    const unsigned r = tb_probe_wdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops,
                                    f.knights, f.pawns, 0, 0, f.ep, f.white_to_move);
    if (r == TB_RESULT_FAILED) return std::nullopt;
    return from_fathom(r);
}

std::optional<SyzygyRoot> syzygy_root_moves(const Syzygy& tb, const Board& root) {
    if (root.castling != NO_CASTLING || popcount(root.pieces()) > tb.max_pieces())
        return std::nullopt;
    const MoveList legal = legal_moves(root);
    if (legal.empty()) return std::nullopt;
    const FathomPosition f(root);

    // Each move's value from our side: the result tier (win 2 .. loss -2, under the 50-move rule
    // from the root's clock) and its DTZ.
    struct Ranked {
        Move move;
        SyzygyWdl wdl;
        int dtz;
    };
    std::vector<Ranked> ranked;
    bool by_dtz = true;
    {
        std::array<unsigned, TB_MAX_MOVES> results{};
        unsigned answer = TB_RESULT_FAILED;
        {
            // tb_probe_root is not thread-safe (its own words).
            std::lock_guard lock(g_syzygy_mutex);
            answer = tb_probe_root(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops,
                                   f.knights, f.pawns, root.halfmove_clock, 0, f.ep,
                                   f.white_to_move, results.data());
        }
        if (answer != TB_RESULT_FAILED) {
            for (unsigned r : results) {
                if (r == TB_RESULT_FAILED) break;
                const auto m = our_move(legal, TB_GET_FROM(r), TB_GET_TO(r), TB_GET_PROMOTES(r));
                if (!m) return std::nullopt;  // the library's move list is not ours
                ranked.push_back({*m, from_fathom(TB_GET_WDL(r)), int(TB_GET_DTZ(r))});
            }
            if (ranked.size() != std::size_t(legal.size())) return std::nullopt;
        } else {
            // No DTZ table answers: keep the result by WDL alone, from the position after each
            // move (its own clock is 0 after a capture or pawn move, else the root's + 1, which
            // the WDL tables cannot see: a cursed win there still counts as a draw for lila).
            by_dtz = false;
            for (const Move m : legal) {
                Board next = root;
                next.make_move(m);
                SyzygyWdl ours;
                if (legal_moves(next).empty()) {
                    ours = next.in_check() ? SyzygyWdl::WIN : SyzygyWdl::DRAW;
                } else {
                    const auto theirs = tb.probe_wdl(next);
                    if (!theirs) return std::nullopt;
                    ours = SyzygyWdl(-int(*theirs));
                }
                ranked.push_back({m, ours, 0});
            }
        }
    }

    // Lichess's tiers first: win, then the draws (a cursed win before a plain draw before a
    // blessed loss: each keeps the opponent's chances to go wrong lower), then the loss.
    auto tier = [](SyzygyWdl w) { return int(w); };
    int best_tier = tier(ranked.front().wdl);
    for (const Ranked& r : ranked) best_tier = std::max(best_tier, tier(r.wdl));
    SyzygyRoot out;
    out.wdl = SyzygyWdl(best_tier);
    out.by_dtz = by_dtz;
    int best_dtz = 0;
    bool first = true;
    for (const Ranked& r : ranked) {
        if (tier(r.wdl) != best_tier) continue;
        if (out.wdl == SyzygyWdl::WIN && (first || r.dtz < best_dtz)) best_dtz = r.dtz;
        if (out.wdl == SyzygyWdl::LOSS && (first || r.dtz > best_dtz)) best_dtz = r.dtz;
        first = false;
    }
    const bool decisive = out.wdl == SyzygyWdl::WIN || out.wdl == SyzygyWdl::LOSS;
    for (const Ranked& r : ranked)
        if (tier(r.wdl) == best_tier && (!decisive || !by_dtz || r.dtz == best_dtz))
            out.moves.push_back(r.move);
    out.dtz = decisive ? best_dtz : 0;
    return out;
}

std::vector<std::string> split_syzygy_paths(std::string_view text) {
    std::vector<std::string> out;
    while (!text.empty()) {
        const auto colon = text.find(':');
        std::string_view part = text.substr(0, colon);
        while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
        while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
        if (!part.empty() && part != "<empty>") out.emplace_back(part);
        if (colon == std::string_view::npos) break;
        text.remove_prefix(colon + 1);
    }
    return out;
}

}  // namespace engine
