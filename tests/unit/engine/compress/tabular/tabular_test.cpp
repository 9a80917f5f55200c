#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compress/compressors.h"
#include "compress/tabular/csv_write.h"
#include "compress/tabular/table_parse.h"

namespace caveman::compress {
namespace {

std::optional<std::string> run(std::string_view input, std::string_view query = "") {
  auto out = make_tabular_compressor()->compress(input, query);
  if (!out) return std::nullopt;
  return out->bytes;
}

std::size_t count(std::string_view hay, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t p = hay.find(needle); p != std::string_view::npos; p = hay.find(needle, p + 1))
    ++n;
  return n;
}

// Rows alike but for their id. The note cell holds a blank: a selector's literal text is
// counted in whole unchanged words, so a row of one blank-free word is never hidden.
std::vector<std::string> uniform_rows(int n) {
  std::vector<std::string> rows = {"id,state,region,note"};
  for (int i = 1; i <= n; ++i) rows.push_back(std::to_string(i) + ",ok,emea,nightly rotation");
  return rows;
}

std::string csv(const std::vector<std::string>& rows, std::string_view eol = "\n",
                bool trailing = true) {
  std::string out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) out += eol;
    out += rows[i];
  }
  if (trailing) out += eol;
  return out;
}

TEST(CsvWriteTest, GoQuotingRules) {
  EXPECT_FALSE(csv_field_needs_quotes("", ','));
  EXPECT_FALSE(csv_field_needs_quotes("plain", ','));
  EXPECT_TRUE(csv_field_needs_quotes("a,b", ','));
  EXPECT_FALSE(csv_field_needs_quotes("a,b", '\t'));
  EXPECT_TRUE(csv_field_needs_quotes("a\tb", '\t'));
  EXPECT_TRUE(csv_field_needs_quotes("say \"x\"", ','));
  EXPECT_TRUE(csv_field_needs_quotes("line\nbreak", ','));
  EXPECT_TRUE(csv_field_needs_quotes("cr\r", ','));
  EXPECT_TRUE(csv_field_needs_quotes(" leading", ','));
  EXPECT_TRUE(csv_field_needs_quotes("\xc2\xa0nbsp", ','));  // U+00A0 is a space
  EXPECT_FALSE(csv_field_needs_quotes("trailing ", ','));
  EXPECT_TRUE(csv_field_needs_quotes("\\.", ','));
  EXPECT_EQ(csv_record({"a", "b,c", "say \"x\"", ""}, ',', false), "a,\"b,c\",\"say \"\"x\"\"\",");
  EXPECT_EQ(csv_record({"l1\nl2", "x\ry"}, ',', true), "\"l1\r\nl2\",\"xy\"");
  EXPECT_EQ(csv_record({"l1\nl2"}, ',', false), "\"l1\nl2\"");
}

TEST(TabularTest, ElidesUniformRowsBehindASelector) {
  std::vector<std::string> rows = uniform_rows(20);
  auto out = run(csv(rows));
  ASSERT_TRUE(out);
  std::string expected = csv({rows[0], rows[1], rows[2], rows[3]});
  expected += "… 15 rows matching \"{n},ok,emea,nightly rotation\" elided (caveman) …\n";
  expected += rows[19] + "\n" + rows[20] + "\n";
  EXPECT_EQ(*out, expected);
}

TEST(TabularTest, DeclinesSmallTablesAndNonTables) {
  EXPECT_FALSE(run(csv(uniform_rows(10))));  // 11 rows < 12
  EXPECT_FALSE(run("not,a\n\"table\n"));
  EXPECT_FALSE(run("plain prose without any delimiter\n"));
}

TEST(TabularTest, ReentryGuard) {
  auto out = run(csv(uniform_rows(20)));
  ASSERT_TRUE(out);
  EXPECT_FALSE(run(*out));
}

TEST(TabularTest, KeepsProblemRows) {
  std::vector<std::string> rows = uniform_rows(20);
  rows[10] = "10,denied,emea,nightly rotation";
  auto out = run(csv(rows));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("\n10,denied,emea,nightly rotation\n"), std::string::npos) << *out;
  EXPECT_NE(out->find("rows matching"), std::string::npos) << *out;
}

