// Lines that report a problem: the ones an answer about a log or a build most often depends
// on. Log elision always keeps them, a token budget never gives them up, and factoring
// leaves them verbatim so they can still be found by their exact text.
#ifndef CAVEMAN_COMPRESS_COMMON_PROBLEM_LINES_H_
#define CAVEMAN_COMPRESS_COMMON_PROBLEM_LINES_H_

#include <string_view>

#include "text/words.h"

namespace caveman::compress {

namespace detail {

inline bool digit(char c) { return c >= '0' && c <= '9'; }

// A 4xx/5xx status at `i`, as a whole number.
inline bool failure_status_at(std::string_view s, std::size_t i) {
  return i + 3 <= s.size() && (s[i] == '4' || s[i] == '5') && digit(s[i + 1]) && digit(s[i + 2]) &&
         (i + 3 == s.size() || !digit(s[i + 3])) && (i == 0 || !digit(s[i - 1]));
}

}  // namespace detail

// An HTTP request that failed: the status after the request line of an access log
// (`"GET /x HTTP/1.1" 502 …`) or a `status=`/`status: `/`"status":` field is 4xx or 5xx. Such a
// line carries no problem word, yet it is what a question about a service's log is about.
inline bool reports_http_failure(std::string_view line) {
  for (std::size_t p = line.find("HTTP/"); p != std::string_view::npos;
       p = line.find("HTTP/", p + 5)) {
    std::size_t i = p + 5;
    while (i < line.size() && (detail::digit(line[i]) || line[i] == '.')) ++i;
    if (i < line.size() && line[i] == '"') ++i;
    if (i >= line.size() || line[i] != ' ') continue;
    while (i < line.size() && line[i] == ' ') ++i;
    if (detail::failure_status_at(line, i)) return true;
  }
  for (std::size_t p = line.find("status"); p != std::string_view::npos;
       p = line.find("status", p + 6)) {
    std::size_t i = p + 6;
    if (i < line.size() && line[i] == '"') ++i;
    if (i >= line.size() || (line[i] != '=' && line[i] != ':')) continue;
    ++i;
    while (i < line.size() && line[i] == ' ') ++i;
    if (detail::failure_status_at(line, i)) return true;
  }
  return false;
}

inline bool names_a_problem(std::string_view line) {
  return text::contains_word_ci(line, {"error", "fatal", "panic", "exception", "traceback", "fail",
                                       "failed", "failure", "warn", "warning"}) ||
         reports_http_failure(line);
}

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMMON_PROBLEM_LINES_H_
