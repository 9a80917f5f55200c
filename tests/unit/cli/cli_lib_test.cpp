#include "cli_lib.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "support/test_support.h"
#include "unit/cli/run_cli.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

using Outcome = testing::CliOutcome;
using testing::run_cli;

void write_script(const std::string& path, const std::string& body) {
  caveman::testing::write_file(path, "#!/bin/sh\n" + body + "\n");
  ::chmod(path.c_str(), 0755);
}

TEST(CliLib, HelpListsEveryVerbOnOneLine) {
  Outcome o = run_cli({"--help"}, Environment());
  EXPECT_EQ(o.code, 0);
  for (const char* verb : {"start", "wrap", "install", "status", "stats", "tools", "compress",
                           "retrieve", "toon", "evals", "shrink", "browse", "mem"}) {
    EXPECT_NE(o.out.find("\n  " + std::string(verb) + " "), std::string::npos) << verb;
  }
}

TEST(CliLib, VersionJsonNamesTheTool) {
  Outcome o = run_cli({"version", "--json"}, Environment());
  EXPECT_EQ(o.code, 0);
  auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["name"], "caveman");
  EXPECT_EQ(j["schema"], "caveman.cli.version.v1");
}

TEST(CliLib, UnknownVerbSuggestsAndExits2) {
  Outcome o = run_cli({"stauts"}, Environment());
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.err,
            "caveman: cave_unknown_command: unknown command \"stauts\" — did you mean \"status\"? "
            "(see caveman --help)\n");
  Outcome far = run_cli({"xyzzyplugh"}, Environment());
  EXPECT_EQ(far.code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos);
}

TEST(CliLib, NoArgumentsIsUsage) { EXPECT_EQ(run_cli({}, Environment()).code, 2); }

TEST(CliLib, EditDistanceAndSuggestion) {
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("stauts", "status"), 1u);  // a swap is one typo
  EXPECT_EQ(suggest("claud", {"start", "claude"}), "claude");
  EXPECT_EQ(suggest("zzzzzzzz", {"start"}), "");
}

TEST(CliLib, BadFlagsAreUsageErrors) {
  TempDir home;
  Environment env({{"CAVEMAN_HOME", home.path()}});
  EXPECT_EQ(run_cli({"start", "--port", "70000"}, env).code, 2);
  EXPECT_EQ(run_cli({"start", "--mode", "turbo"}, env).code, 2);
  EXPECT_EQ(run_cli({"stats", "--json", "--csv"}, env).code, 2);
  EXPECT_EQ(run_cli({"stats", "--since", "1w"}, env).code, 2);
  EXPECT_EQ(run_cli({"tools", "mcp", "reinstall"}, env).code, 2);
  EXPECT_EQ(run_cli({"wrap"}, env).code, 2);
  EXPECT_EQ(run_cli({"wrap", "--bogus", "claude"}, env).code, 2);
  EXPECT_EQ(run_cli({"wrap", "--mode", "turbo", "claude"}, env).code, 2);
}

// wrap takes every proxy mode (the cost modes too), not only record and compress.
TEST(CliLib, WrapAcceptsEveryProxyMode) {
  TempDir home;
  Environment env({{"CAVEMAN_HOME", home.path()}, {"PATH", home.path()}});
  for (const char* mode : {"record", "compress", "pixel", "recommend", "shadow", "canary", "active"}) {
    Outcome o = run_cli({"wrap", "--mode", mode, "claude", "-p", "hi"}, env);
    EXPECT_EQ(o.code, 127) << mode << ": " << o.err;  // past flag parsing: the agent is missing
  }
}

TEST(CliLib, WrapOfAMissingAgentHintsInstallAndExits127) {
  TempDir home;
  Environment env({{"CAVEMAN_HOME", home.path()}, {"PATH", home.path()}});
  Outcome o = run_cli({"wrap", "claude", "-p", "hi"}, env);
  EXPECT_EQ(o.code, 127);
  EXPECT_EQ(o.err,
            "caveman wrap: claude is not installed (not on PATH); install it with: npm install -g "
            "@anthropic-ai/claude-code\n");
  EXPECT_EQ(run_cli({"claude"}, env).code, 127);  // the agent shortcut goes through wrap
}

TEST(CliLib, CorruptYamlFailsWrapWithLineAndColumn) {
  TempDir home;
  write_script(home.file("fake-agent"), "exit 0");
  caveman::testing::write_file(home.file("caveman.yaml"), "listen: [oops\n");
  Environment env({{"CAVEMAN_HOME", home.path()}, {"PATH", home.path()}});
  Outcome o = run_cli({"wrap", "fake-agent"}, env);
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("no profile for \"fake-agent\""), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("line"), std::string::npos) << o.err;
}

TEST(CliLib, StatsOnAnEmptyHomeIsZero) {
  TempDir home;
  Outcome o = run_cli({"stats", "--json"}, Environment({{"CAVEMAN_HOME", home.path()}}));
  ASSERT_EQ(o.code, 0) << o.err;
  auto j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["requests"], 0);
  EXPECT_TRUE(j["by_content_type"].is_object());
}

TEST(CliLib, DelegatedVerbWithoutItsBinaryFailsClearly) {
  TempDir home;
  Environment env({{"CAVEMAN_HOME", home.path()}, {"PATH", home.path()},
                   {"CAVEMEM_BIN", "/nonexistent/cavemem"}});
  Outcome o = run_cli({"mem", "recall", "x"}, env);
  EXPECT_EQ(o.code, 1);
  EXPECT_EQ(o.err,
            "caveman: cave_binary_missing: cavemem not found (set CAVEMEM_BIN, put it on PATH, or "
            "run `caveman install`); this verb is unavailable until then\n");
}

