// Config edits for Codex / Gemini CLI / opencode MCP registration (issue 24): entries are added
// without touching anything else, a hand-written entry is never overwritten, and uninstall
// restores the previous bytes exactly (or removes only caveman's entry after other edits).
#include "agent_mcp.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "config_edit.h"
#include "config_journal.h"
#include "mcp_marker.h"
#include "support/test_support.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

ConfigEntry toml_entry() { return mcp_entry("codex", "caveman", "/opt/caveman-mcp", {}); }

TEST(ConfigEdit, TomlAppendsABlockAndRemovesExactlyIt) {
  const std::string text = "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"";
  auto added = add_entry(text, toml_entry());
  ASSERT_TRUE(added.ok()) << added.status().ToString();
  EXPECT_EQ(*added, text + "\n\n[mcp_servers.caveman]\ncommand = \"/opt/caveman-mcp\"\nargs = []\n");
  auto removed = remove_entry(*added, toml_entry());
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(*removed, text + "\n");  // only the missing final newline differs
  auto from_empty = add_entry("", toml_entry());
  ASSERT_TRUE(from_empty.ok());
  EXPECT_EQ(*remove_entry(*from_empty, toml_entry()), "");
}

TEST(ConfigEdit, TomlSeesEveryHandWrittenForm) {
  for (const char* text : {"[mcp_servers.caveman]\ncommand = \"mine\"\n",
                           "[ mcp_servers . \"caveman\" ]\ncommand = \"mine\"\n",
                           "[mcp_servers.caveman.env]\nX = \"1\"\n",
                           "mcp_servers.caveman.command = \"mine\"\n",
                           "mcp_servers = { caveman = { command = \"mine\" } }\n",
                           "[mcp_servers]\ncaveman = { command = \"mine\" }\n"}) {
    auto added = add_entry(text, toml_entry());
    ASSERT_FALSE(added.ok()) << text;
    EXPECT_EQ(added.status().error_code(), "cave_config_entry_exists") << text;
  }
  EXPECT_TRUE(add_entry("[mcp_servers.cavemanx]\ncommand = \"y\"\n", toml_entry()).ok());
  EXPECT_TRUE(add_entry("[mcp_servers]\n[other]\ncaveman = 1\n", toml_entry()).ok());
}

TEST(ConfigEdit, TomlRemovalLeavesAnEditedBlockAlone) {
  auto added = add_entry("", toml_entry());
  ASSERT_TRUE(added.ok());
  std::string edited = *added;
  edited.replace(edited.find("args = []"), 9, "args = [\"--x\"]");
  auto removed = remove_entry(edited, toml_entry());
  ASSERT_FALSE(removed.ok());
  EXPECT_EQ(removed.status().error_code(), "cave_config_entry_changed");
}

TEST(ConfigEdit, JsonKeepsOtherKeysAndRefusesAHandWrittenServer) {
  ConfigEntry gem = mcp_entry("gemini", "caveman", "/opt/caveman-mcp", {});
  EXPECT_EQ(gem.table, "mcpServers");
  auto added = add_entry("{\"security\":{\"auth\":{\"selectedType\":\"gemini-api-key\"}}}", gem);
  ASSERT_TRUE(added.ok());
  EXPECT_NE(added->find("\"selectedType\": \"gemini-api-key\""), std::string::npos);
  EXPECT_NE(added->find("\"command\": \"/opt/caveman-mcp\""), std::string::npos);
  auto again = add_entry(*added, gem);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().error_code(), "cave_config_entry_exists");
  auto removed = remove_entry(*added, gem);
  ASSERT_TRUE(removed.ok());
  EXPECT_EQ(removed->find("mcpServers"), std::string::npos);

  ConfigEntry oc = mcp_entry("opencode", "caveman", "/opt/caveman-mcp", {});
  EXPECT_EQ(oc.table, "mcp");
  EXPECT_EQ(oc.value, R"({"type":"local","command":["/opt/caveman-mcp"],"enabled":true})");
  // JSONC comments are accepted; a non-object is refused.
  EXPECT_TRUE(add_entry("// mine\n{\"theme\":\"x\"}\n", oc).ok());
  EXPECT_EQ(add_entry("[1]", oc).status().error_code(), "cave_config_unparsable");
}

