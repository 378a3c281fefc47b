// `outpost run` (run_command.hpp) in this process, up to the point where the Bot would start:
// a config that is missing, has errors or fails the start-up checks, Gaviota tables that do not
// load, a token the server refuses, an account that is no BOT, and a log-in that fails for a
// passing reason and is tried again.
// Each exits with the code the README gives (1) and says what is wrong; the log lines go to the
// config's log file, which the test reads.
#include "service/cli/run_command.hpp"

#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "tests/support/test_server.hpp"

namespace cli {
namespace {

constexpr const char* kRunToken = "lip_RunCommandTestToken_0123456789";

struct RunOutcome {
    int exit_code = 0;
    std::string err;  // what it wrote on std::cerr
    std::string log;  // the config's log file
};

// A folder of the test's own, removed afterwards.
class RunFolder {
  public:
    RunFolder() : path_(std::filesystem::path(::testing::TempDir()) / "run_command_test") {
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~RunFolder() { std::filesystem::remove_all(path_); }
    RunFolder(const RunFolder&) = delete;
    RunFolder& operator=(const RunFolder&) = delete;

    [[nodiscard]] std::string file(const std::string& name) const {
        return (path_ / name).string();
    }
    // A config at `url` (health endpoint at `health`, none by default), logging to log.txt
    // here, plus `more`; only its owner may read it, as the token requires.
    [[nodiscard]] std::string config(const std::string& url, const std::string& more = "",
                                     const std::string& health = "") const {
        const std::string path = file("config.yml");
        std::ofstream(path) << "token: \"" << kRunToken << "\"\nurl: \"" << url
                            << "\"\nhealth: {listen: \"" << health << "\"}\nlog: {file: \""
                            << file("log.txt") << "\"}\n"
                            << more;
        std::filesystem::permissions(
            path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
        return path;
    }

  private:
    std::filesystem::path path_;
};

// `outpost run ARGS...` as main() parses it; the default logger comes back afterwards (run sets
// up its own).
RunOutcome run_outpost(std::vector<std::string> args, const std::string& log_file = "") {
    const auto previous_logger = spdlog::default_logger();
    std::ostringstream err;
    std::streambuf* const previous_err = std::cerr.rdbuf(err.rdbuf());
    RunOutcome out;
    try {
        CLI::App app{"outpost"};
        add_run_command(app);
        args.insert(args.begin(), "run");
        std::reverse(args.begin(), args.end());  // CLI11 takes a vector in reverse order
        app.parse(args);
    } catch (const CLI::ParseError& e) {
        out.exit_code = e.get_exit_code();
    }
    std::cerr.rdbuf(previous_err);
    spdlog::default_logger()->flush();
    spdlog::set_default_logger(previous_logger);
    out.err = err.str();
    if (!log_file.empty()) {
        std::ifstream in(log_file);
        std::stringstream text;
        text << in.rdbuf();
        out.log = text.str();
    }
    return out;
}

std::string token_ok() {
    return std::string("{\"") + kRunToken +
           R"(":{"scopes":"bot:play,challenge:read","userId":"runbot","expires":null}})";
}

// The log-in's server: /api/token/test and /api/account answer as set; counts the account reads.
class LoginServer {
  public:
    LoginServer(std::string account_body, int failing_account_reads = 0, int token_status = 200)
        : account_body_(std::move(account_body)),
          failures_left_(failing_account_reads),
          token_status_(token_status),
          server_([this](test_support::Connection& c) {
              const std::string& target = c.request().target;
              if (target == "/api/token/test") {
                  c.respond(token_status_,
                            token_status_ == 200 ? token_ok() : R"({"error":"No such token"})");
              } else if (target == "/api/account") {
                  if (failures_left_.fetch_sub(1) > 0)
                      c.respond(503, "<html>down for maintenance</html>", "text/html");
                  else
                      c.respond(200, account_body_);
              } else {
                  c.respond(404, R"({"error":"Not found"})");
              }
          }) {}

    [[nodiscard]] std::string url() const { return server_.base_url(); }
    [[nodiscard]] std::vector<std::string> targets() const {
        std::vector<std::string> out;
        for (const auto& r : server_.requests()) out.push_back(r.target);
        return out;
    }