TEST(CliLib, DelegationPassesArgumentsAndExitCode) {
  TempDir home;
  write_script(home.file("caveman-engine"), "echo \"$@\"; exit 5");
  Environment env({{"CAVEMAN_HOME", home.path()}, {"CAVEMAN_ENGINE_BIN", home.file("caveman-engine")},
                   {"PATH", "/usr/bin:/bin"}});
  // The child writes to the real stdout (inherited), so only the exit code is checked here;
  // the e2e tests check the bytes.
  EXPECT_EQ(run_cli({"retrieve", "ccr_x"}, env).code, 5);
}

TEST(CliLib, McpPrintShowsSnippetsForOtherHosts) {
  TempDir home;
  write_script(home.file("caveman-mcp"), "exit 0");
  Environment env({{"CAVEMAN_HOME", home.path()}, {"CAVEMAN_MCP_BIN", home.file("caveman-mcp")}});
  Outcome o = run_cli({"tools", "mcp", "install", "--print"}, env);
  EXPECT_EQ(o.code, 0);
  EXPECT_NE(o.out.find("\"mcpServers\""), std::string::npos);
  EXPECT_NE(o.out.find("[mcp_servers.caveman]"), std::string::npos);
  EXPECT_NE(o.out.find(home.file("caveman-mcp")), std::string::npos);
}

// Diagnostics go through spdlog (base::stream_logger): the same line as ever on stderr, and
// CAVEMAN_LOG_LEVEL=error drops the warning while errors still show.
TEST(CliLib, LogLevelErrorSilencesWarningsNotErrors) {
  TempDir home;
  Environment env({{"CAVEMAN_HOME", home.path()},
                   {"PATH", home.path()},
                   {"CAVEMAN_MCP_BIN", "/nonexistent/caveman-mcp"}});
  Outcome warned = run_cli({"tools", "mcp", "install", "--print"}, env);
  EXPECT_EQ(warned.code, 0);
  EXPECT_EQ(warned.err, "caveman: warning: caveman-mcp not found; snippet uses the bare name\n");
  env.set("CAVEMAN_LOG_LEVEL", "error");
  Outcome quiet = run_cli({"tools", "mcp", "install", "--print"}, env);
  EXPECT_EQ(quiet.code, 0);
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(quiet.out, warned.out);
  Outcome failed = run_cli({"wrap", "claude"}, env);
  EXPECT_EQ(failed.code, 127);
  EXPECT_NE(failed.err.find("claude is not installed"), std::string::npos) << failed.err;
}

TEST(CliLib, McpInstallScopeIsClaudeOnlyAndUnknownAgentsAreRefused) {
  TempDir home;
  Environment env({{"CAVEMAN_HOME", home.path()}, {"HOME", home.path()}});
  Outcome o = run_cli({"tools", "mcp", "install", "codex", "--scope", "project"}, env);
  EXPECT_EQ(o.code, 2);
  EXPECT_NE(o.err.find("applies to claude"), std::string::npos) << o.err;
  EXPECT_EQ(run_cli({"tools", "mcp", "install", "aider"}, env).code, 2);
}

TEST(CliLib, McpUninstallWithoutMarkerRemovesNothing) {
  TempDir home;
  // A fake `claude` that records any call: uninstall must not call `claude mcp remove`.
  write_script(home.file("claude"), "echo \"$@\" >> " + home.file("calls") + "; exit 0");
  Environment env({{"CAVEMAN_HOME", home.path()}, {"PATH", home.path() + ":/usr/bin:/bin"}});
  Outcome o = run_cli({"tools", "mcp", "uninstall", "claude"}, env);
  EXPECT_EQ(o.code, 0);
  EXPECT_NE(o.out.find("nothing removed"), std::string::npos);
  struct stat st {};
  EXPECT_NE(::stat(home.file("calls").c_str(), &st), 0);
}

}  // namespace
}  // namespace caveman::cli

namespace caveman::cli {
namespace {

TEST(CliLibInstall, CopiesBuiltBinariesIntoAPrivateBinDir) {
  caveman::testing::TempDir from, home;
  for (const char* name : {"caveman", "caveman-proxy", "caveman-mcp"}) {
    caveman::testing::write_file(from.file(name), std::string("#!/bin/sh\necho ") + name + "\n");
    ::chmod(from.file(name).c_str(), 0755);
  }
  std::ostringstream out, err;
  int code = run({"install", "--from", from.path()}, Environment({{"CAVEMAN_HOME", home.path() + "/state"}}),
                 out, err);
  ASSERT_EQ(code, 0) << err.str();
  struct stat st {};
  ASSERT_EQ(::stat((home.path() + "/state/bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(::stat((home.path() + "/state/bin/caveman-mcp").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0755u);
  EXPECT_NE(err.str().find("skipped cavemem"), std::string::npos);  // not built: reported, not fatal
  std::ostringstream out2, err2;
  EXPECT_EQ(run({"install", "--from", home.path() + "/empty"}, Environment({{"CAVEMAN_HOME", home.path()}}),
                out2, err2), 1);
}

}  // namespace
}  // namespace caveman::cli
