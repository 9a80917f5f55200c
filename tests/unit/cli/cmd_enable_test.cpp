// `caveman enable|disable` through the verb table (issue 24), on a temp HOME without any agent
// binary: the marker appears and vouches for the edits, enabling twice re-applies cleanly,
// disable restores the bytes, and a hand-written base URL makes enable refuse untouched.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <sstream>

#include "cli_lib.h"
#include "config_journal.h"
#include "context.h"
#include "enable_state.h"
#include "support/test_support.h"
#include "unit/cli/run_cli.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

class CmdEnable : public ::testing::Test {
 protected:
  TempDir dir;
  std::string home() { return dir.file("home"); }
  std::string state() { return dir.file("home/.caveman"); }
  Environment env() {
    return Environment({{"HOME", home()}, {"CAVEMAN_HOME", state()}, {"PATH", "/nonexistent"},
                        {"CAVEMAN_LISTEN", "127.0.0.1:9"}});
  }
  int cli(const std::vector<std::string>& args, std::string* out = nullptr) {
    testing::CliOutcome o = testing::run_cli(args, env());
    if (out != nullptr) *out = o.out + o.err;
    return o.code;
  }
  void SetUp() override { ::mkdir(home().c_str(), 0700); }
};

TEST_F(CmdEnable, CodexRoundTripRestoresTheBytes) {
  ::mkdir((home() + "/.codex").c_str(), 0700);
  const std::string cfg = home() + "/.codex/config.toml";
  const std::string before = "model = \"o3\"\n";
  caveman::testing::write_file(cfg, before);
  std::string out;
  ASSERT_EQ(cli({"enable", "codex", "--no-mcp"}, &out), 0) << out;
  EXPECT_NE(out.find("codex enabled"), std::string::npos);
  auto marker = read_enable_marker(state(), "codex");
  ASSERT_TRUE(marker.has_value());
  EXPECT_EQ(marker->base_url, "http://127.0.0.1:9/w/codex");
  EXPECT_FALSE(marker->mcp_by_enable);
  Context ctx{env(), nullptr, nullptr, ""};
  EXPECT_TRUE(agent_enabled(ctx, "codex"));
  ASSERT_EQ(cli({"enable", "codex", "--no-mcp"}, &out), 0) << "enabling again: " << out;
  EXPECT_EQ(read_file_bytes(cfg)->rfind("model_provider = \"caveman\"\n", 0), 0u);
  ASSERT_EQ(cli({"disable", "codex"}, &out), 0) << out;
  EXPECT_EQ(*read_file_bytes(cfg), before);
  EXPECT_FALSE(read_enable_marker(state(), "codex").has_value());
  EXPECT_FALSE(agent_enabled(ctx, "codex"));
}

TEST_F(CmdEnable, DoctorSeesAnEntryRemovedByHand) {
  std::string out;
  ASSERT_EQ(cli({"enable", "gemini", "--no-mcp"}, &out), 0) << out;
  EXPECT_EQ(cli({"doctor", "gemini"}, &out), 1) << "gemini is not on PATH";
  EXPECT_NE(out.find("ok      enabled → http://127.0.0.1:9/w/gemini"), std::string::npos) << out;
  caveman::testing::write_file(home() + "/.gemini/.env", "");
  cli({"doctor", "gemini"}, &out);
  EXPECT_NE(out.find("broken  " + home() + "/.gemini/.env: GOOGLE_GEMINI_BASE_URL is gone"),
            std::string::npos) << out;
  EXPECT_NE(out.find("run:    caveman enable gemini"), std::string::npos) << out;
}

TEST_F(CmdEnable, HandWrittenProviderRefusesAndChangesNothing) {
  ::mkdir((home() + "/.codex").c_str(), 0700);
  const std::string cfg = home() + "/.codex/config.toml";
  const std::string mine = "model_provider = \"azure\"\n";
  caveman::testing::write_file(cfg, mine);
  std::string out;
  EXPECT_EQ(cli({"enable", "codex", "--no-mcp"}, &out), 1);
  EXPECT_NE(out.find("cave_config_entry_exists"), std::string::npos) << out;
  EXPECT_EQ(*read_file_bytes(cfg), mine);
  EXPECT_FALSE(read_enable_marker(state(), "codex").has_value());
}

TEST_F(CmdEnable, EntriesEditedByHandAreLeftAloneOnDisable) {
  std::string out;
  ASSERT_EQ(cli({"enable", "gemini", "--no-mcp"}, &out), 0) << out;
  const std::string env_file = home() + "/.gemini/.env";
  caveman::testing::write_file(env_file, "GOOGLE_GEMINI_BASE_URL=https://mine\n");
  EXPECT_EQ(cli({"disable", "gemini"}, &out), 1);
  EXPECT_NE(out.find("left alone"), std::string::npos) << out;
  EXPECT_EQ(*read_file_bytes(env_file), "GOOGLE_GEMINI_BASE_URL=https://mine\n");
  EXPECT_FALSE(read_file_bytes(home() + "/.gemini/settings.json").has_value())
      << "the other file enable wrote is restored (removed) all the same";
}

}  // namespace
}  // namespace caveman::cli
