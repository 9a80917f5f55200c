// Where and how the store file may live (docs/spec/ccr.md#location): modes, parent-directory
// checks, symlinks, corrupt and read-only files. The tests run as root here, where permission bits
// do not stop anything, so read-only cases run in a child process that drops to `nobody`.
#include <SQLiteCpp/SQLiteCpp.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "caveman/ccr.h"
#include "support/file_mode.h"
#include "support/test_support.h"

namespace caveman::ccr {
namespace {

using ::caveman::testing::kNobody;
using ::caveman::testing::run_unprivileged;
using ::caveman::testing::mode_of;
using ::caveman::testing::TempDir;

void write_bytes(const std::string& path, const std::string& bytes, mode_t mode = 0600) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, mode);
  ASSERT_GE(fd, 0) << path;
  ASSERT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
  ::close(fd);
  ASSERT_EQ(::chmod(path.c_str(), mode), 0);
}

// Sets the umask for one test (modes must come from the code, not from the umask).
class ScopedUmask {
 public:
  explicit ScopedUmask(mode_t mask) : old_(::umask(mask)) {}
  ~ScopedUmask() { ::umask(old_); }

 private:
  mode_t old_;
};

std::string describe(const Status& s) {
  return s.ok() ? "ok" : std::to_string(static_cast<int>(s.code())) + "|" + s.ToString();
}

std::string code_str(Code c) { return std::to_string(static_cast<int>(c)); }

TEST(CcrFileSafety, NewDatabaseAndSidecarsAreOwnerOnly) {
  ScopedUmask umask(0);
  TempDir dir;
  const std::string path = dir.file("ccr.db");
  Result<std::unique_ptr<Store>> store = open_store(path);
  ASSERT_OK(store.status());
  EXPECT_EQ(mode_of(path), 0600u);
  ASSERT_OK(store.value()->put(Record{"json", "json", 10, 1, "x", ""}).status());
  EXPECT_EQ(mode_of(path + "-wal"), 0600u);
  EXPECT_EQ(mode_of(path + "-shm"), 0600u);
}

TEST(CcrFileSafety, ExistingFilesAreTightenedTo0600) {
  ScopedUmask umask(0);
  TempDir dir;
  const std::string path = dir.file("ccr.db");
  write_bytes(path, "", 0644);
  write_bytes(path + "-wal", "", 0666);
  write_bytes(path + "-shm", "", 0644);
  Result<std::unique_ptr<Store>> store = open_store(path);
  ASSERT_OK(store.status());
  EXPECT_EQ(mode_of(path), 0600u);
  EXPECT_EQ(mode_of(path + "-wal"), 0600u);
  EXPECT_EQ(mode_of(path + "-shm"), 0600u);
}

TEST(CcrFileSafety, GroupOrWorldWritableParentIsRefusedUnlessSticky) {
  for (mode_t mode : {0777, 0770, 0722}) {
    TempDir dir;
    ASSERT_EQ(::chmod(dir.path().c_str(), mode), 0);
    Result<std::unique_ptr<Store>> store = open_store(dir.file("ccr.db"));
    ASSERT_FALSE(store.ok()) << std::oct << mode;
    EXPECT_EQ(store.status().code(), Code::kInvalidArgument);
    EXPECT_EQ(store.status().error_code(), "cave_ccr_unsafe_path");
    EXPECT_EQ(mode_of(dir.file("ccr.db")), 0u) << "nothing may be created in an unsafe dir";
  }
  for (mode_t mode : {01777, 0755, 0700}) {
    TempDir dir;
    ASSERT_EQ(::chmod(dir.path().c_str(), mode), 0);
    Result<std::unique_ptr<Store>> store = open_store(dir.file("ccr.db"));
    EXPECT_TRUE(store.ok()) << std::oct << mode << " " << store.status().ToString();
  }
}

