// The marker_facts_true checker: true markers pass; a wrong count, a false invariant, an
// unmarked drop or an invented line each fail.
#include "evals/marker_facts.h"

#include <gtest/gtest.h>

#include <string>

#include "evals/summary_facts.h"

namespace caveman::evals {
namespace {

const std::string kLog =
    "2026-01-01T00:00:01Z INFO worker=w1 step=1 status=ok\n"
    "2026-01-01T00:00:02Z INFO worker=w1 step=2 status=ok\n"
    "2026-01-01T00:00:03Z INFO worker=w1 step=3 status=ok\n"
    "2026-01-01T00:00:04Z INFO worker=w1 step=4 status=ok\n"
    "2026-01-01T00:00:05Z INFO worker=w1 step=5 status=ok\n"
    "2026-01-01T00:00:06Z ERROR worker=w1 step=6 status=failed\n";

std::string log_with(const std::string& marker) {
  return "2026-01-01T00:00:01Z INFO worker=w1 step=1 status=ok\n" + marker + "\n" +
         "2026-01-01T00:00:06Z ERROR worker=w1 step=6 status=failed\n";
}

TEST(MarkerFactsTest, TrueLogMarkerPasses) {
  MarkerFacts r = check_marker_facts("log", kLog,
                                     log_with("\xE2\x80\xA6 4 lines elided (caveman): all "
                                              "worker=w1 status=ok; range step=2..5 \xE2\x80\xA6"));
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.markers, 1);
  EXPECT_EQ(r.facts, 3);
}

// A selector marker (docs/formats.md#markers) must be true of every line it stands for.
TEST(MarkerFactsTest, SelectorMarkersAreCheckedLineByLine) {
  MarkerFacts ok = check_marker_facts(
      "log", kLog,
      log_with("\xE2\x80\xA6 4 lines matching \"2026-01-01T00:00:{s} INFO worker=w1 step={n} "
               "status=ok\" elided (caveman) \xE2\x80\xA6"));
  EXPECT_TRUE(ok.failures.empty()) << ok.failures.front();
  EXPECT_EQ(ok.markers, 1);
  MarkerFacts bad = check_marker_facts(
      "log", kLog,
      log_with("\xE2\x80\xA6 4 lines matching \"2026-01-01T00:00:{s} INFO worker=w1 step=2 "
               "status=ok\" elided (caveman) \xE2\x80\xA6"));
  ASSERT_EQ(bad.failures.size(), 1u);
  EXPECT_NE(bad.failures[0].find("selector is false"), std::string::npos) << bad.failures[0];
}

TEST(MarkerFactsTest, WrongCountFalseConstantAndWrongRangeFail) {
  EXPECT_FALSE(check_marker_facts("log", kLog,
                                  log_with("\xE2\x80\xA6 3 lines elided (caveman) \xE2\x80\xA6"))
                   .failures.empty());
  EXPECT_FALSE(check_marker_facts("log", kLog,
                                  log_with("\xE2\x80\xA6 5 lines elided (caveman) \xE2\x80\xA6"))
                   .failures.empty());
  EXPECT_FALSE(check_marker_facts(
                   "log", kLog,
                   log_with("\xE2\x80\xA6 4 lines elided (caveman): all worker=w2 \xE2\x80\xA6"))
                   .failures.empty());
  EXPECT_FALSE(check_marker_facts(
                   "log", kLog,
                   log_with("\xE2\x80\xA6 4 lines elided (caveman): range step=2..9 \xE2\x80\xA6"))
                   .failures.empty());
}

TEST(MarkerFactsTest, UnmarkedDropAndInventedLinesFail) {
  std::string dropped =
      "2026-01-01T00:00:01Z INFO worker=w1 step=1 status=ok\n"
      "2026-01-01T00:00:06Z ERROR worker=w1 step=6 status=failed\n";
  EXPECT_FALSE(check_marker_facts("log", kLog, dropped).failures.empty());
  std::string invented = kLog + "everything is fine\n";
  EXPECT_FALSE(check_marker_facts("log", kLog, invented).failures.empty());
  EXPECT_FALSE(check_marker_facts("code", "x", "x").failures.empty());  // fails closed
}

TEST(MarkerFactsTest, JsonMarkersAreCheckedAgainstElidedElements) {
  std::string in =
      R"({"r":[{"id":1,"s":"ok"},{"id":2,"s":"ok"},{"id":3,"s":"ok"},{"id":4,"s":"ok"},{"id":5,"s":"bad"}]})";
  std::string good =
      R"({"r":[{"id":1,"s":"ok"},{"__caveman_elided__":3,"__caveman_invariants__":"all s=ok; range id=2..4"},{"id":5,"s":"bad"}]})";
  MarkerFacts r = check_marker_facts("json", in, good);
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  EXPECT_EQ(r.markers, 1);
  std::string lying =
      R"({"r":[{"id":1,"s":"ok"},{"__caveman_elided__":3,"__caveman_invariants__":"all s=ok; range id=2..5"},{"id":5,"s":"bad"}]})";
  EXPECT_FALSE(check_marker_facts("json", in, lying).failures.empty());
  std::string miscount = R"({"r":[{"id":1,"s":"ok"},{"__caveman_elided__":2},{"id":5,"s":"bad"}]})";
  EXPECT_FALSE(check_marker_facts("json", in, miscount).failures.empty());
  std::string changed = R"({"r":[{"id":1,"s":"ok"},{"__caveman_elided__":3},{"id":5,"s":"good"}]})";
  EXPECT_FALSE(check_marker_facts("json", in, changed).failures.empty());
}

TEST(MarkerFactsTest, TableRowsAndEnumerations) {
  std::string in =
      "id,state,region\n1,charged,emea\n2,refunded,emea\n3,charged,emea\n4,charged,emea\n5,x,"
      "apac\n";
  std::string good =
      "id,state,region\n1,charged,emea\n"
      "\"\xE2\x80\xA6 3 rows elided (caveman): all region=emea; state: charged\xC3\x97"
      "2 refunded\xC3\x97"
      "1 \xE2\x80\xA6\",,\n"
      "5,x,apac\n";
  MarkerFacts r = check_marker_facts("tabular", in, good);
  EXPECT_TRUE(r.failures.empty()) << r.failures.front();
  std::string wrong_enum =
      "id,state,region\n1,charged,emea\n"
      "\"\xE2\x80\xA6 3 rows elided (caveman): state: charged\xC3\x97"
      "3 \xE2\x80\xA6\",,\n"
      "5,x,apac\n";
  EXPECT_FALSE(check_marker_facts("tabular", in, wrong_enum).failures.empty());
}

TEST(MarkerFactsTest, RepetitionMarkersNeedIdenticalLines) {
  std::string in = "a\nretry\nretry\nretry\nretry\nb\n";
  std::string good = "a\nretry\n\xE2\x80\xA6 caveman: 3 identical lines elided \xE2\x80\xA6\nb\n";
  EXPECT_TRUE(check_marker_facts("repetition", in, good).failures.empty());
  std::string bad = "a\nretry\n\xE2\x80\xA6 caveman: 4 identical lines elided \xE2\x80\xA6\n";
  EXPECT_FALSE(check_marker_facts("repetition", in, bad).failures.empty());
}

TEST(MarkerFactsTest, DiffMarkersMustCoverTheirKindOfLine) {
  std::string in = "@@ -1,5 +1,5 @@\n a\n b\n c\n-d\n+e\n";
  std::string good =
      "@@ -1,5 +1,5 @@\n\xE2\x80\xA6 3 context lines elided (caveman) \xE2\x80\xA6\n-d\n+e\n";
  EXPECT_TRUE(check_marker_facts("diff", in, good).failures.empty());
  std::string bad =
      "@@ -1,5 +1,5 @@\n a\n b\n\xE2\x80\xA6 2 context lines elided (caveman) \xE2\x80\xA6\n+e\n";
  EXPECT_FALSE(check_marker_facts("diff", in, bad).failures.empty());
}

TEST(MarkerFactsTest, SummaryCoverageForms) {
  std::vector<FieldUnit> units = {{{"id", "dlv-2000"}}, {{"id", "dlv-2001"}}, {{"id", "dlv-2002"}}};
  int facts = 0;
  EXPECT_EQ(check_summary_facts("id: dlv-2000..dlv-2002 all 3 present", units, &facts), "");
  EXPECT_EQ(check_summary_facts("id: 3 distinct, dlv-2000..dlv-2002", units, &facts), "");
  EXPECT_NE(check_summary_facts("id: 4 distinct, dlv-2000..dlv-2002", units, &facts), "");
  EXPECT_NE(check_summary_facts("id: dlv-2000..dlv-2003 all 4 present", units, &facts), "");
  EXPECT_EQ(facts, 2);
  EXPECT_EQ(log_line_fields("ts=1 msg='a b' level=info (k=v)").at("msg"), "a b");
  EXPECT_EQ(log_line_fields(R"({"level":"warn","n":3,"x":null})").size(), 2u);
}

}  // namespace
}  // namespace caveman::evals
