// Lines that report a problem stay verbatim in factored views and are never elided.
#include "compress/common/problem_lines.h"

#include <gtest/gtest.h>

namespace caveman::compress {
namespace {

TEST(ProblemLinesTest, FailedHttpRequestsAreProblems) {
  EXPECT_TRUE(names_a_problem(
      R"(10.6.41.237 - - [23/Jun/2026:13:21:07 +0000] "GET /api/orders/57 HTTP/1.1" 500 26 "-" "ok")"));
  EXPECT_TRUE(names_a_problem(R"(1.2.3.4 - - [x] "POST /a HTTP/2.0" 429 0)"));
  EXPECT_TRUE(names_a_problem("ts=1 method=GET path=/x status=503 dur=12ms"));
  EXPECT_TRUE(names_a_problem(R"({"path":"/x","status": 404})"));
  EXPECT_FALSE(names_a_problem(R"(1.2.3.4 - - [x] "GET /a HTTP/1.1" 200 5000 "-" "curl")"));
  EXPECT_FALSE(names_a_problem(R"(1.2.3.4 - - [x] "GET /a HTTP/1.1" 304 0)"));
  EXPECT_FALSE(names_a_problem("status=4000 items=500"));  // no status code
  EXPECT_FALSE(names_a_problem("GET /orders/404 HTTP/1.1 200"));
}

}  // namespace
}  // namespace caveman::compress
