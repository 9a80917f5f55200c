// State directory and environment seam (docs/base.md). Six tools resolved CAVEMAN_HOME on
// their own; some kept a trailing slash, one fell back to "./.caveman" on an empty HOME.
#include "caveman/base/paths.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <string>

#include "support/file_mode.h"
#include "support/test_support.h"

namespace caveman::base {
namespace {

using ::caveman::testing::mode_of;
using ::caveman::testing::TempDir;

TEST(CavemanHome, PrefersCavemanHomeThenHomeAndDropsTrailingSlashes) {
  EXPECT_EQ(caveman_home(map_env({{"CAVEMAN_HOME", "/x/state//"}, {"HOME", "/h"}})), "/x/state");
  EXPECT_EQ(caveman_home(map_env({{"HOME", "/h"}})), "/h/.caveman");
  EXPECT_EQ(caveman_home(map_env({{"CAVEMAN_HOME", "/"}})), "/");
  EXPECT_EQ(caveman_home(map_env({{"CAVEMAN_HOME", ""}, {"HOME", "/h"}})), "/h/.caveman");
  EXPECT_EQ(caveman_home(map_env({{"HOME", ""}})), std::nullopt);
  EXPECT_EQ(caveman_home(map_env({})), std::nullopt);
}

TEST(CavemanHome, EnsureCreatesItPrivateOrSaysNoHome) {
  TempDir dir;
  const std::string home = dir.file("a/b/home");
  Result<std::string> h = ensure_caveman_home(map_env({{"CAVEMAN_HOME", home + "/"}}), "cave_x");
  ASSERT_OK(h.status());
  EXPECT_EQ(*h, home);
  EXPECT_EQ(mode_of(home), 0700u);
  EXPECT_EQ(mode_of(dir.file("a")), 0700u);
  Result<std::string> none = ensure_caveman_home(map_env({}), "cave_x");
  EXPECT_EQ(none.status().error_code(), "cave_no_home");
  EXPECT_EQ(none.status().code(), Code::kUnavailable);
}

TEST(MakePrivateDirs, LeavesExistingDirectoriesUnlessAskedToTighten) {
  TempDir dir;
  const std::string d = dir.file("shared");
  ASSERT_EQ(::mkdir(d.c_str(), 0755), 0);
  ASSERT_EQ(::chmod(d.c_str(), 0755), 0);
  ASSERT_OK(make_private_dirs(d, "cave_x"));
  EXPECT_EQ(mode_of(d), 0755u);
  ASSERT_OK(make_private_dirs(d, "cave_x", "", /*tighten=*/true));
  EXPECT_EQ(mode_of(d), 0700u);
}

TEST(MakePrivateDirs, AFileInTheWayIsAnIoError) {
  TempDir dir;
  caveman::testing::write_file(dir.file("f"), "x");
  Status s = make_private_dirs(dir.file("f") + "/sub", "cave_x", "p: ");
  EXPECT_EQ(s.code(), Code::kIo);
  EXPECT_EQ(s.error_code(), "cave_x");
  EXPECT_EQ(s.message().rfind("p: ", 0), 0u) << s.ToString();
}

TEST(ProcessEnv, EmptyCountsAsUnset) {
  ::setenv("CAVEMAN_BASE_TEST_VAR", "", 1);
  EXPECT_EQ(process_env()("CAVEMAN_BASE_TEST_VAR"), std::nullopt);
  ::setenv("CAVEMAN_BASE_TEST_VAR", "v", 1);
  EXPECT_EQ(process_env()("CAVEMAN_BASE_TEST_VAR"), "v");
  ::unsetenv("CAVEMAN_BASE_TEST_VAR");
  EXPECT_EQ(process_env()("CAVEMAN_BASE_TEST_VAR"), std::nullopt);
}

}  // namespace
}  // namespace caveman::base
