// Store location and budget from the environment (docs/spec/ccr.md#location).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "caveman/ccr.h"
#include "support/test_support.h"

namespace caveman::ccr {
namespace {

using ::caveman::testing::TempDir;

// Saves and restores the variables these tests change.
class PathsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : kVars) {
      const char* v = std::getenv(name);
      saved_.push_back(v ? std::optional<std::string>(v) : std::nullopt);
      ::unsetenv(name);
    }
    old_umask_ = ::umask(0);  // modes must come from the code
  }
  void TearDown() override {
    ::umask(old_umask_);
    for (std::size_t i = 0; i < std::size(kVars); ++i) {
      if (saved_[i]) {
        ::setenv(kVars[i], saved_[i]->c_str(), 1);
      } else {
        ::unsetenv(kVars[i]);
      }
    }
  }

  static mode_t mode_of(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? (st.st_mode & 07777) : 0;
  }

  static constexpr const char* kVars[] = {"CAVEMAN_CCR_DB", "CAVEMAN_HOME", "HOME",
                                          "CAVEMAN_CCR_MAX_BYTES"};
  std::vector<std::optional<std::string>> saved_;
  mode_t old_umask_ = 0;
  TempDir dir_;
};

TEST_F(PathsTest, ExplicitDatabaseWinsAndCreatesNoHome) {
  ::setenv("CAVEMAN_CCR_DB", dir_.file("custom.db").c_str(), 1);
  ::setenv("CAVEMAN_HOME", dir_.file("home").c_str(), 1);
  OpenOptions options;
  Result<std::string> path = resolve_store_path(&options);
  ASSERT_OK(path);
  EXPECT_EQ(path.value(), dir_.file("custom.db"));
  EXPECT_EQ(mode_of(dir_.file("home")), 0u);
  EXPECT_EQ(options.max_bytes, kDefaultMaxBytes);
}

TEST_F(PathsTest, CavemanHomeIsCreatedWith0700) {
  ::setenv("CAVEMAN_HOME", (dir_.file("a") + "/b/").c_str(), 1);
  OpenOptions options;
  Result<std::string> path = resolve_store_path(&options);
  ASSERT_OK(path);
  EXPECT_EQ(path.value(), dir_.file("a") + "/b/ccr.db");
  EXPECT_EQ(mode_of(dir_.file("a")), 0700u);
  EXPECT_EQ(mode_of(dir_.file("a") + "/b"), 0700u);
  // And the store that lands there is 0600.
  Result<std::unique_ptr<Store>> store = open_store(path.value(), options);
  ASSERT_OK(store);
  EXPECT_EQ(mode_of(path.value()), 0600u);
}

TEST_F(PathsTest, HomeFallbackUsesDotCaveman) {
  ::setenv("HOME", dir_.path().c_str(), 1);
  OpenOptions options;
  Result<std::string> path = resolve_store_path(&options);
  ASSERT_OK(path);
  EXPECT_EQ(path.value(), dir_.file(".caveman") + "/ccr.db");
  EXPECT_EQ(mode_of(dir_.file(".caveman")), 0700u);
}

TEST_F(PathsTest, ExistingHomeIsNotReChmodded) {
  ASSERT_EQ(::mkdir(dir_.file("home").c_str(), 0755), 0);
  ::setenv("CAVEMAN_HOME", dir_.file("home").c_str(), 1);
  OpenOptions options;
  ASSERT_OK(resolve_store_path(&options));
  EXPECT_EQ(mode_of(dir_.file("home")), 0755u);
}

TEST_F(PathsTest, HomeThatIsAFileIsACleanError) {
  caveman::testing::write_file(dir_.file("home"), "not a dir");
  ::setenv("CAVEMAN_HOME", dir_.file("home").c_str(), 1);
  OpenOptions options;
  Result<std::string> path = resolve_store_path(&options);
  ASSERT_FALSE(path.ok());
  EXPECT_EQ(path.status().error_code(), "cave_ccr_unavailable");
}

TEST_F(PathsTest, NoHomeAtAllIsReported) {
  OpenOptions options;
  Result<std::string> path = resolve_store_path(&options);
  ASSERT_FALSE(path.ok());
  EXPECT_EQ(path.status().error_code(), "cave_no_home");
}

TEST_F(PathsTest, MaxBytesMustBeAPositiveInteger) {
  ::setenv("CAVEMAN_CCR_DB", dir_.file("ccr.db").c_str(), 1);
  ::setenv("CAVEMAN_CCR_MAX_BYTES", "1048576", 1);
  OpenOptions options;
  ASSERT_OK(resolve_store_path(&options));
  EXPECT_EQ(options.max_bytes, 1048576);
  for (const char* bad : {"0", "-5", "abc", "12abc", " 12", "1e6", "99999999999999999999"}) {
    ::setenv("CAVEMAN_CCR_MAX_BYTES", bad, 1);
    OpenOptions o;
    Result<std::string> path = resolve_store_path(&o);
    ASSERT_FALSE(path.ok()) << bad;
    EXPECT_EQ(path.status().code(), Code::kInvalidArgument);
    EXPECT_EQ(path.status().message(), "CAVEMAN_CCR_MAX_BYTES must be a positive integer");
  }
  ::setenv("CAVEMAN_CCR_MAX_BYTES", "", 1);  // empty = unset
  OpenOptions o;
  ASSERT_OK(resolve_store_path(&o));
  EXPECT_EQ(o.max_bytes, kDefaultMaxBytes);
}

}  // namespace
}  // namespace caveman::ccr
