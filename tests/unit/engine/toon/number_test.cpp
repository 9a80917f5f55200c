// Exact canonical numbers (TOON spec §2, §4): digit-string arithmetic, no doubles.
#include "toon/number.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace caveman::toon {
namespace {

std::string canon(std::string_view literal) {
  std::string out;
  NumberForm form = canonical_number(literal, out);
  if (form == NumberForm::kNotNumber) return "<not a number>";
  if (form == NumberForm::kOutOfDomain) return "<out of domain>";
  return out;
}

TEST(ToonNumberTest, PlainDecimalInsideTheCanonicalRange) {
  EXPECT_EQ(canon("0"), "0");
  EXPECT_EQ(canon("42"), "42");
  EXPECT_EQ(canon("-7"), "-7");
  EXPECT_EQ(canon("1.5000"), "1.5");
  EXPECT_EQ(canon("-3.140"), "-3.14");
  EXPECT_EQ(canon("1.0"), "1");
  EXPECT_EQ(canon("1e6"), "1000000");
  EXPECT_EQ(canon("1E+6"), "1000000");
  EXPECT_EQ(canon("2.5e2"), "250");
  EXPECT_EQ(canon("25e-1"), "2.5");
  EXPECT_EQ(canon("3E-02"), "0.03");
  EXPECT_EQ(canon("1e-6"), "0.000001");
  EXPECT_EQ(canon("0.00001230"), "0.0000123");
  EXPECT_EQ(canon("1e20"), "100000000000000000000");
  EXPECT_EQ(canon("123456789012345678901"), "123456789012345678901");  // < 1e21
}

TEST(ToonNumberTest, NegativeZeroBecomesZero) {
  EXPECT_EQ(canon("-0"), "0");
  EXPECT_EQ(canon("-0.0"), "0");
  EXPECT_EQ(canon("-0e1"), "0");
  EXPECT_EQ(canon("0e99999999999999999999"), "0");  // zero whatever the exponent
}

TEST(ToonNumberTest, ExponentFormOutsideTheRangeAsJavaScriptPrintsIt) {
  EXPECT_EQ(canon("1e21"), "1e+21");
  EXPECT_EQ(canon("1e-7"), "1e-7");
  EXPECT_EQ(canon("1.5e-7"), "1.5e-7");
  EXPECT_EQ(canon("-2.50e-10"), "-2.5e-10");
  EXPECT_EQ(canon("1234567890123456789012"), "1.234567890123456789012e+21");
  EXPECT_EQ(canon("1.5e300"), "1.5e+300");
}

TEST(ToonNumberTest, DigitsBeyondDoublePrecisionSurvive) {
  EXPECT_EQ(canon("9007199254740993"), "9007199254740993");
  EXPECT_EQ(canon("0.10000000000000000000000001"), "0.10000000000000000000000001");
  EXPECT_EQ(canon("12345678901234567890.50"), "12345678901234567890.5");
}

TEST(ToonNumberTest, HugeExponentsAreOutOfDomain) {
  EXPECT_EQ(canon("1e1000000000000000"), "1e+1000000000000000");  // 10^15 is the limit
  EXPECT_EQ(canon("1e10000000000000000"), "<out of domain>");
  EXPECT_EQ(canon("1e-10000000000000000"), "<out of domain>");
  // The limit is on the exponent written, after the point moves (fuzz_toon: the JSON reader
  // refused the decoded e+1000000000000006, so the decoded JSON did not re-encode).
  EXPECT_EQ(canon("899999999e999999999999998"), "<out of domain>");
  EXPECT_EQ(canon("0.1e-1000000000000000"), "<out of domain>");
  EXPECT_EQ(canon("10e999999999999999"), "1e+1000000000000000");
}

TEST(ToonNumberTest, RejectsWhatIsNotTheJsonNumberGrammar) {
  for (std::string_view s : {"", "-", "05", "-05", "007", "1.", ".5", "+1", "1e", "1e+", "--1",
                             "0x10", "1_0", "Infinity", "NaN", "1.5.2", "1e5e5", " 1", "1 "}) {
    EXPECT_EQ(canon(s), "<not a number>") << s;
  }
}

// The fast path may only accept literals that are their own canonical form, and must accept
// every canonical literal without an exponent.
TEST(ToonNumberTest, FastCanonicalCheckAgreesWithTheFullRewrite) {
  std::vector<std::string> literals = {"0",
                                       "-0",
                                       "7",
                                       "-7",
                                       "10",
                                       "0.5",
                                       "-0.5",
                                       "0.50",
                                       "1.0",
                                       "05",
                                       "0.000001",
                                       "0.0000001",
                                       "0.0000010",
                                       "1e5",
                                       "123456789012345678901",
                                       "1234567890123456789012",
                                       "123456789012345678901.25",
                                       "-0.0",
                                       "1.",
                                       ".5",
                                       ""};
  const char* pieces[] = {"0", "1", "9", "00", "05", "10"};
  for (const char* a : pieces) {
    for (const char* b : pieces) {
      literals.push_back(std::string(a) + "." + b);
      literals.push_back(std::string("-") + a + "." + b + b);
      literals.push_back(std::string(a) + b);
    }
  }
  for (const std::string& l : literals) {
    std::string full;
    bool fast = is_canonical_number(l);
    bool same = canonical_number(l, full) == NumberForm::kNumber && full == l;
    if (fast) EXPECT_TRUE(same) << l;
    if (same && l.find_first_of("eE") == std::string::npos) EXPECT_TRUE(fast) << l;
  }
}

TEST(ToonNumberTest, NumericLikeMatchesTheQuotingPattern) {
  for (std::string_view s : {"42", "-3.14", "1e-6", "1E5", "05", "007", "-0", "1.5e+10"}) {
    EXPECT_TRUE(is_numeric_like(s)) << s;
  }
  for (std::string_view s : {"", "-", "1.", ".5", "+1", "1e", "abc", "0x1", "1,000", "1 "}) {
    EXPECT_FALSE(is_numeric_like(s)) << s;
  }
}

}  // namespace
}  // namespace caveman::toon
