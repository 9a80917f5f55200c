// "Several processes writing the same ccr.db at once must lose nothing": 4 processes × 200
// distinct records into one file, started together, then every record read back byte-exactly.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "caveman/ccr.h"
#include "support/test_support.h"

namespace caveman::ccr {
namespace {

using ::caveman::testing::TempDir;

constexpr int kProcesses = 4;
constexpr int kRecordsPerProcess = 200;

// Distinct, variably sized payloads (some spill into overflow pages) with binary bytes.
std::string payload(int process, int i) {
  std::string s = "process " + std::to_string(process) + " record " + std::to_string(i) + " ";
  s.append(static_cast<std::size_t>((i * 37 + process * 101) % 6000),
           static_cast<char>('a' + i % 26));
  s.push_back('\0');
  s.push_back(static_cast<char>(0xFF - process));
  return s;
}

// Child body: waits for the start signal, then writes its records. Exit code = failures.
int child(const std::string& path, int process, int start_fd) {
  char go;
  if (::read(start_fd, &go, 1) < 0) return 100;
  ::close(start_fd);
  Result<std::unique_ptr<Store>> store = open_store(path);
  if (!store.ok()) return 101;
  int failures = 0;
  for (int i = 0; i < kRecordsPerProcess; ++i) {
    std::string original = payload(process, i);
    Record r{i % 2 == 0 ? "json" : "log", "test", 100 + i, 10 + i, original, ""};
    Result<std::string> h = store.value()->put(r);
    if (!h.ok() || h.value() != handle_for(original)) ++failures;
  }
  return failures > 99 ? 99 : failures;
}

TEST(CcrConcurrency, FourProcessesWritingOneFileLoseNothing) {
  TempDir dir;
  const std::string path = dir.file("ccr.db");
  int start[2];
  ASSERT_EQ(::pipe(start), 0);
  pid_t pids[kProcesses];
  for (int p = 0; p < kProcesses; ++p) {
    pids[p] = ::fork();
    ASSERT_GE(pids[p], 0);
    if (pids[p] == 0) {
      ::close(start[1]);
      ::_exit(child(path, p, start[0]));
    }
  }
  ::close(start[0]);
  ::close(start[1]);  // EOF releases every child at once
  for (int p = 0; p < kProcesses; ++p) {
    int status = 0;
    ASSERT_EQ(::waitpid(pids[p], &status, 0), pids[p]);
    ASSERT_TRUE(WIFEXITED(status))
        << "process " << p << " signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    EXPECT_EQ(WEXITSTATUS(status), 0) << "process " << p << " failed puts (100+: setup)";
  }

  Result<std::unique_ptr<Store>> store = open_store(path);
  ASSERT_OK(store.status());
  int missing = 0;
  for (int p = 0; p < kProcesses; ++p) {
    for (int i = 0; i < kRecordsPerProcess; ++i) {
      const std::string original = payload(p, i);
      Result<std::string> got = store.value()->get(handle_for(original));
      if (!got.ok() || got.value() != original) ++missing;
    }
  }
  EXPECT_EQ(missing, 0);
  Result<StoreStats> stats = store.value()->stats();
  ASSERT_OK(stats.status());
  EXPECT_EQ(stats->totals.count, kProcesses * kRecordsPerProcess);

  SQLite::Database db(path, SQLite::OPEN_READONLY);
  EXPECT_EQ(db.execAndGet("PRAGMA integrity_check").getString(), "ok");
  // The trigger-kept usage counter agrees with a full recount.
  EXPECT_EQ(db.execAndGet("SELECT used_bytes FROM ccr_usage").getInt64(),
            db.execAndGet("SELECT sum(length(original) + ifnull(length(metadata), 0)) "
                          "FROM recoveries")
                .getInt64());
  EXPECT_EQ(stats->storage_bytes,
            db.execAndGet("SELECT sum(length(original)) FROM recoveries").getInt64());
}

}  // namespace
}  // namespace caveman::ccr
