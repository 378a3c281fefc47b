// The binary data format (see record.hpp and docs/NNUE.md, "Data format").
#include "tools/datagen/record.hpp"

#include <algorithm>
#include <cstring>
#include <iterator>

#include "engine/bitboard.hpp"
#include "engine/fen.hpp"
#include "engine/fen_placement.hpp"

namespace datagen {

namespace {

// Piece codes of the record's nibbles: the engine's Piece values (0-5 white pawn..king, 8-13
// black), and in the codes no piece uses, the rooks that can still castle and the pawn that can
// be taken en passant, so castling rights and the en-passant square cost no bits of their own.
constexpr unsigned CASTLING_ROOK = 6;    // + 8 for black
constexpr unsigned EN_PASSANT_PAWN = 7;  // + 8 for black

// The last 8 bytes of a record, one little-endian word (bit positions).
constexpr int STM_BIT = 16;
constexpr int HALFMOVE_SHIFT = 17;  // 7 bits
constexpr int FULLMOVE_SHIFT = 24;  // 10 bits
constexpr int RESULT_SHIFT = 34;    // 2 bits: 0 black won, 1 draw, 2 white won
constexpr int LAST_BIT = 36;
constexpr int GAME_SHIFT = 37;  // 27 bits
constexpr int MAX_HALFMOVE = 127;
constexpr int MAX_FULLMOVE = 1023;

void put_le(unsigned char* p, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
std::uint64_t get_le(const unsigned char* p, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v |= std::uint64_t(p[i]) << (8 * i);
    return v;
}
std::uint64_t tail_of(const Record& r) { return get_le(r.data() + 24, 8); }

}  // namespace

std::uint64_t fnv1a64(const unsigned char* data, std::size_t size) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ULL;
    return h;
}

Header encode_header(const RunParams& p) {
    Header h{};
    std::memcpy(h.data(), MAGIC, sizeof MAGIC);
    put_le(h.data() + 8, FORMAT_VERSION, 4);
    put_le(h.data() + 12, RECORD_SIZE, 4);
    put_le(h.data() + 16, p.seed, 8);
    put_le(h.data() + 24, p.nodes, 4);
    put_le(h.data() + 28, p.random_plies, 4);
    put_le(h.data() + 32, p.hash_mb, 4);
    put_le(h.data() + 40, p.net_hash, 8);
    put_le(h.data() + 56, fnv1a64(h.data(), 56), 8);
    return h;
}

engine::Result<RunParams> decode_header(const unsigned char* data, std::size_t size) {
    using R = engine::Result<RunParams>;
    if (size < sizeof MAGIC || std::memcmp(data, MAGIC, sizeof MAGIC) != 0)
        return R::failure("not an outpost-datagen binary file (no OPDATA01 header)");
    if (size < HEADER_SIZE) return R::failure("the file header is cut short");
    if (get_le(data + 56, 8) != fnv1a64(data, 56))
        return R::failure("the file header is damaged (checksum mismatch)");
    const std::uint64_t version = get_le(data + 8, 4), record = get_le(data + 12, 4);
    if (version != FORMAT_VERSION)
        return R::failure("format version " + std::to_string(version) + ", this program reads " +
                          std::to_string(FORMAT_VERSION));
    if (record != RECORD_SIZE)
        return R::failure("records of " + std::to_string(record) + " bytes, expected " +
                          std::to_string(RECORD_SIZE));
    RunParams p;
    p.seed = get_le(data + 16, 8);
    p.nodes = std::uint32_t(get_le(data + 24, 4));
    p.random_plies = std::uint32_t(get_le(data + 28, 4));
    p.hash_mb = std::uint32_t(get_le(data + 32, 4));
    p.net_hash = get_le(data + 40, 8);
    return p;
}

std::string describe_difference(const RunParams& file, const RunParams& wanted) {
    std::string out;
    auto field = [&out](const char* name, std::uint64_t a, std::uint64_t b) {
        if (a == b) return;
        out += (out.empty() ? "" : ", ") + std::string(name) + " " + std::to_string(a) + " vs " +
               std::to_string(b);
    };
    field("seed", file.seed, wanted.seed);
    field("nodes", file.nodes, wanted.nodes);
    field("random plies", file.random_plies, wanted.random_plies);
    field("hash MB", file.hash_mb, wanted.hash_mb);
    field("net hash", file.net_hash, wanted.net_hash);
    return out;
}

engine::Result<Record> encode_record(const engine::Board& b, int score_white, float result,
                                     std::uint64_t game, bool last) {
    using R = engine::Result<Record>;
    const engine::Bitboard occupied = b.pieces();
    if (b.chess960) return R::failure("a Chess960 position");
    if (engine::popcount(occupied) > 32) return R::failure("more than 32 pieces");
    if (b.halfmove_clock > MAX_HALFMOVE)
        return R::failure("halfmove clock " + std::to_string(b.halfmove_clock) + " above 127");
    if (b.fullmove_number < 1 || b.fullmove_number > MAX_FULLMOVE)
        return R::failure("fullmove number " + std::to_string(b.fullmove_number) +
                          " outside 1-1023");
    if (score_white < -32768 || score_white > 32767)
        return R::failure("score " + std::to_string(score_white) + " outside int16");
    if (result != 0.0f && result != 0.5f && result != 1.0f)
        return R::failure("result " + std::to_string(result) + " is not 1, 0.5 or 0");
    if (game >= MAX_GAMES) return R::failure("game index " + std::to_string(game) + " >= 2^27");

    unsigned codes[engine::SQUARE_NB];
    for (engine::Bitboard bb = occupied; bb; bb &= bb - 1) {
        const engine::Square s = engine::lsb(bb);
        codes[s] = b.piece_on(s);
    }
    for (int idx = 0; idx < 4; ++idx)
        if (b.castling & (1 << idx)) {
            const engine::Square rook = b.castling_rook[idx];
            const engine::Color c = idx < 2 ? engine::WHITE : engine::BLACK;
            if (!engine::is_ok(rook) || b.piece_on(rook) != engine::make_piece(c, engine::ROOK))
                return R::failure("a castling right without its rook");
            codes[rook] = CASTLING_ROOK + 8u * c;
        }
    if (b.en_passant != engine::SQ_NONE) {
        // The pawn that has just advanced two squares stands one square past the target.
        const engine::Color them = ~b.side;
        const engine::Square pawn = engine::Square(b.en_passant + engine::pawn_push(them));
        codes[pawn] = EN_PASSANT_PAWN + 8u * them;
    }

    Record r{};
    put_le(r.data(), occupied, 8);
    int i = 0;
    for (engine::Bitboard bb = occupied; bb; bb &= bb - 1, ++i)
        r[std::size_t(8 + i / 2)] |=
            static_cast<unsigned char>(codes[engine::lsb(bb)] << (4 * (i & 1)));
    const std::uint64_t res = result == 1.0f ? 2 : result == 0.5f ? 1 : 0;
    const std::uint64_t tail =
        std::uint64_t(std::uint16_t(std::int16_t(score_white))) | std::uint64_t(b.side) << STM_BIT |
        std::uint64_t(b.halfmove_clock) << HALFMOVE_SHIFT |
        std::uint64_t(b.fullmove_number) << FULLMOVE_SHIFT | res << RESULT_SHIFT |
        std::uint64_t(last) << LAST_BIT | game << GAME_SHIFT;
    put_le(r.data() + 24, tail, 8);
    return r;
}

engine::Result<Decoded> decode_record(const Record& r) {
    using R = engine::Result<Decoded>;
    const engine::Bitboard occupied = get_le(r.data(), 8);
    const int count = engine::popcount(occupied);
    if (count > 32) return R::failure("more than 32 pieces");
    const std::uint64_t tail = tail_of(r);
    const engine::Color stm = engine::Color((tail >> STM_BIT) & 1);
    const int halfmove = int((tail >> HALFMOVE_SHIFT) & 127);
    const int fullmove = int((tail >> FULLMOVE_SHIFT) & 1023);
    const int res = int((tail >> RESULT_SHIFT) & 3);
    if (fullmove == 0) return R::failure("fullmove number 0");
    if (res == 3) return R::failure("result code 3");

    char board[64];
    std::fill(std::begin(board), std::end(board), '\0');
    std::string castling, en_passant = "-";
    int i = 0;
    for (engine::Bitboard bb = occupied; bb; bb &= bb - 1, ++i) {
        const engine::Square s = engine::lsb(bb);
        const unsigned code = (r[std::size_t(8 + i / 2)] >> (4 * (i & 1))) & 15u;
        const engine::Color c = engine::Color(code >> 3);
        const unsigned kind = code & 7u;
        const bool white = c == engine::WHITE;
        if (kind == CASTLING_ROOK) {
            // Standard chess only: a rook in its corner, its king on the e-file (checked by the
            // FEN parser, which finds the rook the letter names).
            if (s != engine::relative_square(c, engine::A1) &&
                s != engine::relative_square(c, engine::H1))
                return R::failure("a castling rook off its corner");
            const char letter = engine::file_of(s) == 7 ? 'k' : 'q';
            castling += white ? char(letter - 'a' + 'A') : letter;
            board[s] = white ? 'R' : 'r';
        } else if (kind == EN_PASSANT_PAWN) {
            if (en_passant != "-") return R::failure("two en-passant pawns");
            if (c == stm || engine::relative_rank(c, s) != 3)
                return R::failure("an en-passant pawn that cannot have just moved two squares");
            en_passant = engine::square_name(engine::Square(s - engine::pawn_push(c)));
            board[s] = white ? 'P' : 'p';
        } else {
            static constexpr char LETTERS[] = "PNBRQK";
            board[s] = white ? LETTERS[kind] : char(LETTERS[kind] - 'A' + 'a');
        }
    }
    for (int j = i; j < 32; ++j)
        if ((r[std::size_t(8 + j / 2)] >> (4 * (j & 1))) & 15u)
            return R::failure("piece codes beyond the pieces on the board");
    // KQkq in FEN order, whatever order the squares gave.
    std::string ordered;
    for (char c : std::string("KQkq"))
        if (castling.find(c) != std::string::npos) ordered += c;

    std::string fen = engine::fen_placement(std::string_view(board, 64), '\0');
    fen += stm == engine::WHITE ? " w " : " b ";
    fen += ordered.empty() ? "-" : ordered;
    fen += " " + en_passant + " " + std::to_string(halfmove) + " " + std::to_string(fullmove);
    auto parsed = engine::parse_fen(fen);
    if (!parsed) return R::failure(parsed.error());
    if (parsed->chess960) return R::failure("a Chess960 castling right");

    Decoded d;
    d.board = *parsed;
    d.score_white = std::int16_t(std::uint16_t(tail & 0xffff));
    d.result = res == 2 ? 1.0f : res == 1 ? 0.5f : 0.0f;
    d.game = tail >> GAME_SHIFT;
    d.last = (tail >> LAST_BIT) & 1;
    return d;
}

std::uint64_t record_game(const Record& r) { return tail_of(r) >> GAME_SHIFT; }
bool record_last(const Record& r) { return (tail_of(r) >> LAST_BIT) & 1; }
void mark_last(Record& r) {
    r[24 + LAST_BIT / 8] |= static_cast<unsigned char>(1u << (LAST_BIT % 8));
}

}  // namespace datagen
