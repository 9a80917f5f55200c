#include "install.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "mcp_marker.h"
#include "support/test_support.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

int count_entries(const std::string& dir) {
  int n = 0;
  DIR* d = ::opendir(dir.c_str());
  while (dirent* e = ::readdir(d)) n += e->d_name[0] == '.' ? 0 : 1;
  ::closedir(d);
  return n;
}

TEST(Install, CopiesWithMode0755AndLeavesNoPartFile) {
  TempDir src, dst;
  caveman::testing::write_file(src.file("tool"), "#!/bin/sh\necho hi\n");
  ASSERT_OK(install_file(src.file("tool"), dst.path(), "tool"));
  EXPECT_EQ(caveman::testing::read_file(dst.file("tool")), "#!/bin/sh\necho hi\n");
  struct stat st {};
  ASSERT_EQ(::stat(dst.file("tool").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0755u);
  EXPECT_EQ(count_entries(dst.path()), 1);
  // Replacing is atomic: the new content appears under the same name.
  caveman::testing::write_file(src.file("tool"), "v2");
  ASSERT_OK(install_file(src.file("tool"), dst.path(), "tool"));
  EXPECT_EQ(caveman::testing::read_file(dst.file("tool")), "v2");
  EXPECT_EQ(count_entries(dst.path()), 1);
}

TEST(Install, MissingSourceOrTargetFailsCleanly) {
  TempDir src, dst;
  EXPECT_EQ(install_file(src.file("none"), dst.path(), "x").error_code(), "cave_install_failed");
  caveman::testing::write_file(src.file("tool"), "x");
  EXPECT_FALSE(install_file(src.file("tool"), dst.file("no/such/dir"), "x").ok());
  EXPECT_EQ(count_entries(dst.path()), 0);
}

TEST(McpMarker, RoundTripsAndABrokenMarkerVouchesForNothing) {
  TempDir home;
  EXPECT_FALSE(read_marker(home.path(), "claude").has_value());
  McpMarker m;
  m.command = "/opt/caveman-mcp";
  m.agent = "claude";
  m.scope = "project";
  m.project = "/work/p";
  ASSERT_OK(write_marker(home.path(), m));
  auto back = read_marker(home.path(), "claude");
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->command, "/opt/caveman-mcp");
  EXPECT_EQ(back->scope, "project");
  EXPECT_EQ(back->tool, "caveman_retrieve");
  struct stat st {};
  ASSERT_EQ(::stat(marker_path(home.path(), "claude").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  caveman::testing::write_file(marker_path(home.path(), "claude"), "{not json");
  EXPECT_FALSE(read_marker(home.path(), "claude").has_value());
  ASSERT_OK(remove_marker(home.path(), "claude"));
  ASSERT_OK(remove_marker(home.path(), "claude"));  // idempotent
}

TEST(McpMarker, UnwritableHomeIsAClearError) {
  TempDir home;
  caveman::testing::write_file(home.file("file"), "x");
  McpMarker m;
  m.command = "c";
  m.agent = "claude";
  m.scope = "user";
  Status s = write_marker(home.file("file"), m);  // a file where the home dir should be
  EXPECT_EQ(s.error_code(), "cave_home_not_writable");
}

}  // namespace
}  // namespace caveman::cli
