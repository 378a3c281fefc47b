// The repository speaks of the product alone: no file refers to a tracker's issue numbers, to
// a work diary's numbered sessions or stops, or to a path outside the checkout (the reference
// library beside it, the machine's work folder), none of which a reader of a clone can follow.
// History belongs in commit messages. Data files (tests/data, the fuzz corpora) and binary files
// are not read.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "source_tree.hpp"

namespace {

namespace fs = std::filesystem;

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// At `at` in `text`: `word`, an optional plural "s", then one space (or none with
// `optional_space`), an optional '#' and a digit. `word_start` asks for a word boundary before
// `word`; without it the word may end an identifier (a test named after a tracker issue).
bool numbered_word_at(std::string_view text, std::size_t at, std::string_view word,
                      bool optional_space, bool word_start) {
    if (text.substr(at, word.size()) != word) return false;
    if (word_start && at > 0 && (is_letter(text[at - 1]) || text[at - 1] == '_')) return false;
    std::size_t i = at + word.size();
    if (i < text.size() && text[i] == 's') ++i;
    if (i < text.size() && text[i] == ' ')
        ++i;
    else if (!optional_space)
        return false;
    if (i < text.size() && text[i] == '#') ++i;
    return i < text.size() && is_digit(text[i]);
}

// Text with the '|' marks taken out: this file writes every pattern it looks for split by one,
// so that it passes its own check.
std::string unmarked(std::string text) {
    std::erase(text, '|');
    return text;
}

// What a line refers to that a reader of the repository cannot follow, or nothing. Lower-case
// matching; the patterns (one per kind) are written so that prose about "an issue with the
// clock", "a game session" or "stop the search" passes.
std::optional<std::string> outside_reference(std::string_view line) {
    // The reference library beside the checkout, and the machine's work folder.
    static const std::string library = unmarked("../sha|red"), work = unmarked("/wo|rk/");
    std::string text(line);
    for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
    for (std::size_t at = 0; at < text.size(); ++at) {
        if (numbered_word_at(text, at, "issue", true, false)) return "a tracker issue number";
        if (numbered_word_at(text, at, "session", false, true)) return "a work-diary session";
        if (numbered_word_at(text, at, "stop", false, true)) return "a work-diary stop";
        if (text.compare(at, 2, "(#") == 0) {
            std::size_t i = at + 2;
            while (i < text.size() && is_digit(text[i])) ++i;
            if (i > at + 2 && i < text.size() && text[i] == ')') return "a tracker reference (#N)";
        }
        if (text.compare(at, library.size(), library) == 0) return "a path outside the repository";
        if (text.compare(at, work.size(), work) == 0 &&
            (at == 0 ||
             std::string_view(" \t\"'`(=:,[<").find(text[at - 1]) != std::string_view::npos))
            return "a path outside the repository";
    }
    return std::nullopt;
}

// The repository's files, relative to its root: git's tracked files in a checkout, else every
// file below the root but the build trees and hidden folders (a source archive).
std::vector<std::string> repository_files() {
    std::vector<std::string> files;
    const std::string command =
        "git -C '" + deploy_test::kSource.string() + "' ls-files -z 2>/dev/null";
    if (FILE* pipe = popen(command.c_str(), "r")) {
        std::string name;
        for (int c; (c = std::fgetc(pipe)) != EOF;) {
            if (c != '\0') {
                name += char(c);
            } else {
                files.push_back(name);
                name.clear();
            }
        }
        const int status = pclose(pipe);
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !files.empty()) return files;
    }
    files.clear();
    for (auto it = fs::recursive_directory_iterator(deploy_test::kSource); it != fs::end(it);
         ++it) {
        const std::string name = it->path().filename().string();
        if (it->is_directory() && (name.starts_with(".") || name.starts_with("build"))) {
            it.disable_recursion_pending();
        } else if (it->is_regular_file()) {
            files.push_back(fs::relative(it->path(), deploy_test::kSource).generic_string());
        }
    }
    return files;
}

// Data whose words are not ours: test positions, API payloads, fuzz inputs. Their SOURCES
// notes are ours and are read.
bool is_data(const std::string& path) {
    if (path.starts_with("tests/fuzz/corpus/")) return true;
    return path.starts_with("tests/data/") && !path.ends_with(".md");
}

TEST(RepositoryText, ThePatternsFindWhatTheyAreMeantToFind) {
    const std::vector<std::string> hits = {
        "see iss|ue 17, point 9",
        "(Iss|ue 14 asked for `*` there)",
        "TEST(Systemd, UnitHasTheIss|ue17Hardening)",
        "iss|ue #5 and iss|ues 16",
        "docs/STRENGTH.md, sess|ion 22.",
        "over sess|ions 12-14",
        "CI took 2178 s at st|ops 21-24 and 3439 s at st|op 25",
        "docs: nn7 against Ethereal 12 (#|19)",
        "opponents as in ../sha|red/notes/ladder.md",
        "unzip -o \"$REPO/../sha|red/chess-data/8moves_v3.pgn.zip\"",
        "`/wo|rk/nnue-data/search/screen.sh BIN SRAND`",
        "/wo|rk/shared/DESIGN.md",
    };
    for (const std::string& line : hits)
        EXPECT_TRUE(outside_reference(unmarked(line))) << unmarked(line);

    const std::vector<std::string> prose = {
        "this issue is the reason for the retry",
        "an issue with the clock at 10+0.1",
        "issues found by the fuzzer are fixed first",
        "a game session's thread; the session ends with stop and quit",
        "TEST(E2eBadInput, EachBadLineEndsItsSessionAndTheDaemonPlaysOn)",
        "EXPECT_EQ(edit_distance(\"kitten\", \"sitting\"), 3u);",
        "stop the search after 5 s; stopped 3 times; nonstop 24 hours",
        "sessions <= 4 at once",
        "every shared library outpost needs",
        "https://example.org/work/item and src/work/x.cpp",
        "{\"id\":\"#19\"}",
    };
    for (const std::string& line : prose) EXPECT_FALSE(outside_reference(line)) << line;
}

TEST(RepositoryText, NoFileRefersToTheTrackerADiaryOrAPathOutsideTheRepository) {
    const std::vector<std::string> files = repository_files();
    ASSERT_GT(files.size(), 100u) << "the repository's files were not found under "
                                  << deploy_test::kSource;
    std::size_t read = 0;
    std::vector<std::string> found;
    for (const std::string& path : files) {
        if (is_data(path)) continue;
        const std::string text = deploy_test::read_text(deploy_test::kSource / path);
        if (text.find('\0') != std::string::npos) continue;  // a binary file (a net)
        ++read;
        std::istringstream lines(text);
        int number = 0;
        for (std::string line; std::getline(lines, line);) {
            ++number;
            if (const auto what = outside_reference(line))
                found.push_back(path + ":" + std::to_string(number) + ": " + *what + ": " + line);
        }
    }
    EXPECT_GT(read, 100u);
    std::string report;
    for (const std::string& hit : found) report += "  " + hit + "\n";
    EXPECT_TRUE(found.empty()) << found.size()
                               << " line(s) refer to what a reader of the repository cannot "
                                  "follow; say what the thing is instead (history belongs in "
                                  "commit messages, data in the repository):\n"
                               << report;
}

}  // namespace
