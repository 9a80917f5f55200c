#include "shrink_cli.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>
#include <string>

#include "support/catalog_fixtures.h"
#include "support/test_support.h"

namespace caveman::shrink {
namespace {

struct Outcome {
  int code;
  std::string out;
  std::string err;
};

class ShrinkCli : public ::testing::Test {
 protected:
  void SetUp() override { setenv("CAVEMAN_CCR_DB", dir_.file("ccr.db").c_str(), 1); }
  void TearDown() override { unsetenv("CAVEMAN_CCR_DB"); }

  Outcome run_cli(std::vector<std::string> args, const std::string& stdin_text = "") {
    std::istringstream in(stdin_text);
    std::ostringstream out;
    std::ostringstream err;
    int code = run(args, in, out, err);
    return {code, out.str(), err.str()};
  }

  caveman::testing::TempDir dir_;
};

std::string handle_in(const std::string& report) {
  std::size_t at = report.find("\"recovery_handle\":\"");
  if (at == std::string::npos) return {};
  return report.substr(at + 19, 36);
}

TEST_F(ShrinkCli, HelpAndVersion) {
  Outcome help = run_cli({"--help"});
  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("caveman-shrink lint"), std::string::npos);
  Outcome version = run_cli({"version", "--json"});
  EXPECT_EQ(version.code, 0);
  EXPECT_NE(version.out.find("\"name\":\"caveman-shrink\""), std::string::npos);
  EXPECT_NE(version.out.find("\"schema\":\"caveman.shrink.version.v1\""), std::string::npos);
}

TEST_F(ShrinkCli, ShrinkWritesTheCatalogAndReportsTheHandleOnStderr) {
  std::string catalog = testing::playwright_catalog();
  for (const std::vector<std::string>& args : {std::vector<std::string>{},
                                               std::vector<std::string>{"shrink"}}) {
    Outcome o = run_cli(args, catalog);
    EXPECT_EQ(o.code, 0);
    EXPECT_LT(o.out.size(), catalog.size() / 2);
    std::string handle = handle_in(o.err);
    ASSERT_EQ(handle.size(), 36u) << o.err;
    Outcome back = run_cli({"recover", handle});
    EXPECT_EQ(back.code, 0);
    EXPECT_EQ(back.out, catalog);
    // Handle spellings an agent may quote.
    EXPECT_EQ(run_cli({"recover", "<<" + handle + ">>"}).out, catalog);
    EXPECT_EQ(run_cli({"recover", "ccr://" + handle}).out, catalog);
  }
}

TEST_F(ShrinkCli, JsonModePutsTheReportAndOutputOnStdout) {
  Outcome o = run_cli({"--json"}, testing::chrome_devtools_catalog());
  EXPECT_EQ(o.code, 0);
  EXPECT_TRUE(o.err.empty()) << o.err;
  EXPECT_EQ(o.out.rfind("{\"tokens_before\":", 0), 0u);
  EXPECT_NE(o.out.find("\"recovery_handle\":\"ccr_"), std::string::npos);
  EXPECT_NE(o.out.find(",\"output\":\"{\\\"tools\\\":"), std::string::npos);
}

TEST_F(ShrinkCli, InvalidJsonPassesThroughWithExitZero) {
  Outcome o = run_cli({}, "{\"tools\": [oops");
  EXPECT_EQ(o.code, 0);
  EXPECT_EQ(o.out, "{\"tools\": [oops");
  EXPECT_NE(o.err.find("warning: cave_invalid_catalog"), std::string::npos);
  EXPECT_NE(o.err.find("\"ratio\":0"), std::string::npos);
  EXPECT_EQ(o.err.find("recovery_handle"), std::string::npos);
}

// The pass-through warning is a diagnostic (CAVEMAN_LOG_LEVEL=error drops it); the report
// after it is a result and stays. Errors keep their exact line.
TEST_F(ShrinkCli, LogLevelErrorSilencesWarningsNotErrors) {
  const std::string warning =
      "caveman-shrink: warning: cave_invalid_catalog: input is not valid JSON; passed through "
      "unchanged\n";
  Outcome warned = run_cli({}, "{\"tools\": [oops");
  EXPECT_EQ(warned.err.rfind(warning + "{", 0), 0u) << warned.err;
  caveman::testing::ScopedEnv quiet("CAVEMAN_LOG_LEVEL", "error");
  Outcome o = run_cli({}, "{\"tools\": [oops");
  EXPECT_EQ(o.code, 0);
  EXPECT_EQ(o.err, warned.err.substr(warning.size()));
  Outcome missing = run_cli({"--", "caveman-no-such-command-xyz"});
  EXPECT_EQ(missing.err,
            "caveman-shrink: cave_command_not_found: caveman-no-such-command-xyz: command not "
            "found\n");
}

TEST_F(ShrinkCli, OversizedStdinIsRefused) {
  Outcome o = run_cli({}, std::string(kMaxStdinBytes + 1, ' '));
  EXPECT_EQ(o.code, base::kExitError);
  EXPECT_NE(o.err.find("cave_input_too_large: stdin exceeds 33554432 bytes"), std::string::npos);
  EXPECT_TRUE(o.out.empty());
}

TEST_F(ShrinkCli, LintPrintsTheTable) {
  Outcome o = run_cli({"lint", testing::fixture_path("playwright_mcp_0.0.83.tools.json")});
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_EQ(o.out.rfind("TOOL ", 0), 0u);
  EXPECT_NE(o.out.find("(basis: inferred)"), std::string::npos);
  Outcome from_stdin = run_cli({"lint"}, testing::playwright_catalog());
  EXPECT_EQ(from_stdin.out, o.out);
  EXPECT_EQ(run_cli({"lint", dir_.file("missing.json")}).code, base::kExitError);
  EXPECT_EQ(run_cli({"lint"}, "[]").code, base::kExitError);
}

TEST_F(ShrinkCli, RecoverErrors) {
  Outcome unknown = run_cli({"recover", "ccr_00000000000000000000000000000000"});
  EXPECT_EQ(unknown.code, base::kExitError);
  EXPECT_NE(unknown.err.find("cave_unknown_handle"), std::string::npos);
  EXPECT_EQ(run_cli({"recover"}).code, base::kExitUsage);
}

TEST_F(ShrinkCli, UsageErrors) {
  EXPECT_EQ(run_cli({"frobnicate"}).code, base::kExitUsage);
  EXPECT_EQ(run_cli({"shrink", "--bogus"}).code, base::kExitUsage);
  EXPECT_EQ(run_cli({"--"}).code, base::kExitRunnerFailed);
  EXPECT_EQ(run_cli({"--bogus", "--", "true"}).code, base::kExitRunnerFailed);
  EXPECT_EQ(run_cli({"--max-bytes", "0", "--", "true"}).code, base::kExitRunnerFailed);
}

TEST_F(ShrinkCli, CommandModeExitsWithTheCommandsCode) {
  Outcome o = run_cli({"--", "sh", "-c", "printf 'building\\nerror: it broke\\n'; exit 3"});
  EXPECT_EQ(o.code, 3);
  EXPECT_NE(o.out.find("error: it broke\n"), std::string::npos);
  EXPECT_NE(o.out.find("[caveman-shrink] exit 3"), std::string::npos);
  Outcome missing = run_cli({"--", "caveman-no-such-command-xyz"});
  EXPECT_EQ(missing.code, 127);
  EXPECT_NE(missing.err.find("cave_command_not_found: caveman-no-such-command-xyz: command not found"),
            std::string::npos);
  Outcome full = run_cli({"--full", "--", "sh", "-c", "seq 1 3000; exit 4"});
  EXPECT_EQ(full.code, 4);
  std::string expected;
  for (int i = 1; i <= 3000; ++i) expected += std::to_string(i) + "\n";
  EXPECT_EQ(full.out, expected);
  Outcome shell = run_cli({"--shell", "--", "echo", "a", "&&", "exit", "5"});
  EXPECT_EQ(shell.code, 5);
  EXPECT_EQ(shell.out.rfind("a\n", 0), 0u);
}

}  // namespace
}  // namespace caveman::shrink
