// A test's own temporary folder: made fresh and empty under the system's temporary folder
// (mkdtemp, so parallel test processes never share one), removed with all it holds at the end.
#pragma once

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>

namespace outpost::testing {

class TempDir {
  public:
    // The folder's name starts with `prefix` (which says whose it is, for a reader of /tmp).
    explicit TempDir(std::string_view prefix = "outpost-test-") {
        std::string pattern =
            (std::filesystem::temp_directory_path() / (std::string(prefix) + "XXXXXX")).string();
        if (!::mkdtemp(pattern.data()))
            throw std::system_error(errno, std::generic_category(), "mkdtemp " + pattern);
        path_ = pattern;
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }

    // Writes a file in the folder with the given permission bits and returns its path.
    std::string write(const std::string& name, const std::string& content,
                      ::mode_t mode = 0600) const {
        const std::filesystem::path file = path_ / name;
        {
            std::ofstream out(file, std::ios::binary);
            out << content;
            if (!out) throw std::runtime_error("cannot write " + file.string());
        }
        std::filesystem::permissions(file, std::filesystem::perms(mode));
        return file.string();
    }

  private:
    std::filesystem::path path_;
};

}  // namespace outpost::testing
