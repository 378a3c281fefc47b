// read_bounded_file and file_problem: stat before the open (a device or FIFO is not even
// opened), open with O_NONBLOCK (a FIFO swapped in meanwhile cannot hang the open), fstat on
// what was opened, then a read of at most the limit.
#include "common/bounded_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "common/errno_text.hpp"

namespace common {

namespace {

std::string open_error(int err) {
    if (err == ENOENT) return std::string(kNoSuchFile);
    if (err == EACCES) return "permission denied";
    return errno_text(err);
}

std::optional<std::string> kind_problem(const struct stat& st, std::uint64_t max_bytes) {
    if (S_ISDIR(st.st_mode)) return "it is a folder, not a file";
    if (S_ISFIFO(st.st_mode)) return "it is a FIFO (named pipe), not a regular file";
    if (S_ISSOCK(st.st_mode)) return "it is a socket, not a regular file";
    if (!S_ISREG(st.st_mode)) return "it is a device, not a regular file";
    if (st.st_size < 0 || std::uint64_t(st.st_size) > max_bytes)
        return "it is " + std::to_string(st.st_size) + " bytes, larger than the " +
               std::to_string(max_bytes) + " this file may be";
    return std::nullopt;
}

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// The opened file, or why not.
Result<int> open_checked(const std::filesystem::path& path, std::uint64_t max_bytes, Fd& holder) {
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0)
        if (auto why = kind_problem(st, max_bytes)) return Error{*why};
    holder.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (holder.fd < 0) return Error{open_error(errno)};
    // Again on what was opened: the name may point elsewhere by now.
    if (::fstat(holder.fd, &st) != 0) return Error{open_error(errno)};
    if (auto why = kind_problem(st, max_bytes)) return Error{*why};
    return holder.fd;
}

}  // namespace

std::optional<std::string> file_problem(const std::filesystem::path& path,
                                        std::uint64_t max_bytes) {
    Fd fd;
    auto opened = open_checked(path, max_bytes, fd);
    if (!opened) return opened.error().message;
    return std::nullopt;
}

Result<std::string> read_bounded_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
    Fd fd;
    auto opened = open_checked(path, max_bytes, fd);
    if (!opened) return opened.error();
    std::string content;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd.fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return Error{"reading it failed: " + open_error(errno)};
        if (n == 0) break;
        if (content.size() + std::size_t(n) > max_bytes)
            return Error{"it grew past the " + std::to_string(max_bytes) +
                         " bytes this file may be while it was read"};
        content.append(buffer, std::size_t(n));
    }
    return content;
}

}  // namespace common