TEST(CcrFileSafety, SymlinkedParentIsResolved) {
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("real").c_str(), 0700), 0);
  ASSERT_EQ(::symlink(dir.file("real").c_str(), dir.file("link").c_str()), 0);
  Result<std::unique_ptr<Store>> store = open_store(dir.file("link") + "/ccr.db");
  ASSERT_OK(store.status());
  EXPECT_EQ(mode_of(dir.file("real") + "/ccr.db"), 0600u);
}

TEST(CcrFileSafety, SymlinkedDatabaseIsRefused) {
  TempDir dir;
  {
    Result<std::unique_ptr<Store>> real = open_store(dir.file("real.db"));
    ASSERT_OK(real.status());
  }
  ASSERT_EQ(::symlink(dir.file("real.db").c_str(), dir.file("link.db").c_str()), 0);
  Result<std::unique_ptr<Store>> store = open_store(dir.file("link.db"));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(store.status().error_code(), "cave_ccr_unsafe_path");
  EXPECT_NE(store.status().message().find("symbolic link"), std::string::npos);

  ASSERT_EQ(::symlink(dir.file("nowhere.db").c_str(), dir.file("dangling.db").c_str()), 0);
  store = open_store(dir.file("dangling.db"));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().error_code(), "cave_ccr_unsafe_path");
  EXPECT_EQ(mode_of(dir.file("nowhere.db")), 0u) << "the link target must not be created";
}

TEST(CcrFileSafety, SymlinkedSidecarIsRefused) {
  TempDir dir;
  write_bytes(dir.file("elsewhere"), "");
  ASSERT_EQ(::symlink(dir.file("elsewhere").c_str(), dir.file("ccr.db-wal").c_str()), 0);
  Result<std::unique_ptr<Store>> store = open_store(dir.file("ccr.db"));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().error_code(), "cave_ccr_unsafe_path");
}

TEST(CcrFileSafety, NonRegularDatabasePathIsRefused) {
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("ccr.db").c_str(), 0700), 0);
  Result<std::unique_ptr<Store>> store = open_store(dir.file("ccr.db"));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().error_code(), "cave_ccr_unsafe_path");
}

TEST(CcrFileSafety, MissingDirectoryIsACleanError) {
  TempDir dir;
  Result<std::unique_ptr<Store>> store = open_store(dir.file("missing") + "/ccr.db");
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Code::kIo);
  EXPECT_EQ(store.status().error_code(), "cave_ccr_unavailable");
}

TEST(CcrFileSafety, GarbageFileIsReportedCorrupt) {
  TempDir dir;
  std::string garbage;
  for (int i = 0; i < 300; ++i) garbage += "this is not a sqlite database ";
  write_bytes(dir.file("ccr.db"), garbage);
  Result<std::unique_ptr<Store>> store = open_store(dir.file("ccr.db"));
  ASSERT_FALSE(store.ok());
  EXPECT_EQ(store.status().code(), Code::kCorrupt);
  EXPECT_EQ(store.status().error_code(), "cave_ccr_unavailable");
  EXPECT_NE(store.status().message().find(dir.file("ccr.db")), std::string::npos)
      << store.status().message();
}

TEST(CcrFileSafety, DamagedPagesGiveCleanErrorsNotCrashes) {
  TempDir dir;
  const std::string path = dir.file("ccr.db");
  std::string handle;
  {
    Result<std::unique_ptr<Store>> store = open_store(path);
    ASSERT_OK(store.status());
    Result<std::string> h =
        store.value()->put(Record{"log", "log", 100, 10, std::string(20000, 'x'), ""});
    ASSERT_OK(h.status());
    handle = h.value();
  }  // closing checkpoints the WAL into the main file
  {
    std::string bytes = ::caveman::testing::read_file(path);
    ASSERT_GT(bytes.size(), 8192u);
    for (std::size_t i = 4096; i < bytes.size(); ++i) bytes[i] = static_cast<char>(0xA5 ^ (i * 7));
    write_bytes(path, bytes);
  }
  Result<std::unique_ptr<Store>> store = open_store(path);
  if (!store.ok()) {
    EXPECT_EQ(store.status().error_code(), "cave_ccr_unavailable") << store.status().ToString();
    return;
  }
  Result<std::string> got = store.value()->get(handle);
  ASSERT_FALSE(got.ok());
  EXPECT_EQ(got.status().code(), Code::kCorrupt) << got.status().ToString();
  EXPECT_EQ(got.status().error_code(), "cave_ccr_unavailable");
  Result<std::string> put = store.value()->put(Record{"log", "log", 1, 1, "new", ""});
  ASSERT_FALSE(put.ok());  // never a handle without stored bytes
  EXPECT_EQ(put.status().error_code(), "cave_ccr_unavailable") << put.status().ToString();
}

