// load_dir (docs/spec/ranking.md#manifest): manifest inside DIR, clean relative fixture paths, and
// symlinks that may not escape DIR.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "caveman/evals.h"
#include "support/test_support.h"

namespace caveman::evals {
namespace {

namespace fs = std::filesystem;

std::string manifest_for(const std::string& file) {
  return "fixtures:\n  - name: f\n    file: '" + file +
         "'\n    graders: [{type: byte_identical}]\n";
}

class LoadDirTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = tmp_.path() + "/fixtures";
    fs::create_directories(dir_ + "/sub");
    testing::write_file(dir_ + "/sub/a.txt", "short text\n");
    testing::write_file(tmp_.path() + "/outside.txt", "secret\n");
  }
  void manifest(const std::string& file) {
    testing::write_file(dir_ + "/manifest.yaml", manifest_for(file));
  }
  testing::TempDir tmp_;
  std::string dir_;
};

TEST_F(LoadDirTest, LoadsAndRunsACleanDirectory) {
  manifest("sub/a.txt");
  Result<Suite> s = load_dir(dir_);
  ASSERT_OK(s);
  EXPECT_EQ(s->files.at("sub/a.txt"), "short text\n");
  Result<Report> r = run_suite(s.value());
  ASSERT_OK(r);
  EXPECT_TRUE(r->passed);
}

TEST_F(LoadDirTest, RejectsUncleanPaths) {
  for (std::string bad : {"../outside.txt", "/etc/passwd", ".", "./sub/a.txt", "sub//a.txt",
                          "sub/../sub/a.txt", "sub\\a.txt"}) {
    manifest(bad);
    Result<Suite> s = load_dir(dir_);
    ASSERT_FALSE(s.ok()) << bad;
    EXPECT_EQ(s.status().error_code(), "cave_invalid_fixture_path") << bad;
  }
}

TEST_F(LoadDirTest, SymlinksMayNotEscape) {
  fs::create_symlink(tmp_.path() + "/outside.txt", dir_ + "/escape.txt");
  fs::create_symlink("sub/a.txt", dir_ + "/inside.txt");
  manifest("escape.txt");
  Result<Suite> s = load_dir(dir_);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().error_code(), "cave_invalid_fixture_path");
  manifest("inside.txt");
  ASSERT_OK(load_dir(dir_));
  // A symlinked DIR is resolved first; fixtures inside it stay valid.
  fs::create_symlink(dir_, tmp_.path() + "/alias");
  manifest("sub/a.txt");
  ASSERT_OK(load_dir(tmp_.path() + "/alias"));
}

TEST_F(LoadDirTest, MissingThingsAreErrors) {
  EXPECT_EQ(load_dir(dir_).status().error_code(), "cave_fixture_not_found");  // no manifest
  manifest("sub/missing.txt");
  EXPECT_EQ(load_dir(dir_).status().error_code(), "cave_fixture_not_found");
  EXPECT_EQ(load_dir(tmp_.path() + "/nope").status().error_code(), "cave_fixture_not_found");
  testing::write_file(dir_ + "/manifest.yaml", "fixtures: {}\n");
  EXPECT_EQ(load_dir(dir_).status().error_code(), "cave_invalid_manifest");
}

}  // namespace
}  // namespace caveman::evals
