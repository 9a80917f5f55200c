#include "command_runner.h"

#include <gtest/gtest.h>

#include <csignal>
#include <string>

#include "support/test_support.h"

namespace caveman::shrink {
namespace {

RunResult run(std::vector<std::string> argv, bool shell = false,
              std::size_t stop = kDefaultWindowBytes * kStopFactor) {
  RunOptions options;
  options.argv = std::move(argv);
  options.shell = shell;
  options.stop_after_bytes = stop;
  Result<RunResult> r = run_command(options);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? r.value() : RunResult{};
}

TEST(RunCommand, CapturesStdoutAndStderrInOrderAndTheExitCode) {
  RunResult r = run({"sh", "-c", "echo one; echo two >&2; echo three; exit 3"});
  EXPECT_EQ(r.output, "one\ntwo\nthree\n");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_FALSE(r.exec_failed);
  EXPECT_FALSE(r.stopped);
}

TEST(RunCommand, NoShellUnlessAsked) {
  // Without a shell the metacharacters are plain arguments.
  EXPECT_EQ(run({"echo", "a;", "$HOME", "|", "b"}).output, "a; $HOME | b\n");
  EXPECT_EQ(run({"echo", "a;", "echo", "b"}, /*shell=*/true).output, "a\nb\n");
}

TEST(RunCommand, MissingAndNonExecutableCommands) {
  RunResult missing = run({"caveman-no-such-command-xyz"});
  EXPECT_TRUE(missing.exec_failed);
  EXPECT_EQ(missing.exit_code, base::kExitNotFound);
  EXPECT_EQ(missing.exec_error, "command not found");

  caveman::testing::TempDir dir;
  std::string file = dir.file("not-executable.sh");
  caveman::testing::write_file(file, "#!/bin/sh\necho hi\n");
  RunResult denied = run({file});
  EXPECT_TRUE(denied.exec_failed);
  EXPECT_EQ(denied.exit_code, base::kExitNotExecutable);
}

TEST(RunCommand, KilledBySignalMapsTo128PlusN) {
  RunResult r = run({"sh", "-c", "echo before; kill -TERM $$"});
  EXPECT_EQ(r.output, "before\n");
  EXPECT_EQ(r.signal, SIGTERM);
  EXPECT_EQ(r.exit_code, 128 + SIGTERM);
  EXPECT_EQ(signal_name(SIGTERM), "SIGTERM");
  EXPECT_EQ(signal_name(SIGKILL), "SIGKILL");
}

TEST(RunCommand, OutputThatNeverEndsIsStoppedAtTheCap) {
  RunResult r = run({"yes", "caveman"}, false, 100000);
  EXPECT_TRUE(r.stopped);
  EXPECT_EQ(r.output.size(), 100000u);
  EXPECT_EQ(r.output.substr(0, 16), "caveman\ncaveman\n");
  EXPECT_EQ(r.exit_code, 128 + r.signal);
  EXPECT_TRUE(r.signal == SIGTERM || r.signal == SIGPIPE) << r.signal;
  // A grandchild that keeps writing dies of SIGPIPE once the pipe is closed.
  RunResult g = run({"sh", "-c", "yes; echo unreachable"}, false, 50000);
  EXPECT_TRUE(g.stopped);
  EXPECT_EQ(g.output.size(), 50000u);
}

TEST(RunCommand, BinaryOutputIsCapturedAsIs) {
  RunResult r = run({"printf", "a\\000b\\377c"});
  EXPECT_EQ(r.output, std::string("a\0b\xFF" "c", 5));
  EXPECT_EQ(r.exit_code, 0);
}

}  // namespace
}  // namespace caveman::shrink
