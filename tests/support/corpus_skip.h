// The gtest side of corpus access: a test whose corpus files are missing skips, except under
// CI=true (corpus_required()), where it fails.
#ifndef CAVEMAN_TESTS_SUPPORT_CORPUS_SKIP_H_
#define CAVEMAN_TESTS_SUPPORT_CORPUS_SKIP_H_

#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

#include "support/corpus.h"

namespace caveman::corpus {

// True under CI=true: a green CI must not hide that the corpus checks did not run.
inline bool corpus_required() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

}  // namespace caveman::corpus

// Streams like GTEST_SKIP(): `if (files.empty()) CAVEMAN_CORPUS_MISSING() << "why";`
#define CAVEMAN_CORPUS_MISSING()                                                      \
  switch (0)                                                                          \
  case 0:                                                                             \
  default:                                                                            \
    if (::caveman::corpus::corpus_required())                                         \
      GTEST_FAIL() << "CI=true and no corpus at " << ::caveman::corpus::corpus_dir(); \
    else                                                                              \
      GTEST_SKIP()

#endif  // CAVEMAN_TESTS_SUPPORT_CORPUS_SKIP_H_
