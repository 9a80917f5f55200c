// Lines that report a problem: the ones an answer about a log or a build most often depends
// on. Log elision always keeps them, a token budget never gives them up, and factoring
// leaves them verbatim so they can still be found by their exact text.
#ifndef CAVEMAN_COMPRESS_COMMON_PROBLEM_LINES_H_
#define CAVEMAN_COMPRESS_COMMON_PROBLEM_LINES_H_

#include <string_view>

#include "text/words.h"

namespace caveman::compress {

inline bool names_a_problem(std::string_view line) {
  return text::contains_word_ci(line, {"error", "fatal", "panic", "exception", "traceback", "fail",
                                       "failed", "failure", "warn", "warning"});
}

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMMON_PROBLEM_LINES_H_
