// Reading a binary data file: its header, its records up to the end of the last complete game,
// and what lies beyond (a game cut off mid-write, a partial record), which readers ignore and a
// resuming generator cuts off.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "tools/datagen/record.hpp"

namespace datagen {

struct FileScan {
    RunParams params;
    std::uint64_t records = 0;       // records of complete games, from the first on
    std::uint64_t torn_records = 0;  // whole records after them: a game cut off mid-write
    std::uint64_t torn_bytes = 0;    // the bytes of a partial last record
    std::uint64_t complete_size() const { return HEADER_SIZE + records * RECORD_SIZE; }
};

// Whether the file starts with the binary format's magic (else it is text, or not data).
bool is_binary_data_file(const std::string& path);

// Checks the header and calls `each` for the records of complete games in file order, the first
// `max_records` of them (0: all). The scan, or why the file cannot be read.
engine::Result<FileScan> read_data_file(const std::string& path,
                                        const std::function<void(const Record&)>& each,
                                        std::uint64_t max_records = 0);

}  // namespace datagen
