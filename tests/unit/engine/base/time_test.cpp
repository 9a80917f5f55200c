#include "caveman/base/time.h"

#include <gtest/gtest.h>

#include <regex>

namespace caveman::base {
namespace {

TEST(BaseTime, FormatsUtcWithTrimmedNanoseconds) {
  EXPECT_EQ(format_rfc3339({0, 0}), "1970-01-01T00:00:00Z");
  EXPECT_EQ(format_rfc3339({1767225600, 500000000}), "2026-01-01T00:00:00.5Z");
  EXPECT_EQ(format_rfc3339({1767225600, 123456789}), "2026-01-01T00:00:00.123456789Z");
  EXPECT_EQ(format_rfc3339({1767225600, 1000}), "2026-01-01T00:00:00.000001Z");
  EXPECT_EQ(format_rfc3339({951782400, 0}), "2000-02-29T00:00:00Z");  // leap day
  EXPECT_EQ(format_rfc3339({-1, 0}), "1969-12-31T23:59:59Z");
}

TEST(BaseTime, NowIsRfc3339Utc) {
  const std::string now = format_rfc3339(now_utc());
  EXPECT_TRUE(std::regex_match(now, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?Z)")))
      << now;
}

TEST(BaseTime, ParsesOffsetsAndConvertsToUtc) {
  EXPECT_EQ(normalize_rfc3339("2026-03-04T05:06:07.123456789+02:00"),
            "2026-03-04T03:06:07.123456789Z");
  EXPECT_EQ(normalize_rfc3339("2026-03-04T23:30:00-01:00"), "2026-03-05T00:30:00Z");
  EXPECT_EQ(normalize_rfc3339("2026-03-04T05:06:07.100Z"), "2026-03-04T05:06:07.1Z");
  EXPECT_EQ(normalize_rfc3339("2026-03-04t05:06:07z"), "2026-03-04T05:06:07Z");
  EXPECT_EQ(normalize_rfc3339("2026-03-04T05:06:07.1234567891234Z"),
            "2026-03-04T05:06:07.123456789Z");  // truncated to nanoseconds
}

TEST(BaseTime, RejectsMalformedOrImpossibleTimes) {
  for (const char* bad :
       {"", "2026-03-04", "2026-03-04 05:06:07Z", "2026-03-04T05:06:07", "2026-02-30T00:00:00Z",
        "2025-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z",
        "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z", "2026-01-01T00:00:00.Z",
        "2026-01-01T00:00:00+0200", "2026-01-01T00:00:00Zjunk", "0000-01-01T00:00:00+01:00",
        "9999-12-31T23:59:59-01:00", "20260-01-01T00:00:00Z"}) {
    EXPECT_FALSE(parse_rfc3339(bad).has_value()) << bad;
  }
  EXPECT_TRUE(parse_rfc3339("2024-02-29T00:00:00Z").has_value());
}

TEST(BaseTime, FixedFractionsSeparatorsAndZulu) {
  const Timestamp t{1767225600, 123456789};
  EXPECT_EQ(format_utc(t, {Fraction::kNone}), "2026-01-01T00:00:00Z");
  EXPECT_EQ(format_utc(t, {Fraction::kMillis, ' ', false}), "2026-01-01 00:00:00.123");
  EXPECT_EQ(format_utc(t, {Fraction::kMicros}), "2026-01-01T00:00:00.123456Z");
  EXPECT_EQ(format_utc({1767225600, 0}, {Fraction::kMicros}), "2026-01-01T00:00:00.000000Z");
  EXPECT_EQ(format_utc({1767225600, 0}, {Fraction::kNone, ' ', false}), "2026-01-01 00:00:00");
  EXPECT_EQ(format_utc({-1, 999999999}, {Fraction::kMillis}), "1969-12-31T23:59:59.999Z");
}

}  // namespace
}  // namespace caveman::base
