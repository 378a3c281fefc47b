// Where a move we played came from: the search, or knowledge the search was not asked for.
#pragma once

namespace service {

enum class MoveSource { Search, Book, Explorer, Cloud, Tablebase, Chessdb };

// "search", "book", "explorer", "cloud", "tablebase", "chessdb": the log's "(book)" and the
// PGN's "{ book }".
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
    }
    return "?";
}

}  // namespace service
