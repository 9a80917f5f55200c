#include "process.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "support/test_support.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

Environment sh_env() { return Environment({{"PATH", "/usr/bin:/bin"}}); }

void write_script(const std::string& path, const std::string& body) {
  caveman::testing::write_file(path, "#!/bin/sh\n" + body + "\n");
  ::chmod(path.c_str(), 0755);
}

TEST(Process, CapturesOutputErrorAndExitCode) {
  auto r = run_captured({"sh", "-c", "echo out; echo err >&2; exit 3"}, sh_env(), 10000);
  ASSERT_OK(r);
  EXPECT_EQ(r->out, "out\n");
  EXPECT_EQ(r->err, "err\n");
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_FALSE(r->timed_out);
}

TEST(Process, ChildSeesOnlyTheGivenEnvironment) {
  Environment env({{"PATH", "/usr/bin:/bin"}, {"CAVE_TEST_VAR", "yes"}});
  auto r = run_captured({"sh", "-c", "echo \"$CAVE_TEST_VAR:${HOME:-none}\""}, env, 10000);
  ASSERT_OK(r);
  EXPECT_EQ(r->out, "yes:none\n");
}

TEST(Process, KillsAChildThatOutlivesTheTimeout) {
  auto r = run_captured({"sleep", "30"}, sh_env(), 100);
  ASSERT_OK(r);
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->exit_code, 128 + 9);
}

TEST(Process, MissingProgramIsNotFound) {
  auto r = run_captured({"/nonexistent/caveman-nothing"}, sh_env(), 1000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNotFound);
  auto f = run_foreground({"caveman-no-such-binary"}, sh_env());
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().error_code(), "cave_spawn_failed");
}

TEST(Process, ForegroundReturnsExitCodeAndSignalDeath) {
  auto a = run_foreground({"sh", "-c", "exit 7"}, sh_env());
  ASSERT_OK(a);
  EXPECT_EQ(*a, 7);
  auto b = run_foreground({"sh", "-c", "kill -TERM $$"}, sh_env());
  ASSERT_OK(b);
  EXPECT_EQ(*b, 128 + 15);
}

TEST(Process, FindsExecutablesOnPathInOrder) {
  TempDir a;
  TempDir b;
  write_script(b.file("tool"), "exit 0");
  caveman::testing::write_file(a.file("tool"), "not executable");
  auto found = find_on_path("tool", a.path() + ":" + b.path());
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(*found, b.file("tool"));
  EXPECT_FALSE(find_on_path("tool", a.path()).has_value());
  EXPECT_FALSE(find_on_path("", "/bin").has_value());
}

TEST(Process, DetachedChildWritesToItsLog) {
  TempDir dir;
  auto pid = spawn_detached({"sh", "-c", "echo detached"}, sh_env(), dir.file("log"));
  ASSERT_OK(pid);
  // The child is ours until reaped; wait for it so the log is complete.
  int status = 0;
  ASSERT_EQ(::waitpid(*pid, &status, 0), *pid);
  EXPECT_EQ(caveman::testing::read_file(dir.file("log")), "detached\n");
  EXPECT_FALSE(pid_alive(*pid));
}

TEST(Environment, EmptyReadsAsUnsetAndEnvpIsSorted) {
  Environment env({{"B", "2"}, {"A", ""}});
  EXPECT_FALSE(env.get("A").has_value());
  EXPECT_EQ(env.to_envp(), (std::vector<std::string>{"A=", "B=2"}));
}

}  // namespace
}  // namespace caveman::cli
