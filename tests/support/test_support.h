// Shared test helpers: status assertions, temp directories, corpus access.
#ifndef CAVEMAN_TESTS_SUPPORT_TEST_SUPPORT_H_
#define CAVEMAN_TESTS_SUPPORT_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "caveman/status.h"
#include "support/corpus.h"

namespace caveman::testing {
// The Status of a Status or a Result<T>, for ASSERT_OK/EXPECT_OK.
inline const Status& status_of(const Status& s) { return s; }
template <typename T>
const Status& status_of(const Result<T>& r) {
  return r.status();
}
}  // namespace caveman::testing

// The Status is copied out before the full expression ends, so `ASSERT_OK(f().status())` on a
// temporary Result is safe.
#define ASSERT_OK(expr)                                                        \
  do {                                                                         \
    const ::caveman::Status caveman_s_ = ::caveman::testing::status_of(expr);  \
    ASSERT_TRUE(caveman_s_.ok()) << caveman_s_.ToString();                     \
  } while (0)

#define EXPECT_OK(expr)                                                        \
  do {                                                                         \
    const ::caveman::Status caveman_s_ = ::caveman::testing::status_of(expr);  \
    EXPECT_TRUE(caveman_s_.ok()) << caveman_s_.ToString();                     \
  } while (0)

namespace caveman::testing {

// A fresh directory under $TMPDIR, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Sets (or unsets, for nullopt) a variable of this process's environment for the scope, for
// code that reads process_env(); the tests of one binary run one at a time.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value->c_str(), 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A TCP socket listening on 127.0.0.1 at a port the kernel picks: the socket (−1 on
// failure), its port in *port.
int listen_on_loopback(int backlog, int* port);

// The uid/gid tests drop to when they run as root (permission bits do not stop root).
inline constexpr unsigned kNobody = 65534;

// Runs `body` in a forked child without privileges (as `nobody` when the tests run as root)
// and returns the string it produced, or "child failed". `dir` is handed to `nobody` first.
std::string run_unprivileged(const std::string& dir, const std::function<std::string()>& body);

using ::caveman::corpus::read_file;
using ::caveman::corpus::write_file;
using ::caveman::corpus::CorpusFile;
using ::caveman::corpus::corpus_dir;
using ::caveman::corpus::corpus_manifest;

}  // namespace caveman::testing

#endif  // CAVEMAN_TESTS_SUPPORT_TEST_SUPPORT_H_
