// Reading binary data files (see data_file.hpp).
#include "tools/datagen/data_file.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <vector>

namespace datagen {

bool is_binary_data_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char magic[sizeof MAGIC] = {};
    in.read(magic, sizeof magic);
    return in.gcount() == sizeof magic && std::memcmp(magic, MAGIC, sizeof MAGIC) == 0;
}

engine::Result<FileScan> read_data_file(const std::string& path,
                                        const std::function<void(const Record&)>& each,
                                        std::uint64_t max_records) {
    using R = engine::Result<FileScan>;
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) return R::failure("cannot open '" + path + "'");
    const std::uint64_t size = std::uint64_t(in.tellg());
    in.seekg(0);
    Header header{};
    in.read(reinterpret_cast<char*>(header.data()), std::streamsize(header.size()));
    auto params = decode_header(header.data(), std::size_t(in.gcount()));
    if (!params) return R::failure("'" + path + "': " + params.error());

    FileScan scan;
    scan.params = *params;
    const std::uint64_t whole = (size - HEADER_SIZE) / RECORD_SIZE;
    scan.torn_bytes = (size - HEADER_SIZE) % RECORD_SIZE;
    // The complete games end at the last record flagged as a game's last: search back for it
    // (a game is a few hundred records at most, so this reads only the tail).
    constexpr std::uint64_t CHUNK = 4096;
    std::vector<unsigned char> buffer(CHUNK * RECORD_SIZE);
    scan.records = 0;
    for (std::uint64_t end = whole; end > 0 && scan.records == 0;) {
        const std::uint64_t begin = end > CHUNK ? end - CHUNK : 0;
        in.seekg(std::streamoff(HEADER_SIZE + begin * RECORD_SIZE));
        in.read(reinterpret_cast<char*>(buffer.data()),
                std::streamsize((end - begin) * RECORD_SIZE));
        if (!in) return R::failure("cannot read '" + path + "'");
        for (std::uint64_t i = end; i > begin; --i) {
            Record r;
            std::memcpy(r.data(), buffer.data() + (i - 1 - begin) * RECORD_SIZE, RECORD_SIZE);
            if (record_last(r)) {
                scan.records = i;
                break;
            }
        }
        end = begin;
    }
    scan.torn_records = whole - scan.records;

    const std::uint64_t n = max_records ? std::min(max_records, scan.records) : scan.records;
    in.clear();
    in.seekg(std::streamoff(HEADER_SIZE));
    for (std::uint64_t done = 0; done < n;) {
        const std::uint64_t k = std::min(CHUNK, n - done);
        in.read(reinterpret_cast<char*>(buffer.data()), std::streamsize(k * RECORD_SIZE));
        if (!in) return R::failure("cannot read '" + path + "'");
        for (std::uint64_t i = 0; i < k; ++i) {
            Record r;
            std::memcpy(r.data(), buffer.data() + i * RECORD_SIZE, RECORD_SIZE);
            each(r);
        }
        done += k;
    }
    return scan;
}

}  // namespace datagen