TEST(CcrFileSafety, ReadOnlyDirectoryWithoutDatabaseIsACleanError) {
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("ro").c_str(), 0700), 0);
  if (::geteuid() == 0) ASSERT_EQ(::chown(dir.file("ro").c_str(), kNobody, kNobody), 0);
  ASSERT_EQ(::chmod(dir.file("ro").c_str(), 0500), 0);
  const std::string path = dir.file("ro") + "/ccr.db";
  std::string result =
      run_unprivileged(dir.path(), [&] { return describe(open_store(path).status()); });
  EXPECT_EQ(result.rfind(code_str(Code::kIo) + "|cave_ccr_unavailable:", 0), 0u) << result;
  EXPECT_NE(result.find("cannot create"), std::string::npos) << result;
}

TEST(CcrFileSafety, ReadOnlyDirectoryWithDatabaseIsACleanError) {
  TempDir dir;
  ASSERT_EQ(::mkdir(dir.file("ro").c_str(), 0700), 0);
  const std::string path = dir.file("ro") + "/ccr.db";
  {
    Result<std::unique_ptr<Store>> store = open_store(path);
    ASSERT_OK(store.status());
    ASSERT_OK(store.value()->put(Record{"json", "json", 10, 1, "kept", ""}).status());
  }
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown(dir.file("ro").c_str(), kNobody, kNobody), 0);
    ASSERT_EQ(::chown(path.c_str(), kNobody, kNobody), 0);
  }
  ASSERT_EQ(::chmod(dir.file("ro").c_str(), 0500), 0);
  std::string result = run_unprivileged(dir.path(), [&] {
    Result<std::unique_ptr<Store>> store = open_store(path);
    if (!store.ok()) return "open:" + describe(store.status());
    // If SQLite can open it at all, writing must fail cleanly.
    return "put:" + describe(store.value()->put(Record{"json", "json", 10, 1, "new", ""}).status());
  });
  EXPECT_NE(result.find("cave_ccr_unavailable"), std::string::npos) << result;
  EXPECT_EQ(result.find("|ok"), std::string::npos) << result;
}

TEST(CcrFileSafety, ReadOnlyDatabaseFileIsACleanError) {
  TempDir dir;
  const std::string path = dir.file("ccr.db");
  {
    Result<std::unique_ptr<Store>> store = open_store(path);
    ASSERT_OK(store.status());
  }
  if (::geteuid() == 0) ASSERT_EQ(::chown(path.c_str(), kNobody, kNobody), 0);
  ASSERT_EQ(::chmod(path.c_str(), 0400), 0);
  std::string result =
      run_unprivileged(dir.path(), [&] { return describe(open_store(path).status()); });
  EXPECT_EQ(result.rfind(code_str(Code::kIo) + "|cave_ccr_unavailable:", 0), 0u) << result;
  EXPECT_NE(result.find("not writable"), std::string::npos) << result;
  EXPECT_EQ(mode_of(path), 0400u) << "a read-only file must not be silently made writable";
}

TEST(CcrFileSafety, EmptyPathIsRefused) {
  EXPECT_FALSE(open_store("").ok());
  TempDir dir;
  EXPECT_FALSE(open_store(dir.path() + "/").ok());
}

}  // namespace
}  // namespace caveman::ccr