// A release list: nightly builds dominate; the few stable releases break the shape
// (no "-dev." part, fractional seconds) and are kept, the nightlies are elided.
TEST(TabularTest, KeepsRowsThatBreakTheDominantShape) {
  std::vector<std::string> rows = {"version,published_utc,channel"};
  for (int i = 1; i <= 60; ++i) {
    rows.push_back("5.9.0-dev.202506" + std::to_string(10 + i % 20) + ",2025-06-" +
                   std::to_string(10 + i % 20) + "T07:16:10+00:00,nightly build");
  }
  rows[20] = "5.6.3,2024-10-23T19:09:23.863000+00:00,nightly build";
  rows[41] = "7.0.2,2026-07-08T17:37:37.109000+00:00,nightly build";
  auto out = run(csv(rows));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("\n5.6.3,2024-10-23T19:09:23.863000+00:00,nightly build\n"),
            std::string::npos)
      << *out;
  EXPECT_NE(out->find("\n7.0.2,2026-07-08T17:37:37.109000+00:00,nightly build\n"),
            std::string::npos)
      << *out;
  EXPECT_NE(out->find("rows matching"), std::string::npos);
}

// Without a dominant shape (twelve formats, none above 10% of the rows) the rule keeps
// nothing: otherwise every row would count as a minority and nothing would be elided.
TEST(TabularTest, NoDominantShapeNoMinorityRule) {
  const std::string seps = ".-/:+~=;@%^!";
  std::vector<std::string> rows = {"id,state,region,note"};
  for (int i = 0; i < 60; ++i) {
    rows.push_back(std::to_string(i) + seps[static_cast<std::size_t>(i) % seps.size()] +
                   "7,ok,emea,nightly rotation");
  }
  auto out = run(csv(rows));
  ASSERT_TRUE(out);
  EXPECT_EQ(count(*out, "rows matching"), 1u) << *out;
}

TEST(TabularTest, KeepsNumericExtremes) {
  std::vector<std::string> rows = {"id,latency,region,note"};
  for (int i = 1; i <= 20; ++i) {
    rows.push_back("r" + std::to_string(i) + "," + std::to_string(100 + i) +
                   ",emea,nightly rotation");
  }
  rows[9] = "r9,5,emea,nightly rotation";      // minimum
  rows[12] = "r12,900,emea,nightly rotation";  // maximum
  auto out = run(csv(rows));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("\nr9,5,emea,nightly rotation\n"), std::string::npos) << *out;
  EXPECT_NE(out->find("\nr12,900,emea,nightly rotation\n"), std::string::npos) << *out;
  EXPECT_NE(out->find("rows matching"), std::string::npos) << *out;
}

TEST(TabularTest, ExtremesNeedSeventyPercentNumericRows) {
  // 13 of 20 latency cells are numbers (65%): the column is not numeric, so its extremes
  // in the middle are not kept. One more number (70%) makes it numeric.
  auto make = [](int numeric) {
    std::vector<std::string> rows = {"host,latency,note"};
    for (int i = 1; i <= 20; ++i) {
      bool number = i <= numeric;
      std::string v = number ? std::to_string(100 + i) : "n/a";
      if (i == 10) v = "1";
      if (i == 11) v = "999";
      rows.push_back("web," + v + ",nightly rotation");
    }
    return csv(rows);
  };
  auto below = run(make(13));
  ASSERT_TRUE(below);
  EXPECT_EQ(below->find("web,999,"), std::string::npos) << *below;
  auto at = run(make(14));
  ASSERT_TRUE(at);
  EXPECT_NE(at->find("\nweb,1,nightly rotation\n"), std::string::npos) << *at;
  EXPECT_NE(at->find("\nweb,999,nightly rotation\n"), std::string::npos) << *at;
}

// Two kappa rows, so neither is rare: without the query a selector hides them with the rest.
TEST(TabularTest, QueryKeepsMatchingRow) {
  std::vector<std::string> rows = {"id,state,region,notes"};
  for (int i = 1; i <= 20; ++i) {
    rows.push_back(std::to_string(i) + ",ok,emea,alpha beta gamma delta epsilon zeta eta theta");
  }
  rows[8] = "8,ok,emea,alpha beta gamma delta epsilon zeta eta kappa";
  rows[12] = "12,ok,emea,alpha beta gamma delta epsilon zeta eta kappa";
  auto plain = run(csv(rows));
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->find("kappa"), std::string::npos) << *plain;
  auto q = run(csv(rows), "kappa");
  ASSERT_TRUE(q);
  EXPECT_NE(q->find("\n" + rows[8] + "\n"), std::string::npos) << *q;
  EXPECT_NE(q->find("\n" + rows[12] + "\n"), std::string::npos) << *q;
}

