// Where a move we played came from: the search, or knowledge the search was not asked for.
#pragma once

namespace service {

enum class MoveSource { Search, Book, Explorer, Cloud, Tablebase, Chessdb, Syzygy };

// "search", "book", "explorer", "cloud", "tablebase" (the online one), "chessdb", "syzygy" (the
// local tables chose among their moves): the log's "(book)" and the PGN's "{ book }".
[[nodiscard]] constexpr const char* to_string(MoveSource s) {
    switch (s) {
        case MoveSource::Search:
            return "search";
        case MoveSource::Book:
            return "book";
        case MoveSource::Explorer:
            return "explorer";
        case MoveSource::Cloud:
            return "cloud";
        case MoveSource::Tablebase:
            return "tablebase";
        case MoveSource::Chessdb:
            return "chessdb";
        case MoveSource::Syzygy:
            return "syzygy";
    }
    return "?";
}

}  // namespace service
