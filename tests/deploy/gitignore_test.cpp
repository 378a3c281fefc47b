// .gitignore covers every file the README has an operator create inside a checkout (configs,
// the env file with the token, PGN folders), so `git add -A` after following it stages no token.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "source_tree.hpp"

namespace {

namespace fs = std::filesystem;

// Runs a shell command in the source tree; its exit status, stdout in *out when given.
int run(const std::string& command, std::string* out = nullptr) {
    const std::string full = "cd '" + deploy_test::kSource.string() + "' && " + command;
    FILE* pipe = popen(full.c_str(), "r");
    if (pipe == nullptr) return -1;
    char buffer[4096];
    std::string text;
    while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) text += buffer;
    const int status = pclose(pipe);
    if (out != nullptr) *out = text;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool in_git_checkout() { return run("git rev-parse --is-inside-work-tree >/dev/null 2>&1") == 0; }

// True when git would not stage `path` (relative to the source root), whether it exists or not.
bool ignored(const std::string& path) {
    return run("git check-ignore -q --no-index -- '" + path + "' 2>/dev/null") == 0;
}

bool has_tracked_files(const std::string& dir) {
    std::string out;
    run("git ls-files -- '" + dir + "' 2>/dev/null", &out);
    return !out.empty();
}

std::vector<std::string> words(const std::string& command) {
    std::istringstream in(command);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::string joined(const std::string& cwd, const std::string& path) {
    return (fs::path(cwd) / path).lexically_normal().generic_string();
}

struct Created {
    std::set<std::string> files;
    std::set<std::string> dirs;
};

// The paths inside the checkout that the README's ```sh blocks (cd, mkdir -p, cp) and its
// "Copy `a` to `b`" prose create. Absolute paths and $VARIABLES lie outside the checkout.
Created created_by_readme(const std::string& readme) {
    Created created;
    const auto inside = [](const std::string& p) {
        return !p.empty() && p[0] != '/' && p[0] != '$' && p[0] != '"' && p[0] != '-';
    };
    std::istringstream lines(readme);
    bool in_block = false;
    std::string cwd = ".";
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("```")) {
            in_block = line == "```sh";
            cwd = ".";
            continue;
        }
        if (!in_block) {
            // "Copy `A` to `B`": B is a file the user creates. (No <regex>: GCC 12 warns
            // maybe-uninitialized inside it at -O1, which breaks the sanitize build.)
            for (std::size_t at = line.find("Copy `"); at != std::string::npos;
                 at = line.find("Copy `", at + 1)) {
                const auto from_end = line.find('`', at + 6);
                if (from_end == std::string::npos || line.compare(from_end, 6, "` to `") != 0)
                    continue;
                const auto to_end = line.find('`', from_end + 6);
                if (to_end == std::string::npos) continue;
                const std::string target = line.substr(from_end + 6, to_end - from_end - 6);
                if (inside(target)) created.files.insert(joined(".", target));
            }
            continue;
        }
        if (const auto hash = line.find(" #"); hash != std::string::npos) line.resize(hash);
        if (line.starts_with("#")) continue;
        std::size_t start = 0;
        while (start <= line.size()) {
            std::size_t end = line.find("&&", start);
            if (end == std::string::npos) end = line.size();
            std::vector<std::string> w = words(line.substr(start, end - start));
            start = end + 2;
            if (!w.empty() && w[0] == "sudo") w.erase(w.begin());
            if (w.empty()) continue;
            if (w[0] == "cd" && w.size() == 2) {
                cwd = joined(cwd, w[1]);
            } else if (w[0] == "mkdir") {
                for (std::size_t i = 1; i < w.size(); ++i)
                    if (inside(w[i])) created.dirs.insert(joined(cwd, w[i]));
            } else if (w[0] == "cp" && w.size() >= 3 && inside(w.back())) {
                created.files.insert(joined(cwd, w.back()));
            }
        }
    }
    return created;
}

TEST(Gitignore, ReadmeParserFindsTheKnownSteps) {
    // Guards the parser below: these steps are in the README today (quick start, Docker, Compose).
    const Created c = created_by_readme(deploy_test::read_text(deploy_test::kSource / "README.md"));
    for (const char* file :
         {"config.yml", "config/config.yml", "deploy/outpost.env", "deploy/config/config.yml"})
        EXPECT_TRUE(c.files.count(file)) << file;
    for (const char* dir : {"pgn", "deploy/config", "deploy/pgn"})
        EXPECT_TRUE(c.dirs.count(dir)) << dir;
}

TEST(Gitignore, CoversEveryFileTheReadmeHasOperatorsCreate) {
    if (!in_git_checkout()) GTEST_SKIP() << "not a git checkout: " << deploy_test::kSource;
    const Created c = created_by_readme(deploy_test::read_text(deploy_test::kSource / "README.md"));
    for (const std::string& file : c.files) EXPECT_TRUE(ignored(file)) << file;
    for (const std::string& dir : c.dirs) {
        if (has_tracked_files(dir)) continue;  // e.g. `mkdir -p config` at the root: source folder
        EXPECT_TRUE(ignored(dir + "/")) << dir;
        EXPECT_TRUE(ignored(dir + "/game.pgn")) << dir;
    }
}

TEST(Gitignore, ExamplesAndSourcesStayTracked) {
    if (!in_git_checkout()) GTEST_SKIP() << "not a git checkout: " << deploy_test::kSource;
    for (const char* path :
         {"config/config.example.yml", "deploy/outpost.env.example", "deploy/docker-compose.yml",
          "deploy/kubernetes/kustomization.yaml", "config/load.cpp", "README.md"})
        EXPECT_FALSE(ignored(path)) << path;
}

}  // namespace
