// `caveman-engine` dispatch: top-level usage, per-command --help, unknown commands.
#include "cli/engine_cli.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace caveman::engine_cli {
namespace {

struct CliRun {
  int code;
  std::string out;
  std::string err;
};

CliRun run_cli(std::vector<std::string> args, const std::string& stdin_text = "") {
  std::istringstream in(stdin_text);
  std::ostringstream out, err;
  int code = run_engine_cli(args, in, out, err);
  return {code, out.str(), err.str()};
}

TEST(EngineCli, TopLevelHelpListsEveryCommandOnStdout) {
  CliRun r = run_cli({"--help"});
  EXPECT_EQ(r.code, 0);
  for (const char* verb : {"compress", "detect", "retrieve", "objects", "stats", "registry",
                           "count", "toon", "evals", "pixel", "version"}) {
    EXPECT_NE(r.out.find(std::string("\n  ") + verb + " "), std::string::npos) << verb;  // CLI11's table
  }
  EXPECT_NE(r.out.find("exit codes:"), std::string::npos);
}

TEST(EngineCli, SubcommandHelpPrintsThatCommandsUsageAndReadsNoInput) {
  // Without the help check, compress would reject --help as an unknown flag (exit 2), and
  // count / detect would consume stdin.
  for (const char* verb : {"compress", "detect", "retrieve", "stats", "count", "evals", "objects"}) {
    CliRun r = run_cli({verb, "--help"}, "{\"not\":\"read\"}");
    EXPECT_EQ(r.code, 0) << verb << ": " << r.err;
    EXPECT_NE(r.out.find("Usage: caveman-engine " + std::string(verb)), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("registry "), std::string::npos) << "only the asked command: " << verb;
    EXPECT_EQ(r.err, "") << verb;
  }
  CliRun flag_after = run_cli({"compress", "--json", "-h"});
  EXPECT_EQ(flag_after.code, 0);
  EXPECT_NE(flag_after.out.find("--query TEXT"), std::string::npos);
}

TEST(EngineCli, UnknownCommandIsAUsageErrorWithCaveCode) {
  CliRun r = run_cli({"compres"});
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err,
            "caveman-engine: cave_unknown_command: unknown command \"compres\" (see caveman-engine "
            "--help)\n");
}

// Command errors are spdlog lines (base::stream_logger) with the text they always had.
TEST(EngineCli, CountNamesTheLineThatIsNotAJsonString) {
  CliRun r = run_cli({"count", "--jsonl"}, "\"ok\"\n42\n");
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err, "count: cave_invalid_input: line 2 is not a JSON string\n");
}

}  // namespace
}  // namespace caveman::engine_cli
