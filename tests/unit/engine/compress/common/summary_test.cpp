#include "compress/common/summary.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "json/json.h"

namespace caveman::compress {
namespace {

Fields f(std::initializer_list<std::pair<std::string, std::string>> kv) { return Fields(kv); }

// The original's worked examples of docs/spec/markers.md#summary, verbatim.
TEST(SummaryTest, E3Vectors) {
  EXPECT_EQ(
      summarize({f({{"state", "charged"}, {"id", "1"}}), f({{"state", "charged"}, {"id", "2"}}),
                 f({{"state", "charged"}, {"id", "3"}})},
                0),
      "all state=charged; range id=1..3");
  EXPECT_EQ(summarize({f({{"state", "charged"}, {"region", "emea"}}),
                       f({{"state", "refunded"}, {"region", "emea"}}),
                       f({{"state", "charged"}, {"region", "emea"}})},
                      0),
            "all region=emea; state: charged×2 refunded×1");
  EXPECT_EQ(summarize({f({{"state", "charged"}, {"note", "retry"}}), f({{"state", "charged"}}),
                       f({{"state", "charged"}})},
                      0),
            "all state=charged; note: retry×1 absent×2");
  std::vector<Fields> six;
  for (std::string s : {"a", "b", "c", "d", "e", "f"})
    six.push_back(f({{"state", s}, {"region", "emea"}}));
  EXPECT_EQ(summarize(six, 0), "all region=emea; state: 6 distinct, a..f");
  EXPECT_EQ(summarize({f({{"delivery_id", "dlv-2000"}}), f({{"delivery_id", "dlv-2001"}}),
                       f({{"delivery_id", "dlv-2002"}}), f({{"delivery_id", "dlv-2003"}})},
                      0),
            "delivery_id: dlv-2000..dlv-2003 all 4 present");
  EXPECT_EQ(summarize({f({{"delivery_id", "dlv-2000"}}), f({{"delivery_id", "dlv-2001"}}),
                       f({{"delivery_id", "dlv-2003"}}), f({{"delivery_id", "dlv-2004"}})},
                      0),
            "delivery_id: 4 distinct, dlv-2000..dlv-2004");
  EXPECT_EQ(summarize({f({{"seq", "n-8"}}), f({{"seq", "n-9"}}), f({{"seq", "n-10"}})}, 0),
            "seq: 3 distinct, n-10..n-9");
  EXPECT_EQ(
      summarize({f({{"amount", "5.00"}}), f({{"amount", "199.90"}}), f({{"amount", "12.30"}})}, 0),
      "range amount=5.00..199.90");
  EXPECT_EQ(summarize({f({{"delta", "-3"}}), f({{"delta", "1e2"}}), f({{"delta", "0"}})}, 0),
            "range delta=-3..1e2");
  EXPECT_EQ(summarize({f({{"state", "absent"}}), f({{"state", "charged"}})}, 0), "");
  EXPECT_EQ(summarize({f({{"api_key", "k1"}, {"state", "charged"}}),
                       f({{"api_key", "k2"}, {"state", "charged"}}),
                       f({{"api_key", "k3"}, {"state", "charged"}})},
                      0),
            "all state=charged");
  EXPECT_EQ(summarize({f({{"state", "charged"}})}, 0), "");
}

TEST(SummaryTest, UnitWithoutFieldsDisablesSummary) {
  EXPECT_EQ(summarize({f({{"a", "1"}}), Fields{}, f({{"a", "1"}})}, 0), "");
}

TEST(SummaryTest, CredentialNamesNeverSummarised) {
  for (std::string name : {"client_secret", "Password", "auth_token", "apiKey", "api-key",
                           "Authorization", "credentials", "set_cookie", "session_id"}) {
    EXPECT_EQ(summarize({f({{name, "x"}}), f({{name, "x"}})}, 0), "") << name;
  }
}

TEST(SummaryTest, UnusableConstantYieldsNothing) {
  // A constant value that is unusable gives nothing at all (no enum/coverage fallback).
  std::string long_value(41, 'v');
  EXPECT_EQ(summarize({f({{"a", long_value}}), f({{"a", long_value}})}, 0), "");
  EXPECT_EQ(summarize({f({{"a", "has caveman"}}), f({{"a", "has caveman"}})}, 0), "");
  EXPECT_EQ(summarize({f({{"a", "x\x01y"}}), f({{"a", "x\x01y"}})}, 0), "");
  EXPECT_EQ(summarize({f({{"a", "bad\xff"}}), f({{"a", "bad\xff"}})}, 0), "");
  EXPECT_EQ(summarize({f({{"a", "x…"}}), f({{"a", "x…"}})}, 0), "");
  std::string forty(40, 'v');
  EXPECT_EQ(summarize({f({{"a", forty}}), f({{"a", forty}})}, 0), "all a=" + forty);
}

TEST(SummaryTest, LongNamesSkipped) {
  std::string name(33, 'n');
  EXPECT_EQ(summarize({f({{name, "x"}}), f({{name, "x"}})}, 0), "");
  std::string ok(32, 'n');
  EXPECT_EQ(summarize({f({{ok, "x"}}), f({{ok, "x"}})}, 0), "all " + ok + "=x");
}

TEST(SummaryTest, EnumerationRules) {
  // Values with spaces are not enum-usable: no enumeration, no coverage.
  EXPECT_EQ(summarize({f({{"s", "a b"}}), f({{"s", "a b"}}), f({{"s", "c"}})}, 0), "");
  // Identifier lists (every bucket 1) are not enumerations.
  EXPECT_EQ(summarize({f({{"k", "x"}}), f({{"k", "y"}})}, 0), "k: 2 distinct, x..y");
  // Ties keep first-appearance order; counts descending.
  EXPECT_EQ(summarize({f({{"s", "b"}}), f({{"s", "a"}}), f({{"s", "a"}}), f({{"s", "b"}}),
                       f({{"s", "c"}}), f({{"s", "c"}}), f({{"s", "c"}})},
                      0),
            "s: c×3 b×2 a×2");
  // 4 values + absent = 5 buckets: still an enumeration; 5 values + absent: not.
  std::vector<Fields> units;
  for (std::string v : {"a", "a", "b", "c", "d"}) units.push_back(f({{"s", v}, {"k", "1"}}));
  units.push_back(f({{"k", "1"}}));
  EXPECT_EQ(summarize(units, 0), "all k=1; s: a×2 b×1 c×1 d×1 absent×1");
  units.insert(units.begin(), f({{"s", "e"}, {"k", "1"}}));
  EXPECT_EQ(summarize(units, 0), "all k=1; s: 5 distinct, a..e, absent×1");
}

TEST(SummaryTest, NumericFieldMissingSomewhereIsCoverageNotRange) {
  EXPECT_EQ(
      summarize({f({{"n", "1"}, {"k", "z"}}), f({{"n", "2"}, {"k", "z"}}), f({{"k", "z"}})}, 0),
      "all k=z; n: 2 distinct, 1..2, absent×1");
}

TEST(SummaryTest, RangeKeepsOriginalExtremeStrings) {
  EXPECT_EQ(summarize({f({{"v", "1_000"}}), f({{"v", "0x1p-2"}}), f({{"v", "5"}})}, 0),
            "range v=0x1p-2..1_000");
  // Ties: the first occurrence of the extreme wins.
  EXPECT_EQ(summarize({f({{"v", "1.0"}}), f({{"v", "1"}}), f({{"v", "3"}})}, 0), "range v=1.0..3");
  EXPECT_EQ(summarize({f({{"v", "-inf"}}), f({{"v", "2"}}), f({{"v", "Infinity"}})}, 0),
            "range v=-inf..Infinity");
}

TEST(SummaryTest, NanIsNeverInsideARange) {
  EXPECT_EQ(summarize({f({{"v", "1"}}), f({{"v", "NaN"}}), f({{"v", "3"}})}, 0),
            "v: 3 distinct, 1..NaN");
}

TEST(SummaryTest, OnlyFirstOccurrenceOfANameCounts) {
  EXPECT_EQ(summarize({f({{"a", "1"}, {"a", "9"}}), f({{"a", "1"}})}, 0), "all a=1");
}

TEST(SummaryTest, DenseCoverageNeedsSameWidthAndFullSpan) {
  EXPECT_EQ(summarize({f({{"id", "a-08"}}), f({{"id", "a-09"}}), f({{"id", "a-10"}})}, 0),
            "id: a-08..a-10 all 3 present");
  EXPECT_EQ(summarize({f({{"id", "a-8"}}), f({{"id", "a-9"}}), f({{"id", "a-10"}})}, 0),
            "id: 3 distinct, a-10..a-9");
  // Absent units make it bounded.
  EXPECT_EQ(
      summarize({f({{"id", "a-1"}, {"k", "x"}}), f({{"id", "a-2"}, {"k", "x"}}), f({{"k", "x"}})},
                0),
      "all k=x; id: 2 distinct, a-1..a-2, absent×1");
}

TEST(SummaryTest, AtMostTwoCoverageEntries) {
  std::vector<Fields> units;
  for (int i = 0; i < 3; ++i) {
    std::string s = std::to_string(i);
    units.push_back(f({{"a", "a" + s}, {"b", "b" + s}, {"c", "c" + s}}));
  }
  EXPECT_EQ(summarize(units, 0), "a: a0..a2 all 3 present; b: b0..b2 all 3 present");
}

TEST(SummaryTest, BudgetFormula) {
  // budget = min(max(eb/4, 96), eb/2, 160); 160 when eb ≤ 0.
  std::vector<Fields> units = {f({{"aaaaaaaaaa", "1111111111"}, {"bbbbbbbbbb", "2222222222"}}),
                               f({{"aaaaaaaaaa", "1111111111"}, {"bbbbbbbbbb", "2222222222"}})};
  // Render = "all aaaaaaaaaa=1111111111 bbbbbbbbbb=2222222222" (47 bytes).
  EXPECT_EQ(summarize(units, 94), "all aaaaaaaaaa=1111111111 bbbbbbbbbb=2222222222");
  EXPECT_EQ(summarize(units, 93), "all aaaaaaaaaa=1111111111");  // budget 46
  EXPECT_EQ(summarize(units, 50), "all aaaaaaaaaa=1111111111");  // budget 25
  EXPECT_EQ(summarize(units, 48), "");                           // budget 24
  EXPECT_EQ(summarize(units, 0), "all aaaaaaaaaa=1111111111 bbbbbbbbbb=2222222222");
}

TEST(SummaryTest, DropOrder) {
  // weak enum, then range, then bounded coverage, then constant, then dense, then enum.
  std::vector<Fields> units;
  for (int i = 0; i < 6; ++i) {
    std::string s = std::to_string(i);
    units.push_back(f({{"const", "k"},
                       {"enum", i < 4 ? "x" : "y"},
                       {"weak", i % 3 == 0 ? "p" : (i % 3 == 1 ? "q" : "r")},
                       {"dense", "d" + s},
                       {"bounded", i == 5 ? "zz" : "b" + s},
                       {"num", std::to_string(i * 7)}}));
  }
  std::string full = summarize(units, 0);
  EXPECT_EQ(full,
            "all const=k; enum: x×4 y×2; weak: p×2 q×2 r×2; dense: d0..d5 all 6 present; "
            "bounded: 6 distinct, b0..zz; range num=0..35");
  // Full render is 125 bytes. Budget 96 (eb 384): weak and range go (86 bytes left).
  EXPECT_EQ(summarize(units, 384),
            "all const=k; enum: x×4 y×2; dense: d0..d5 all 6 present; bounded: 6 distinct, b0..zz");
  EXPECT_EQ(summarize(units, 120),  // budget 60
            "all const=k; enum: x×4 y×2; dense: d0..d5 all 6 present");
  EXPECT_EQ(summarize(units, 90),  // budget 45
            "enum: x×4 y×2; dense: d0..d5 all 6 present");
  EXPECT_EQ(summarize(units, 60), "enum: x×4 y×2");  // budget 30
  EXPECT_EQ(summarize(units, 20), "");               // budget 10
}

TEST(SummaryTest, LogLineFieldsLogfmt) {
  Fields got = log_line_fields("2026-01-01T00:00:01Z INFO worker=w1 step=3 status=ok");
  EXPECT_EQ(got, (Fields{{"worker", "w1"}, {"step", "3"}, {"status", "ok"}}));
  got = log_line_fields("msg=\"hello world\" a='x y' [k=v] (p=q),r=s {t=u} empty=\"\" b=1]");
  EXPECT_EQ(got, (Fields{{"msg", "hello world"},
                         {"a", "x y"},
                         {"k", "v"},
                         {"p", "q"},
                         {"r", "s"},
                         {"t", "u"},
                         {"b", "1"}}));
  // Keys need a boundary before them; values may contain '='; unclosed quotes are bare.
  got = log_line_fields("xa=1 url=http://h/?q=1 v=\"open");
  EXPECT_EQ(got, (Fields{{"xa", "1"}, {"url", "http://h/?q=1"}, {"v", "\"open"}}));
  got = log_line_fields("path/a=1 foo.bar-baz=2 9x=3");
  EXPECT_EQ(got, (Fields{{"foo.bar-baz", "2"}}));
  got = log_line_fields("a=1\r");
  EXPECT_EQ(got, (Fields{{"a", "1"}}));
}

TEST(SummaryTest, LogLineFieldsCapAt24) {
  std::string line;
  for (int i = 0; i < 30; ++i) line += "k" + std::to_string(i) + "=v ";
  // 24 fields are read; a 25th is returned only to signal "this unit has more".
  EXPECT_EQ(log_line_fields(line).size(), 25u);
}

TEST(SummaryTest, TruncatedUnitsNeverClaimAbsent) {
  // The second unit has more than 24 fields, so "x" may exist beyond what was read: no
  // enumeration or coverage with an absent bucket is stated; constants still are.
  Fields wide;
  for (int i = 0; i < 25; ++i) wide.emplace_back("f" + std::to_string(i), "v");
  Fields a = {{"f0", "v"}, {"x", "1"}};
  Fields b = {{"f0", "v"}, {"x", "1"}};
  EXPECT_EQ(summarize({a, b, wide}, 0), "all f0=v");
  EXPECT_EQ(summarize({a, b, Fields{{"f0", "v"}}}, 0), "all f0=v; x: 1×2 absent×1");
}

TEST(SummaryTest, AmbiguousNamesAndValuesAreQuoted) {
  EXPECT_EQ(summarize({f({{"first name", "Ana Lu"}}), f({{"first name", "Ana Lu"}})}, 0),
            R"(all "first name"="Ana Lu")");
  EXPECT_EQ(summarize({f({{"a=b", "x;"}}), f({{"a=b", "x;"}})}, 0), R"(all "a=b"="x;")");
  EXPECT_EQ(summarize({f({{"k", "\"q"}}), f({{"k", "\"q"}}), f({{"k", "2×3"}})}, 0),
            R"(k: "\"q"×2 "2×3"×1)");
  EXPECT_EQ(summarize({f({{"v", "1."}}), f({{"v", ".5"}})}, 0), R"(range v=".5".."1.")");
  EXPECT_EQ(summarize({f({{"p", "../a"}}), f({{"p", "../b"}})}, 0),
            R"(p: 2 distinct, "../a".."../b")");
  // Plain tokens stay bare (E3 and timestamps with ':' are unaffected).
  EXPECT_EQ(summarize({f({{"t", "10:00:01Z"}}), f({{"t", "10:00:01Z"}})}, 0), "all t=10:00:01Z");
}

TEST(SummaryTest, NamesMustBeUsable) {
  EXPECT_EQ(summarize({f({{"a\x01", "1"}}), f({{"a\x01", "1"}})}, 0), "");
  EXPECT_EQ(summarize({f({{"caveman_x", "1"}}), f({{"caveman_x", "1"}})}, 0), "");
}

TEST(SummaryTest, LogLineFieldsJsonObject) {
  Fields got = log_line_fields(R"(  {"level":"info","n":3,"ok":true,"skip":null,"o":{},"e":""} )");
  EXPECT_EQ(got, (Fields{{"level", "info"}, {"n", "3"}, {"ok", "true"}}));
  // A JSON object with no scalar members falls back to logfmt (none here).
  EXPECT_TRUE(log_line_fields(R"({"o":{"a=1":2}})").empty());
  EXPECT_EQ(log_line_fields(R"({"o":{}} x=1)"), (Fields{{"x", "1"}}));
  // Broken JSON is read as logfmt.
  EXPECT_EQ(log_line_fields("{a=1 b=2}"), (Fields{{"a", "1"}, {"b", "2"}}));
}

TEST(SummaryTest, TableRowFields) {
  Fields got = table_row_fields({" id ", "name", "", "x"}, {"1", " ana ", "z", ""});
  EXPECT_EQ(got, (Fields{{"id", "1"}, {"name", "ana"}}));
}

TEST(SummaryTest, JsonElementFields) {
  auto v = json::parse(R"({"b":1.50,"a":"x","c":false,"d":null,"e":[1],"f":"","g":{"h":1}})");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(json_element_fields(*v), (Fields{{"b", "1.50"}, {"a", "x"}, {"c", "false"}}));
  auto arr = json::parse("[1,2]");
  EXPECT_TRUE(json_element_fields(*arr).empty());
}

TEST(SummaryTest, WorthEliding) {
  EXPECT_TRUE(worth_eliding(3, "", 100, 10));
  EXPECT_FALSE(worth_eliding(2, "", 10, 1000));
  EXPECT_TRUE(worth_eliding(2, "all a=1", 50, 100));
  EXPECT_FALSE(worth_eliding(2, "all a=1", 51, 100));
}

TEST(SummaryTest, ElisionNote) {
  // Issue 36: the note says only what is literally true (no "answer from this view").
  EXPECT_EQ(elision_note("lines"),
            "… caveman: elided lines are not in this view, only the facts their markers state; "
            "one broad caveman_retrieve returns the exact original …");
}

}  // namespace
}  // namespace caveman::compress
