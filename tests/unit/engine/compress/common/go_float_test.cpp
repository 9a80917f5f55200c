#include "compress/common/go_float.h"

#include <gtest/gtest.h>

#include <cmath>

namespace caveman::compress {
namespace {

TEST(GoFloatTest, Decimal) {
  EXPECT_EQ(parse_go_float("0"), 0.0);
  EXPECT_EQ(parse_go_float("-3"), -3.0);
  EXPECT_EQ(parse_go_float("+3"), 3.0);
  EXPECT_EQ(parse_go_float("5.00"), 5.0);
  EXPECT_EQ(parse_go_float(".5"), 0.5);
  EXPECT_EQ(parse_go_float("5."), 5.0);
  EXPECT_EQ(parse_go_float("1e2"), 100.0);
  EXPECT_EQ(parse_go_float("1E+2"), 100.0);
  EXPECT_EQ(parse_go_float("1e-2"), 0.01);
  EXPECT_EQ(parse_go_float("007"), 7.0);
}

TEST(GoFloatTest, RejectsWhatGoRejects) {
  for (const char* s :
       {"",      " 1",        "1 ",         ".",     "-",    "+",     "1e",     "1e+",
        "e5",    "1.2.3",     "1,5",        "--1",   "0x",   "0x10",  "0x1.8",  "1f",
        "1d",    "abc",       "2026-01-01", "1.0.0", "v1",   "+nan",  "-nan",   "info",
        "infin", "infinityy", "nan(1)",     "0b101", "0o17", "1e400", "-1e400", "0x1p2000"}) {
    EXPECT_FALSE(parse_go_float(s).has_value()) << s;
  }
}

TEST(GoFloatTest, InfinityAndNan) {
  for (const char* s : {"inf", "Inf", "INF", "+inf", "infinity", "+Infinity", "INFINITY"}) {
    auto v = parse_go_float(s);
    ASSERT_TRUE(v.has_value()) << s;
    EXPECT_TRUE(std::isinf(*v) && *v > 0) << s;
  }
  auto neg = parse_go_float("-Infinity");
  ASSERT_TRUE(neg.has_value());
  EXPECT_TRUE(std::isinf(*neg) && *neg < 0);
  for (const char* s : {"nan", "NaN", "NAN"}) {
    auto v = parse_go_float(s);
    ASSERT_TRUE(v.has_value()) << s;
    EXPECT_TRUE(std::isnan(*v)) << s;
  }
}

TEST(GoFloatTest, HexFloats) {
  EXPECT_EQ(parse_go_float("0x1p-2"), 0.25);
  EXPECT_EQ(parse_go_float("0X1P+3"), 8.0);
  EXPECT_EQ(parse_go_float("-0x1.8p1"), -3.0);
  EXPECT_EQ(parse_go_float("0x.8p1"), 1.0);
  EXPECT_EQ(parse_go_float("0xAp0"), 10.0);
}

TEST(GoFloatTest, UnderscoresWhereGoAllowsThem) {
  EXPECT_EQ(parse_go_float("1_000"), 1000.0);
  EXPECT_EQ(parse_go_float("1_000.5"), 1000.5);
  EXPECT_EQ(parse_go_float("1e1_0"), 1e10);
  EXPECT_EQ(parse_go_float("0x_1p0"), 1.0);
  EXPECT_EQ(parse_go_float("-1_2"), -12.0);
  for (const char* s : {"_1", "1_", "1__0", "1_.5", "1._5", "1_e5", "1e_5", "0x1_p0", "_"}) {
    EXPECT_FALSE(parse_go_float(s).has_value()) << s;
  }
}

TEST(GoFloatTest, UnderflowIsNotAnError) {
  auto tiny = parse_go_float("1e-400");
  ASSERT_TRUE(tiny.has_value());
  EXPECT_EQ(*tiny, 0.0);
  auto denormal = parse_go_float("1e-310");
  ASSERT_TRUE(denormal.has_value());
  EXPECT_GT(*denormal, 0.0);
}

}  // namespace
}  // namespace caveman::compress
