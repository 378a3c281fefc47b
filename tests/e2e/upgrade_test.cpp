// An account without the BOT title (emulator `account.title: null`): `outpost run` refuses to
// start and names `outpost upgrade`; `outpost upgrade` does nothing without `--yes` and upgrades
// the account with it.
#include <gtest/gtest.h>

#include <fstream>

#include "bot_fixture.hpp"
#include "child_process.hpp"
#include "tests/engine/polyglot_test_util.hpp"

namespace e2e {
namespace {

int upgrade_requests(emu::EmulatorFixture& fx) {
    return requests_to(fx, "/api/bot/account/upgrade");
}

TEST(E2eUpgrade, ANonBotAccountIsRefusedAndUpgradedOnlyWithYes) {
    emu::EmulatorFixture fx(R"(
name: not-a-bot
seed: 41
account: {username: HumanAccount, title: null, played_games: 0}
)");
    test_util::BookDir dir("e2e-upgrade");
    const std::string config_path = (dir.path() / "config.yml").string();
    std::ofstream(config_path) << config_text(fx, settings("{concurrency: 1}"));

    // `run`: exits non-zero at start-up, says how to upgrade, and never opens the event stream.
    const auto run = run_to_end(OUTPOST_EXE, {"run", "--config", config_path}, dir.path().string());
    EXPECT_NE(run.rc, 0) << run.output;
    EXPECT_NE(run.rc, -1) << "timed out: " << run.output;
    EXPECT_NE(run.output.find("is not a BOT account"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find("outpost upgrade --config " + config_path + " --yes"),
              std::string::npos)
        << run.output;
    EXPECT_EQ(requests_to(fx, "/api/stream/event"), 0);
    EXPECT_EQ(upgrade_requests(fx), 0);

    // `upgrade` without --yes: an irreversible step needs the confirmation; nothing is sent.
    const auto unconfirmed =
        run_to_end(OUTPOST_EXE, {"upgrade", "--config", config_path}, dir.path().string());
    EXPECT_NE(unconfirmed.rc, 0) << unconfirmed.output;
    EXPECT_NE(unconfirmed.rc, -1) << "timed out: " << unconfirmed.output;
    EXPECT_NE(unconfirmed.output.find("--yes"), std::string::npos) << unconfirmed.output;
    EXPECT_EQ(upgrade_requests(fx), 0);

    // `upgrade --yes`: one upgrade request, answered 200.
    const auto confirmed =
        run_to_end(OUTPOST_EXE, {"upgrade", "--config", config_path, "--yes"}, dir.path().string());
    EXPECT_EQ(confirmed.rc, 0) << confirmed.output;
    EXPECT_NE(confirmed.output.find("HumanAccount is now a BOT account"), std::string::npos)
        << confirmed.output;
    ASSERT_EQ(upgrade_requests(fx), 1);
    for (const auto& r : fx->requests())
        if (r.path == "/api/bot/account/upgrade") {
            EXPECT_EQ(r.method, "POST");
            EXPECT_EQ(r.status, 200);
        }

    // The account now has the title: a second `upgrade --yes` sees it and sends nothing more.
    const auto again =
        run_to_end(OUTPOST_EXE, {"upgrade", "--config", config_path, "--yes"}, dir.path().string());
    EXPECT_EQ(again.rc, 0) << again.output;
    EXPECT_NE(again.output.find("HumanAccount is already a BOT account"), std::string::npos)
        << again.output;
    EXPECT_EQ(upgrade_requests(fx), 1);
}

}  // namespace
}  // namespace e2e
