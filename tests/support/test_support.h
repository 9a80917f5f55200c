// Shared test helpers: status assertions, temp directories, corpus access.
#ifndef CAVEMAN_TESTS_SUPPORT_TEST_SUPPORT_H_
#define CAVEMAN_TESTS_SUPPORT_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "caveman/status.h"
#include "support/corpus.h"

#define ASSERT_OK(expr)                                          \
  do {                                                           \
    const auto& caveman_s_ = (expr);                             \
    ASSERT_TRUE(caveman_s_.ok()) << caveman_s_.ToString();       \
  } while (0)

#define EXPECT_OK(expr)                                          \
  do {                                                           \
    const auto& caveman_s_ = (expr);                             \
    EXPECT_TRUE(caveman_s_.ok()) << caveman_s_.ToString();       \
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

using ::caveman::corpus::read_file;
using ::caveman::corpus::write_file;
using ::caveman::corpus::CorpusFile;
using ::caveman::corpus::corpus_dir;
using ::caveman::corpus::corpus_manifest;

}  // namespace caveman::testing

#endif  // CAVEMAN_TESTS_SUPPORT_TEST_SUPPORT_H_
