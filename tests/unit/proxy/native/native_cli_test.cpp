// caveman-proxy native-why: its error lines (spdlog, through the command's error stream).
#include "native/native_cli.h"

#include <gtest/gtest.h>

#include <sstream>

#include "caveman/base/cli.h"
#include "support/test_support.h"

namespace caveman::proxy::native {
namespace {

using caveman::testing::ScopedEnv;
using caveman::testing::TempDir;

TEST(NativeCli, WhyOfAnUnknownDecisionIsOneErrorLine) {
  TempDir dir;
  ScopedEnv db("CAVEMAN_CCR_DB", dir.file("ccr.db"));
  NativeFlags flags;
  flags.decision = "dec_nope";
  std::ostringstream out, err;
  EXPECT_EQ(run_native_why_command(flags, out, err), 1);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(err.str(),
            "caveman-proxy: cave_unknown_decision: no decision dec_nope in the ledger\n");
  ScopedEnv off("CAVEMAN_LOG_LEVEL", "off");
  std::ostringstream silent;
  EXPECT_EQ(run_native_why_command(flags, out, silent), 1);
  EXPECT_EQ(silent.str(), "");
}

// The hook's positional agent and print-settings' --agent live in one command tree; CLI11 2.4
// refuses an option a parent already names, so building the tree is itself the check.
TEST(NativeCli, HookAgentAndPrintSettingsAgentParse) {
  CLI::App app{"caveman-proxy"};
  NativeFlags hook;
  add_native_commands(app, &hook);
  std::vector<std::string> args = {"codex", "native-hook"};  // CLI11 parses argv reversed
  app.parse(args);
  EXPECT_EQ(hook.agent, "codex");

  CLI::App app2{"caveman-proxy"};
  NativeFlags print;
  add_native_commands(app2, &print);
  std::vector<std::string> args2 = {"gemini", "--agent", "print-settings", "native-hook"};
  app2.parse(args2);
  EXPECT_TRUE(print.print_settings);
  EXPECT_EQ(print.print_agent, "gemini");
}

}  // namespace
}  // namespace caveman::proxy::native
