// The private database file rules (docs/base.md), used by the CCR store, cavemem and the
// proxy's caveman.db. The proxy's copy ignored a failed chmod and cavemem's never looked at the
// directory; these cases pin the strictest behaviour for all three. The full SQLite-level
// cases live in tests/unit/engine/ccr/file_safety_test.cpp.
#include "caveman/base/private_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>

#include "support/file_mode.h"
#include "support/test_support.h"

namespace caveman::base {
namespace {

using ::caveman::testing::kNobody;
using ::caveman::testing::run_unprivileged;
using ::caveman::testing::mode_of;
using ::caveman::testing::TempDir;

constexpr FileErrors kErrors{"cave_t_unsafe", "cave_t_io", "t: ", "T_DB"};

void make_file(const std::string& path, mode_t mode) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, mode);
  ASSERT_GE(fd, 0) << path;
  ::close(fd);
  ASSERT_EQ(::chmod(path.c_str(), mode), 0);
}

std::string describe(const Status& s) { return s.ok() ? "ok" : s.ToString(); }

TEST(PrivateFile, CreatesA0600FileAndReportsItsInode) {
  TempDir dir;
  Result<PrivateFile> f = prepare_private_db_file(dir.file("a.db"), kErrors);
  ASSERT_OK(f.status());
  EXPECT_EQ(mode_of(dir.file("a.db")), 0600u);
  struct stat st {};
  ASSERT_EQ(::stat(dir.file("a.db").c_str(), &st), 0);
  EXPECT_EQ(f->ino, st.st_ino);
  EXPECT_OK(recheck_private_db_file(*f, kErrors));
}

TEST(PrivateFile, TightensAnExisting0644FileAndItsSidecars) {
  TempDir dir;
  make_file(dir.file("a.db"), 0644);
  make_file(dir.file("a.db-wal"), 0644);
  ASSERT_OK(prepare_private_db_file(dir.file("a.db"), kErrors).status());
  EXPECT_EQ(mode_of(dir.file("a.db")), 0600u);
  EXPECT_EQ(mode_of(dir.file("a.db-wal")), 0600u);
}

TEST(PrivateFile, A0644FileThatCannotBeChmodedIsRefused) {
  // Owned by root, so `nobody` cannot chmod it: writable-by-all (0666) reaches the chmod,
  // 0644 stops at the write check. Either way the file is refused and left as it was.
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("d").c_str(), 0755), 0);
  const std::string shared = dir.file("d") + "/shared.db";
  const std::string readonly = dir.file("d") + "/readonly.db";
  make_file(shared, 0666);
  make_file(readonly, 0644);
  if (::geteuid() != 0 && ::getuid() != 0) {
    GTEST_SKIP() << "needs root to make a file this user cannot chmod";
  }
  ASSERT_EQ(::chown(dir.file("d").c_str(), kNobody, kNobody), 0);
  std::string result = run_unprivileged(dir.path(), [&] {
    return describe(prepare_private_db_file(shared, kErrors).status()) + "\n" +
           describe(prepare_private_db_file(readonly, kErrors).status());
  });
  EXPECT_NE(result.find("cave_t_io: t: cannot chmod 0600 " + shared), std::string::npos) << result;
  EXPECT_NE(result.find("cave_t_io: t: " + readonly + " is not writable"), std::string::npos)
      << result;
  EXPECT_EQ(mode_of(shared), 0666u);
  EXPECT_EQ(mode_of(readonly), 0644u);
}

TEST(PrivateFile, RefusesSymlinksAndNonRegularFiles) {
  TempDir dir;
  make_file(dir.file("real.db"), 0600);
  ASSERT_EQ(::symlink(dir.file("real.db").c_str(), dir.file("link.db").c_str()), 0);
  ASSERT_EQ(::mkdir(dir.file("dir.db").c_str(), 0700), 0);
  for (const char* name : {"link.db", "dir.db"}) {
    Result<PrivateFile> f = prepare_private_db_file(dir.file(name), kErrors);
    ASSERT_FALSE(f.ok()) << name;
    EXPECT_EQ(f.status().error_code(), "cave_t_unsafe") << name;
  }
}

TEST(PrivateFile, RefusesAGroupWritableDirectoryUnlessSticky) {
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("open").c_str(), 0700), 0);
  ASSERT_EQ(::chmod(dir.file("open").c_str(), 0777), 0);
  Result<PrivateFile> f = prepare_private_db_file(dir.file("open") + "/a.db", kErrors);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().error_code(), "cave_t_unsafe");
  EXPECT_NE(f.status().message().find("T_DB"), std::string::npos) << f.status().ToString();
  EXPECT_EQ(mode_of(dir.file("open") + "/a.db"), 0u) << "nothing is created there";
  ASSERT_EQ(::chmod(dir.file("open").c_str(), 01777), 0);
  EXPECT_OK(prepare_private_db_file(dir.file("open") + "/a.db", kErrors).status());
}

TEST(PrivateFile, RecheckNoticesAReplacedFile) {
  TempDir dir;
  Result<PrivateFile> f = prepare_private_db_file(dir.file("a.db"), kErrors);
  ASSERT_OK(f.status());
  make_file(dir.file("b.db"), 0600);  // made while a.db lives, so its inode differs
  ASSERT_EQ(::rename(dir.file("b.db").c_str(), dir.file("a.db").c_str()), 0);
  Status s = recheck_private_db_file(*f, kErrors);
  EXPECT_EQ(s.error_code(), "cave_t_unsafe") << s.ToString();
}

TEST(PrivateFile, APathThatNamesNoFileIsRefused) {
  TempDir dir;
  EXPECT_FALSE(prepare_private_db_file(dir.path() + "/", kErrors).ok());
  EXPECT_FALSE(prepare_private_db_file(dir.path() + "/..", kErrors).ok());
}

}  // namespace
}  // namespace caveman::base
