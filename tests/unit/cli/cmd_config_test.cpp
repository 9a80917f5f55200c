// `caveman config path|get|set` (issue 24): caveman.yaml under $CAVEMAN_HOME (or
// $CAVEMAN_CONFIG), dotted keys, typed values, and a value the proxy would refuse is never
// written.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <sstream>

#include "cli_lib.h"
#include "config_journal.h"
#include "support/test_support.h"
#include "unit/cli/run_cli.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

using Outcome = testing::CliOutcome;

class CmdConfig : public ::testing::Test {
 protected:
  TempDir dir;
  std::string yaml() { return dir.file("caveman.yaml"); }
  Environment env() { return Environment({{"HOME", dir.path()}, {"CAVEMAN_HOME", dir.path()}}); }
  Outcome cli(const std::vector<std::string>& args) { return testing::run_cli(args, env()); }
};

TEST_F(CmdConfig, PathFollowsCavemanHomeAndCavemanConfig) {
  EXPECT_EQ(cli({"config", "path"}).out, yaml() + "\n");
  std::ostringstream out, err;
  Environment e = env();
  e.set("CAVEMAN_CONFIG", "/etc/x.yaml");
  EXPECT_EQ(run({"config", "path"}, e, out, err), 0);
  EXPECT_EQ(out.str(), "/etc/x.yaml\n");
}

TEST_F(CmdConfig, SetThenGetNestedKeysKeepingOtherKeys) {
  caveman::testing::write_file(yaml(), "mode: compress\n");
  Outcome s = cli({"config", "set", "providers.openai.base_url", "http://127.0.0.1:9/v1"});
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(cli({"config", "get", "providers.openai.base_url"}).out, "http://127.0.0.1:9/v1\n");
  EXPECT_EQ(cli({"config", "get", "mode"}).out, "compress\n");
  ASSERT_EQ(cli({"config", "set", "compress.min_bytes", "1024"}).code, 0);
  EXPECT_NE(read_file_bytes(yaml())->find("min_bytes: 1024"), std::string::npos);
  Outcome missing = cli({"config", "get", "canary.percent"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("not set"), std::string::npos);
}

TEST_F(CmdConfig, RefusesWhatTheProxyWouldRefuse) {
  const std::string before = "listen: 127.0.0.1:8787\n";
  caveman::testing::write_file(yaml(), before);
  Outcome o = cli({"config", "set", "listen", "0.0.0.0:80"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.err.find("refused"), std::string::npos) << o.err;
  EXPECT_EQ(*read_file_bytes(yaml()), before);
}

TEST_F(CmdConfig, UsageErrorsExit2) {
  EXPECT_EQ(cli({"config"}).code, 2);
  EXPECT_EQ(cli({"config", "get"}).code, 2);
  EXPECT_EQ(cli({"config", "frob", "a", "b"}).code, 2);
}

TEST_F(CmdConfig, VerifyWithoutUsageRowsSaysWhatToRun) {
  Outcome o = cli({"verify", "--agent", "codex"});
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(o.out.find("not yet: no request from codex"), std::string::npos) << o.out << o.err;
  EXPECT_NE(o.out.find("caveman doctor codex"), std::string::npos);
}

TEST_F(CmdConfig, DoctorAgentReportsNotEnabled) {
  Outcome o = cli({"doctor", "gemini"});
  EXPECT_NE(o.out.find("caveman doctor gemini (Gemini CLI)"), std::string::npos) << o.err;
  EXPECT_NE(o.out.find("not enabled"), std::string::npos);
  EXPECT_EQ(o.code, 1) << "gemini is not on this PATH: broken, with the install hint";
  EXPECT_NE(o.out.find("run:    npm install -g @google/gemini-cli"), std::string::npos);
  EXPECT_EQ(cli({"doctor", "nosuchagent"}).code, 2);
}

// Issue 39: a CAVEMAN_HOME below a world-writable directory gets no hooks from
// `caveman wrap gemini` (Gemini CLI skips the session's settings file there); doctor says so.
TEST_F(CmdConfig, DoctorGeminiReportsThatGeminiSkipsTheHooksBelowAWorldWritableDir) {
  const std::string open = dir.file("open");
  ::mkdir(open.c_str(), 0700);
  ::chmod(open.c_str(), 0777);
  Environment e = env();
  e.set("CAVEMAN_HOME", open + "/state");
  testing::CliOutcome o = testing::run_cli({"doctor", "gemini"}, e);
  EXPECT_EQ(o.code, 1);
  EXPECT_NE(
      o.out.find("  broken  caveman wrap gemini: Gemini CLI will skip the hooks' settings file " +
                 open + "/state/run/gemini-caveman-wrap-<session>/system-defaults.json ("),
      std::string::npos)
      << o.out << o.err;
  EXPECT_NE(o.out.find(open + " is writable by others (mode 777)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("run:    caveman enable gemini"), std::string::npos) << o.out;
}

TEST_F(CmdConfig, DisableOfAnAgentNeverEnabledIsANoOp) {
  Outcome o = cli({"disable", "opencode"});
  EXPECT_EQ(o.code, 0);
  EXPECT_NE(o.out.find("opencode is not enabled"), std::string::npos);
  EXPECT_EQ(cli({"enable", "aider"}).code, 2) << "only the four agents can be enabled";
}

}  // namespace
}  // namespace caveman::cli
