// Atomic replacement (docs/base.md): readers see old or new bytes, never a temporary left over.
#include "caveman/base/atomic_file.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <thread>
#include <vector>

#include "support/file_mode.h"
#include "support/test_support.h"

namespace caveman::base {
namespace {

using ::caveman::testing::read_file;
using ::caveman::testing::mode_of;
using ::caveman::testing::TempDir;
using ::caveman::testing::write_file;

std::vector<std::string> names_in(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = ::opendir(dir.c_str());
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") out.push_back(n);
  }
  ::closedir(d);
  return out;
}

TEST(AtomicFile, CreatesWithTheModeAndReplacesTheBytes) {
  TempDir dir;
  const std::string p = dir.file("state.json");
  ASSERT_OK(write_file_atomic(p, "one", {.io_code = "cave_x"}));
  EXPECT_EQ(read_file(p), "one");
  EXPECT_EQ(mode_of(p), 0600u);
  ASSERT_OK(write_file_atomic(p, std::string("two\0bytes", 9), {.io_code = "cave_x", .mode = 0640}));
  EXPECT_EQ(read_file(p), std::string("two\0bytes", 9));
  EXPECT_EQ(mode_of(p), 0640u);
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"state.json"});
}

TEST(AtomicFile, CanKeepTheModeOfAnExistingFile) {
  TempDir dir;
  const std::string p = dir.file("settings.json");
  write_file(p, "{}");
  ASSERT_EQ(::chmod(p.c_str(), 0644), 0);
  ASSERT_OK(write_file_atomic(p, "{\"a\":1}", {.io_code = "cave_x", .keep_existing_mode = true}));
  EXPECT_EQ(mode_of(p), 0644u);
  EXPECT_EQ(read_file(p), "{\"a\":1}");
}

TEST(AtomicFile, AFailureLeavesTheTargetAndNoTemporary) {
  TempDir dir;
  const std::string p = dir.file("target");
  ASSERT_EQ(::mkdir(p.c_str(), 0700), 0);  // rename of a file over a directory fails
  Status s = write_file_atomic(p, "x", {.io_code = "cave_x"});
  EXPECT_EQ(s.code(), Code::kIo);
  EXPECT_EQ(s.error_code(), "cave_x");
  EXPECT_NE(s.message().find(p), std::string::npos) << s.ToString();
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"target"});
  Status missing = write_file_atomic(dir.file("no/such/dir/f"), "x", {.io_code = "cave_x"});
  EXPECT_EQ(missing.error_code(), "cave_x");
}

TEST(AtomicFile, ConcurrentWritersNeverShareATemporary) {
  TempDir dir;
  const std::string p = dir.file("run.json");
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        EXPECT_OK(write_file_atomic(p, std::string(100, static_cast<char>('a' + t)), {.io_code = "cave_x"}));
      }
    });
  }
  for (auto& th : threads) th.join();
  const std::string got = read_file(p);
  ASSERT_EQ(got.size(), 100u);
  EXPECT_EQ(got, std::string(100, got[0]));
  EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"run.json"});
}

}  // namespace
}  // namespace caveman::base
