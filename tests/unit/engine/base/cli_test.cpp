// base/cli.h and base/exit_code.h: the command-line conventions every binary shares.
#include "caveman/base/cli.h"

#include <gtest/gtest.h>

#include <sstream>

namespace caveman::base {
namespace {

struct Parsed {
  std::optional<int> code;
  std::string out;
  std::string err;
};

class CliConventions : public ::testing::Test {
 protected:
  Parsed parse(std::vector<std::string> args, int usage_code = kExitUsage) {
    app_ = make_app(tool_, "demo: a tool.", "exit codes: 0 ok\n");
    app_->add_subcommand("go", "Go")->add_option("--n", n_)->transform(decimal());
    app_->add_subcommand("find", "Find")->add_option("what", what_);
    app_->add_subcommand("own", "Own")->footer("own footer\n");
    std::ostringstream out, err;
    std::optional<int> code = parse_args(*app_, tool_, args, out, err, usage_code);
    return {code, out.str(), err.str()};
  }

  ToolInfo tool_{"demo", "caveman.demo.version.v1", "", {"a"}};
  std::unique_ptr<CLI::App> app_;
  int n_ = -1;
  std::string what_;
};

TEST_F(CliConventions, HelpVersionAndAValidCommand) {
  Parsed help = parse({"help"});
  EXPECT_EQ(help.code, kExitOk);
  EXPECT_NE(help.out.find("exit codes: 0 ok"), std::string::npos);
  Parsed sub_help = parse({"go", "--help"});
  EXPECT_NE(sub_help.out.find("Usage: demo go"), std::string::npos);
  EXPECT_EQ(sub_help.out.find("exit codes"), std::string::npos) << "the footer is the tool's";
  Parsed go_help = parse({"go", "help"});
  EXPECT_EQ(go_help.code, kExitOk) << go_help.err;
  EXPECT_NE(go_help.out.find("Usage: demo go"), std::string::npos);
  EXPECT_FALSE(parse({"find", "help"}).code.has_value()) << "a positional, not a request for help";
  EXPECT_EQ(what_, "help");
  EXPECT_NE(parse({"own", "--help"}).out.find("own footer"), std::string::npos);
  EXPECT_EQ(parse({"--version"}).out.rfind("demo ", 0), 0u);
  EXPECT_NE(parse({"version", "--json"}).out.find("\"schema\":\"caveman.demo.version.v1\""),
            std::string::npos);
  Parsed go = parse({"go", "--n", "010"});
  EXPECT_FALSE(go.code.has_value()) << go.err;
  EXPECT_EQ(n_, 10) << "decimal, not octal";
}

TEST_F(CliConventions, UsageErrorsAreOneLineWithTheCallersCode) {
  Parsed typo = parse({"og"});
  EXPECT_EQ(typo.code, kExitUsage);
  EXPECT_EQ(typo.err, "demo: cave_unknown_command: unknown command \"og\" (see demo --help)\n");
  Parsed bad = parse({"go", "--n", "0x10"}, kExitRunnerFailed);
  EXPECT_EQ(bad.code, kExitRunnerFailed);
  EXPECT_EQ(bad.err.rfind("demo: cave_invalid_arguments: --n: not a decimal integer", 0), 0u) << bad.err;
}

TEST(ExitCodeFor, MapsTheFinalStatus) {
  EXPECT_EQ(exit_code_for(Status::Ok()), kExitOk);
  EXPECT_EQ(exit_code_for(Status::InvalidArgument("cave_listen_not_loopback", "x")), kExitUsage);
  EXPECT_EQ(exit_code_for(Status::ResourceExhausted("cave_memory_too_large", "x")), kExitTooLarge);
  EXPECT_EQ(exit_code_for(Status::InvalidArgument("cave_invalid_arguments", "x")), kExitError);
  EXPECT_EQ(exit_code_for(Status::Io("cave_io_error", "x")), kExitError);
}

}  // namespace
}  // namespace caveman::base