TEST(TabularTest, CrlfAndNoTrailingNewline) {
  std::vector<std::string> rows = uniform_rows(20);
  auto out = run(csv(rows, "\r\n", /*trailing=*/false));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("\" elided (caveman) …\r\n"), std::string::npos) << *out;
  EXPECT_EQ(out->substr(out->size() - rows[20].size()), rows[20]);
}

TEST(TabularTest, MixedLineEndingsUseTheMajority) {
  std::vector<std::string> rows = uniform_rows(20);
  std::string input;
  for (std::size_t i = 0; i < rows.size(); ++i) input += rows[i] + (i % 3 == 0 ? "\r\n" : "\n");
  auto out = run(input);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->find('\r'), std::string::npos);
  std::string crlf_major;
  for (std::size_t i = 0; i < rows.size(); ++i)
    crlf_major += rows[i] + (i % 3 == 0 ? "\n" : "\r\n");
  out = run(crlf_major);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->find("region\n"), std::string::npos);
  EXPECT_NE(out->find("\r\n1,ok,emea,nightly rotation\r\n"), std::string::npos);
}

TEST(TabularTest, KeptRowsAreCopiedVerbatim) {
  std::vector<std::string> rows = uniform_rows(20);
  rows[1] = "\"1\",\"ok\",emea,nightly rotation";  // unnecessary quotes survive as written
  auto out = run(csv(rows));
  ASSERT_TRUE(out);
  EXPECT_EQ(out->find(rows[1]), rows[0].size() + 1);
}

TEST(TabularTest, MarkdownTable) {
  std::vector<std::string> rows = {"| id | state |", "|----|-------|"};
  for (int i = 1; i <= 20; ++i) rows.push_back("| " + std::to_string(i) + "  | ok    |");
  auto out = run(csv(rows));
  ASSERT_TRUE(out);
  std::string expected = csv({rows[0], rows[1], rows[2], rows[3], rows[4]});
  expected += "… 15 rows matching \"| {n}  | ok    |\" elided (caveman) …\n";
  expected += rows[20] + "\n" + rows[21] + "\n";
  EXPECT_EQ(*out, expected);
}

TEST(TabularTest, CommentedTsvKeepsPreludeAndComments) {
  std::string in = "# zone table\n#codes\tcoordinates\tTZ\tcomments\n";
  for (int i = 0; i < 30; ++i) {
    in += "AQ\t-6617+11031\tAntarctica/Casey";
    if (i >= 15) in += "\tCasey station";
    in += "\n";
    if (i == 20) in += "# mid comment\n";
  }
  in += "#@AQ\tAntarctica/\n";
  auto out = run(in);
  ASSERT_TRUE(out);
  EXPECT_EQ(out->rfind("# zone table\n#codes\tcoordinates\tTZ\tcomments\nAQ\t", 0), 0u);
  EXPECT_NE(out->find("\n# mid comment\n"), std::string::npos);
  EXPECT_NE(out->find("\n#@AQ\tAntarctica/\n"), std::string::npos);
  // A run ends at a comment line, and a selector covers rows of one shape only.
  EXPECT_NE(out->find("rows matching \"AQ\t-6617+11031\tAntarctica/Casey\" elided (caveman) …\n"),
            std::string::npos)
      << *out;
  EXPECT_NE(out->find("rows matching \"AQ\t-6617+11031\tAntarctica/Casey\tCasey station\" elided "
                      "(caveman) …\n# mid comment\n"),
            std::string::npos)
      << *out;
}

TEST(TabularTest, DeterministicAndIdempotent) {
  std::vector<std::string> rows = {"host,status,latency_ms,note"};
  for (int i = 0; i < 500; ++i) {
    rows.push_back("web-" + std::to_string(i % 9) + "," + (i % 50 == 0 ? "FAILED" : "ok") + "," +
                   std::to_string(20 + (i * 37) % 90) + ",nightly probe");
  }
  std::string input = csv(rows);
  auto a = run(input);
  auto b = run(input);
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(count(*a, ",FAILED,"), 10u);  // failure rows are never hidden
  EXPECT_FALSE(run(*a));  // second pass: re-entry guard, so the engine passes it through
}

TEST(TabularTest, MalformedAndHugeInputs) {
  std::string big(64u << 20, 'z');
  EXPECT_FALSE(run(big));
  std::string bad = csv(uniform_rows(20));
  bad[30] = '"';
  EXPECT_FALSE(run(bad));
}

}  // namespace
}  // namespace caveman::compress