  private:
    std::string account_body_;
    std::atomic<int> failures_left_;
    int token_status_;
    test_support::TestServer server_;
};

constexpr const char* kHumanAccount = R"({"id":"runbot","username":"RunBot","perfs":{}})";

TEST(RunCommand, AMissingConfigFileExitsWith1AndNamesTheFile) {
    RunFolder folder;
    const std::string path = folder.file("no-such-config.yml");
    const RunOutcome r = run_outpost({"--config", path});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("outpost: the configuration has errors; nothing was started"),
              std::string::npos)
        << r.err;
}

TEST(RunCommand, AConfigWithErrorsExitsWith1AndNamesTheKey) {
    RunFolder folder;
    const std::string path = folder.config("http://127.0.0.1:9", "challenge: {concurrency: -3}\n");
    const RunOutcome r = run_outpost({"--config", path});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("challenge.concurrency"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("nothing was started"), std::string::npos) << r.err;
}

TEST(RunCommand, FailedStartUpChecksExitWith1BeforeAnyRequest) {
    RunFolder folder;
    LoginServer server(kHumanAccount);
    // The health endpoint's port is taken (by the log-in server itself).
    const std::string taken = server.url().substr(std::string("http://").size());
    const std::string path = folder.config(server.url(), "", taken);
    const RunOutcome r = run_outpost({"--config", path});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("error: health.listen: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("the start-up checks failed (outpost check-config says the same); "
                         "nothing was started"),
              std::string::npos)
        << r.err;
    EXPECT_TRUE(server.targets().empty());
}

TEST(RunCommand, GaviotaTablesThatDoNotLoadExitWith1BeforeTheLogIn) {
    RunFolder folder;
    LoginServer server(kHumanAccount);
    // Named like a table, so the config's check passes; the engine reads its header at start.
    std::filesystem::create_directories(folder.file("gaviota"));
    std::ofstream(folder.file("gaviota/kqk.gtb.cp4"), std::ios::binary) << "not a table\n";
    const std::string path =
        folder.config(server.url(), "engine: {tablebases: {gaviota_paths: [\"" +
                                        folder.file("gaviota") + "\"]}}\n");
    const RunOutcome r = run_outpost({"--config", path}, folder.file("log.txt"));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.log.find("engine.tablebases.gaviota_paths: " + folder.file("gaviota/kqk.gtb.cp4")),
              std::string::npos)
        << r.log << r.err;
    EXPECT_TRUE(server.targets().empty());
}

TEST(RunCommand, ARefusedTokenExitsWith1AndSaysWhereToMakeOne) {
    RunFolder folder;
    LoginServer server(kHumanAccount, 0, 401);
    const RunOutcome r =
        run_outpost({"--config", folder.config(server.url())}, folder.file("log.txt"));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.log.find("the token was refused by " + server.url()), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("Create a token with the bot:play scope at " + server.url() +
                         "/account/oauth/token"),
              std::string::npos)
        << r.log;
    // Refused once is refused: no second try, and the account is never read.
    EXPECT_EQ(server.targets(), (std::vector<std::string>{"/api/token/test"}));
    EXPECT_EQ(r.log.find(kRunToken), std::string::npos) << "the token is never logged";
}

TEST(RunCommand, AnAccountThatIsNoBotExitsWith1AndNamesTheUpgradeCommand) {
    RunFolder folder;
    LoginServer server(kHumanAccount);
    const std::string path = folder.config(server.url());
    const RunOutcome r = run_outpost({"--config", path}, folder.file("log.txt"));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.log.find("the account 'RunBot' is not a BOT account"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("outpost upgrade --config " + path + " --yes"), std::string::npos)
        << r.log;
    EXPECT_EQ(server.targets(), (std::vector<std::string>{"/api/token/test", "/api/account"}));
}

TEST(RunCommand, AServerErrorAtLogInIsTriedAgain) {
    RunFolder folder;
    LoginServer server(kHumanAccount, 1);  // the first account read meets a 503
    const std::string path = folder.config(server.url());
    const RunOutcome r = run_outpost({"--config", path}, folder.file("log.txt"));
    EXPECT_EQ(r.exit_code, 1);  // then the account is read: no BOT
    EXPECT_EQ(server.targets(), (std::vector<std::string>{"/api/token/test", "/api/account",
                                                          "/api/token/test", "/api/account"}));
    const auto retry = r.log.find(server.url() + " has a server error");
    const auto not_bot = r.log.find("is not a BOT account");
    ASSERT_NE(retry, std::string::npos) << r.log;
    ASSERT_NE(not_bot, std::string::npos) << r.log;
    EXPECT_LT(retry, not_bot);
    EXPECT_NE(r.log.find("trying again in"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("logged in to " + server.url() + " at attempt 2"), std::string::npos)
        << r.log;
}

}  // namespace
}  // namespace cli
