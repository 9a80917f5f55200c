// caveman.db goes through the base layer's private-file rules (docs/base.md). Before, a chmod
// that failed was ignored and the proxy went on with a file others could read.
#include "spend_db.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "support/file_mode.h"
#include "support/test_support.h"

namespace caveman::proxy {
namespace {

using ::caveman::testing::kNobody;
using ::caveman::testing::run_unprivileged;
using ::caveman::testing::mode_of;
using ::caveman::testing::TempDir;

TEST(SpendDb, NewFileIs0600AndAWorldReadableOneIsTightened) {
  TempDir dir;
  ASSERT_OK(open_spend_db(dir.file("caveman.db")).status());
  EXPECT_EQ(mode_of(dir.file("caveman.db")), 0600u);
  ASSERT_EQ(::chmod(dir.file("caveman.db").c_str(), 0644), 0);
  ASSERT_OK(open_spend_db(dir.file("caveman.db")).status());
  EXPECT_EQ(mode_of(dir.file("caveman.db")), 0600u);
}

TEST(SpendDb, AFileThatCannotBeChmodedIsRefused) {
  if (::geteuid() != 0) GTEST_SKIP() << "needs root to make a file this user cannot chmod";
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("d").c_str(), 0755), 0);
  const std::string path = dir.file("d") + "/caveman.db";
  int fd = ::open(path.c_str(), O_CREAT | O_WRONLY, 0666);
  ASSERT_GE(fd, 0);
  ::close(fd);
  ASSERT_EQ(::chmod(path.c_str(), 0666), 0);
  ASSERT_EQ(::chown(dir.file("d").c_str(), kNobody, kNobody), 0);
  std::string result = run_unprivileged(dir.path(), [&] {
    auto db = open_spend_db(path);
    return db.ok() ? std::string("ok") : db.status().ToString();
  });
  EXPECT_EQ(result.rfind("cave_db_unavailable: cannot chmod 0600 " + path, 0), 0u) << result;
  EXPECT_EQ(mode_of(path), 0666u);
}

TEST(SpendDb, ASymlinkIsRefused) {
  TempDir dir;
  ASSERT_EQ(::symlink(dir.file("elsewhere.db").c_str(), dir.file("caveman.db").c_str()), 0);
  auto db = open_spend_db(dir.file("caveman.db"));
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().error_code(), "cave_db_unavailable");
}

}  // namespace
}  // namespace caveman::proxy