class AgentMcpInstall : public ::testing::Test {
 protected:
  TempDir dir;
  std::string home() { return dir.file("home"); }
  std::string state() { return dir.file("home/.caveman"); }
  Environment env() { return Environment({{"HOME", home()}}); }
  void SetUp() override { ::mkdir(home().c_str(), 0700); }
};

TEST_F(AgentMcpInstall, UninstallRestoresTheBytesAndRemovesCreatedDirs) {
  std::string cfg = agent_config_path("codex", env());
  EXPECT_EQ(cfg, home() + "/.codex/config.toml");
  ASSERT_TRUE(install_config_mcp(state(), env(), "codex", "caveman", "/opt/m").ok());
  EXPECT_TRUE(read_marker(state(), "codex").has_value());
  EXPECT_NE(read_file_bytes(cfg)->find("[mcp_servers.caveman]"), std::string::npos);
  // Re-installing replaces our own entry.
  ASSERT_TRUE(install_config_mcp(state(), env(), "codex", "caveman", "/opt/m2").ok());
  ASSERT_TRUE(uninstall_config_mcp(state(), "codex", "caveman").ok());
  EXPECT_FALSE(read_file_bytes(cfg).has_value());
  struct stat st{};
  EXPECT_NE(::stat((home() + "/.codex").c_str(), &st), 0) << "created dir removed";
  EXPECT_FALSE(read_marker(state(), "codex").has_value());
}

TEST_F(AgentMcpInstall, ExistingFileIsByteIdenticalAfterUninstall) {
  std::string cfg = agent_config_path("gemini", env());
  ::mkdir((home() + "/.gemini").c_str(), 0700);
  const std::string before = "{ \"theme\": \"Dracula\",\n  // comment\n  \"x\": [1,2] }";
  caveman::testing::write_file(cfg, before);
  ::chmod(cfg.c_str(), 0640);
  ASSERT_TRUE(install_config_mcp(state(), env(), "gemini", "cavemem", "/opt/cavemem").ok());
  EXPECT_TRUE(read_marker(state(), "gemini", "cavemem").has_value());
  ASSERT_TRUE(uninstall_config_mcp(state(), "gemini", "cavemem").ok());
  EXPECT_EQ(*read_file_bytes(cfg), before);
  struct stat st{};
  ASSERT_EQ(::stat(cfg.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
}

TEST_F(AgentMcpInstall, OtherEditsSurviveAndOnlyOurEntryGoes) {
  std::string cfg = agent_config_path("opencode", env());
  ASSERT_TRUE(install_config_mcp(state(), env(), "opencode", "caveman", "/opt/m").ok());
  std::string text = *read_file_bytes(cfg);
  text.insert(text.rfind('}'), ",\"theme\":\"mine\"");
  caveman::testing::write_file(cfg, text);
  auto r = uninstall_config_mcp(state(), "opencode", "caveman");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  std::string after = *read_file_bytes(cfg);
  EXPECT_NE(after.find("\"theme\": \"mine\""), std::string::npos);
  EXPECT_EQ(after.find("caveman"), std::string::npos);
}

TEST_F(AgentMcpInstall, HandWrittenEntryIsNeverOverwrittenNorRemoved) {
  std::string cfg = agent_config_path("codex", env());
  ::mkdir((home() + "/.codex").c_str(), 0700);
  const std::string mine = "[mcp_servers.caveman]\ncommand = \"/my/own\"\n";
  caveman::testing::write_file(cfg, mine);
  auto r = install_config_mcp(state(), env(), "codex", "caveman", "/opt/m");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_config_entry_exists");
  EXPECT_EQ(*read_file_bytes(cfg), mine);
  ASSERT_TRUE(uninstall_config_mcp(state(), "codex", "caveman").ok());  // no marker: no-op
  EXPECT_EQ(*read_file_bytes(cfg), mine);
}

TEST_F(AgentMcpInstall, ConfigPathsFollowTheAgentsOwnVariables) {
  Environment e({{"HOME", "/h"}, {"CODEX_HOME", "/c"}, {"XDG_CONFIG_HOME", "/x"}});
  EXPECT_EQ(agent_config_path("codex", e), "/c/config.toml");
  EXPECT_EQ(agent_config_path("opencode", e), "/x/opencode/opencode.json");
  EXPECT_EQ(agent_config_path("gemini", e), "/h/.gemini/settings.json");
  EXPECT_EQ(agent_config_path("qwen", e), "/h/.qwen/settings.json");
}

}  // namespace
}  // namespace caveman::cli
