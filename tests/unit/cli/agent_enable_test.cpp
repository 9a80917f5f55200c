// `caveman enable` plans and their undo (issue 24): per agent, the edits land in the agent's
// own user config on a temp HOME, and undoing them leaves every file byte-identical (or gone
// when enable created it); a hand-written base URL makes enable refuse and change nothing.
#include "agent_enable.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "config_journal.h"
#include "enable_state.h"
#include "support/test_support.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

class AgentEnable : public ::testing::Test {
 protected:
  TempDir dir;
  std::string home() { return dir.file("home"); }
  std::string state() { return dir.file("home/.caveman"); }
  EnableInputs inputs() {
    return {Environment({{"HOME", home()}}), "/opt/caveman", "http://127.0.0.1:9999",
            "127.0.0.1:9999", state(), ""};
  }
  void SetUp() override { ::mkdir(home().c_str(), 0700); }

  std::vector<FileEdit> plan(const std::string& agent) {
    auto plan = plan_enable(*find_integration(agent), inputs(), /*with_hooks=*/false);
    EXPECT_TRUE(plan.ok()) << plan.status().ToString();
    return plan.ok() ? plan->edits : std::vector<FileEdit>{};
  }
};

TEST_F(AgentEnable, TableHasTheFourAgentsAndAHookSeamForEach) {
  std::vector<std::string> ids;
  for (const auto& a : agent_integrations()) {
    ids.push_back(a.id);
    EXPECT_NE(a.base_url, nullptr);
    EXPECT_NE(a.install_hooks, nullptr);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"claude", "codex", "gemini", "opencode", "qwen"}));
  std::vector<FileEdit> none;
  EXPECT_TRUE(find_integration("codex")->install_hooks(inputs(), &none).ok());
  EXPECT_TRUE(none.empty()) << "codex hooks: the seam is a no-op today";
}

TEST_F(AgentEnable, HooksLeftOutWithAWarningWhenTheProxyIsMissing) {
  auto claude = plan_enable(*find_integration("claude"), inputs(), /*with_hooks=*/true);
  ASSERT_TRUE(claude.ok());
  EXPECT_FALSE(claude->hooks);
  ASSERT_EQ(claude->warnings.size(), 1u);
  EXPECT_NE(claude->warnings[0].find("cave_native_hooks_no_proxy"), std::string::npos);
  auto codex = plan_enable(*find_integration("codex"), inputs(), /*with_hooks=*/true);
  ASSERT_TRUE(codex.ok());
  EXPECT_FALSE(codex->hooks) << "the codex seam adds nothing yet";
  EXPECT_TRUE(codex->warnings.empty());
}

TEST_F(AgentEnable, EnsureCommandPinsListenAndHome) {
  EXPECT_EQ(ensure_proxy_command(inputs()),
            "'/opt/caveman' 'ensure-proxy' '--listen' '127.0.0.1:9999' '--home' '" + state() + "'");
}

TEST_F(AgentEnable, EachAgentRoundTripsByteIdentical) {
  ::mkdir((home() + "/.codex").c_str(), 0700);
  const std::string codex_before = "# mine\nmodel = \"o3\"\n\n[mcp_servers.x]\ncommand = \"y\"\n";
  caveman::testing::write_file(home() + "/.codex/config.toml", codex_before);
  for (const std::string agent : {"claude", "codex", "gemini", "opencode", "qwen"}) {
    auto edits = plan(agent);
    ASSERT_FALSE(edits.empty()) << agent;
    auto applied = apply_edits(state(), agent, edits);
    ASSERT_TRUE(applied.ok()) << agent << ": " << applied.status().ToString();
    for (const auto& e : edits) {
      auto text = read_file_bytes(e.path);
      ASSERT_TRUE(text.has_value()) << e.path;
      EXPECT_NE(text->find("9999"), std::string::npos) << e.path;
    }
    UndoReport report = undo_edits(*applied);
    EXPECT_TRUE(report.status.ok()) << agent << ": " << report.status.ToString();
  }
  EXPECT_EQ(*read_file_bytes(home() + "/.codex/config.toml"), codex_before);
  struct stat st{};
  for (const char* gone : {"/.claude", "/.gemini", "/.config", "/.qwen"}) {
    EXPECT_NE(::stat((home() + gone).c_str(), &st), 0) << gone << " created by enable, removed";
  }
}

TEST_F(AgentEnable, CodexConfigNamesTheProviderAndItsAuthCommand) {
  auto edits = plan("codex");
  ASSERT_EQ(edits.size(), 1u);
  auto applied = apply_edits(state(), "codex", edits);
  ASSERT_TRUE(applied.ok());
  std::string text = *read_file_bytes(edits[0].path);
  EXPECT_EQ(text.rfind("model_provider = \"caveman\"\n", 0), 0u);
  EXPECT_NE(text.find("base_url = \"http://127.0.0.1:9999/w/codex/v1\""), std::string::npos);
  EXPECT_NE(text.find("[model_providers.caveman.auth]\ncommand = \"/opt/caveman\""), std::string::npos);
  EXPECT_NE(text.find("\"--print-env\", \"OPENAI_API_KEY\""), std::string::npos);
}

TEST_F(AgentEnable, AHandWrittenBaseUrlRefusesAndChangesNothing) {
  ::mkdir((home() + "/.claude").c_str(), 0700);
  const std::string mine = "{\"env\":{\"ANTHROPIC_BASE_URL\":\"https://corp\"}}";
  caveman::testing::write_file(home() + "/.claude/settings.json", mine);
  auto applied = apply_edits(state(), "claude", plan("claude"));
  ASSERT_FALSE(applied.ok());
  EXPECT_EQ(applied.status().error_code(), "cave_config_entry_exists");
  EXPECT_EQ(*read_file_bytes(home() + "/.claude/settings.json"), mine);
}

TEST_F(AgentEnable, LaterEditsSurviveDisable) {
  auto edits = plan("gemini");
  auto applied = apply_edits(state(), "gemini", edits);
  ASSERT_TRUE(applied.ok());
  std::string env_file = home() + "/.gemini/.env";
  caveman::testing::write_file(env_file, *read_file_bytes(env_file) + "MINE=1\n");
  UndoReport report = undo_edits(*applied);
  EXPECT_TRUE(report.status.ok()) << report.status.ToString();
  EXPECT_EQ(*read_file_bytes(env_file), "MINE=1\n");
}

TEST_F(AgentEnable, MarkerRoundTrip) {
  auto applied = apply_edits(state(), "opencode", plan("opencode"));
  ASSERT_TRUE(applied.ok());
  EnableMarker m{"opencode", "http://127.0.0.1:9999/w/opencode", "127.0.0.1:9999", "/opt/caveman",
                 true, false, *applied};
  ASSERT_TRUE(write_enable_marker(state(), m).ok());
  auto back = read_enable_marker(state(), "opencode");
  ASSERT_TRUE(back.has_value());
  EXPECT_TRUE(back->mcp_by_enable);
  EXPECT_EQ(back->caveman, "/opt/caveman");
  ASSERT_EQ(back->files.size(), 2u);
  EXPECT_EQ(back->files[1].entries[0].format, ConfigFormat::kFile);
  EXPECT_TRUE(undo_edits(back->files).status.ok());
  ASSERT_TRUE(remove_enable_marker(state(), "opencode").ok());
  EXPECT_FALSE(read_enable_marker(state(), "opencode").has_value());
}

}  // namespace
}  // namespace caveman::cli
