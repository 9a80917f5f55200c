// query.h: every user word becomes a quoted FTS5 string; operators are never live.
#include "query.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "memory.h"

namespace caveman::mem {
namespace {

std::vector<std::string> terms(std::string_view q) {
  auto p = parse_query(q);
  EXPECT_TRUE(p.ok()) << p.status().ToString();
  return p.ok() ? p->terms : std::vector<std::string>{};
}

TEST(ParseQueryTest, SplitsOnNonWordsLowercasesAndDropsStopwords) {
  EXPECT_EQ(terms("How do we run the Billing-API tests?"),
            (std::vector<std::string>{"run", "billing", "api", "tests"}));
  EXPECT_EQ(terms("tests TESTS tests"), (std::vector<std::string>{"tests"}));
  EXPECT_TRUE(terms("what is the ... ?").empty());
}

TEST(ParseQueryTest, Fts5OperatorsAreSeparatorsOrPlainWords) {
  // NOT/OR/NEAR survive only as ordinary lowercase words inside quotes; * " : ( ) ^ vanish.
  EXPECT_EQ(terms("NOT deploy*"), (std::vector<std::string>{"not", "deploy"}));
  EXPECT_EQ(terms("\"unterminated"), (std::vector<std::string>{"unterminated"}));
  EXPECT_EQ(terms("text:secret"), (std::vector<std::string>{"text", "secret"}));
  EXPECT_EQ(terms("NEAR(a b, 3)"), (std::vector<std::string>{"near", "b", "3"}));
  EXPECT_EQ(terms("^start -x +y {col}"), (std::vector<std::string>{"start", "x", "y", "col"}));
  auto p = parse_query("NEAR( NOT \" * : OR AND");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(fts_any(p->terms), "\"near\" OR \"not\"");  // or/and are stopwords
}

TEST(ParseQueryTest, QuotingDoublesInnerQuotes) {
  EXPECT_EQ(fts_quote("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(fts_any({"x", "y"}), "\"x\" OR \"y\"");
  EXPECT_EQ(fts_any({}), "");
}

TEST(ParseQueryTest, CjkRunsBecomeTrigramsOrShortLikeTerms) {
  auto p = parse_query("数据库迁移 前端 x");
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->cjk_grams, (std::vector<std::string>{"数据库", "据库迁", "库迁移"}));
  EXPECT_EQ(p->cjk_short, (std::vector<std::string>{"前端"}));
  EXPECT_EQ(p->terms, (std::vector<std::string>{"x"}));
  auto mixed = parse_query("Redis缓存");
  ASSERT_TRUE(mixed.ok());
  EXPECT_EQ(mixed->terms, (std::vector<std::string>{"redis"}));
  EXPECT_EQ(mixed->cjk_short, (std::vector<std::string>{"缓存"}));
}

TEST(ParseQueryTest, LengthLimitsAndUtf8) {
  EXPECT_TRUE(parse_query(std::string(kMaxQueryChars, 'a')).ok());
  EXPECT_EQ(parse_query(std::string(kMaxQueryChars + 1, 'a')).status().error_code(),
            "cave_invalid_arguments");
  std::string cjk;
  for (int i = 0; i < 342; ++i) cjk += "数";  // 1026 bytes, 342 characters
  EXPECT_FALSE(parse_query(cjk).ok());
  EXPECT_FALSE(parse_query("bad \xC3").ok());
}

TEST(ParseQueryTest, KeepsAtMost64DistinctTerms) {
  std::string q;
  for (int i = 0; i < 100; ++i) q += "w" + std::to_string(i) + " ";
  EXPECT_EQ(terms(q).size(), kMaxQueryTerms);
  EXPECT_EQ(terms(q).front(), "w0");
}

TEST(EscapeLikeTest, EscapesWildcardsAndTheEscape) {
  EXPECT_EQ(escape_like("50%_off\\x"), "50\\%\\_off\\\\x");
  EXPECT_EQ(escape_like("plain"), "plain");
}

TEST(StopwordsTest, OriginalListIsASubsetOfRecallList) {
  for (const char* w : {"a", "the", "with", "why", "which"}) {
    EXPECT_TRUE(is_original_stopword(w)) << w;
    EXPECT_TRUE(is_stopword(w)) << w;
  }
  EXPECT_FALSE(is_original_stopword("we"));
  EXPECT_TRUE(is_stopword("we"));
  EXPECT_FALSE(is_stopword("not"));
  EXPECT_FALSE(is_stopword("deploy"));
}

TEST(ClassifyTest, CjkAndSeparators) {
  EXPECT_EQ(classify(U'数'), CharClass::kCjk);
  EXPECT_EQ(classify(U'カ'), CharClass::kCjk);
  EXPECT_EQ(classify(U'한'), CharClass::kCjk);
  EXPECT_EQ(classify(U'é'), CharClass::kWord);
  EXPECT_EQ(classify(U'，'), CharClass::kSeparator);
  EXPECT_EQ(classify(U'—'), CharClass::kSeparator);
  EXPECT_TRUE(has_cjk("abc 数据"));
  EXPECT_FALSE(has_cjk("café"));
}

}  // namespace
}  // namespace caveman::mem
