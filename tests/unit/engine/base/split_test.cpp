// Lines and needle counts (docs/base.md).
#include "caveman/base/split.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace caveman::base {
namespace {

using Views = std::vector<std::string_view>;

TEST(BaseSplit, FinalNewlineDoesNotStartALine) {
  EXPECT_EQ(split_lines("a\nb\n"), (Views{"a", "b"}));
  EXPECT_EQ(split_lines("a\n\nb"), (Views{"a", "", "b"}));
  EXPECT_EQ(split_lines("a\r\n\n"), (Views{"a\r", ""}));
  EXPECT_TRUE(split_lines("").empty());
}

TEST(BaseSplit, CountsNonOverlappingMatches) {
  EXPECT_EQ(count_occurrences("aaaa", "aa"), 2u);
  EXPECT_EQ(count_occurrences("<file a><file b>", "<file"), 2u);
  EXPECT_EQ(count_occurrences("abc", "x"), 0u);
  EXPECT_EQ(count_occurrences("", "x"), 0u);
}

}  // namespace
}  // namespace caveman::base
