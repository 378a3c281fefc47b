// Files an operator names (the config, the token file, opening books, the matchmaker's memory)
// read so that no file can hang or swamp the daemon: the open never blocks (a FIFO), anything
// but a regular file is refused (a FIFO, a socket, /dev/zero), and so is a file larger than the
// reader's limit, before a byte is read (a 20 GB or sparse file). check-config asks the same
// questions through file_problem, so it passes only what `run` can read.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "common/result.hpp"

namespace common {

// The reason read_bounded_file and file_problem give for a name that is not there.
inline constexpr std::string_view kNoSuchFile = "the file does not exist";

// Why `path` is not a regular file of at most max_bytes that this process can open for reading,
// in words for an operator ("it is a FIFO (named pipe), not a regular file", "it is 21474836480
// bytes, larger than the 1048576 this file may be"); nullopt when it is. Symbolic links are
// followed (a Kubernetes ConfigMap or Secret is one).
[[nodiscard]] std::optional<std::string> file_problem(const std::filesystem::path& path,
                                                      std::uint64_t max_bytes);

// The whole of `path`, after the checks of file_problem on the file it opened (O_NONBLOCK, then
// fstat), read up to max_bytes (a file that grows past it meanwhile is refused too). The error
// is the reason alone, for the caller to put after the file's name.
[[nodiscard]] Result<std::string> read_bounded_file(const std::filesystem::path& path,
                                                    std::uint64_t max_bytes);

}  // namespace common
