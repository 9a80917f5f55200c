#include "lint.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "caveman/tokens.h"
#include "support/catalog_fixtures.h"

namespace caveman::shrink {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(Lint, TableHasAHeaderARowPerToolATotalAndTheWorstOffenders) {
  LintReport report = lint_catalog(testing::playwright_catalog(), tokens::default_counter());
  ASSERT_TRUE(report.catalog) << report.note;
  ASSERT_EQ(report.rows.size(), 25u);
  std::vector<std::string> lines = lines_of(report.table());
  ASSERT_GE(lines.size(), 1u + 25u + 1u + 2u + kWorstOffenders);
  EXPECT_EQ(lines[0], "TOOL                             BEFORE      AFTER    RATIO");
  EXPECT_EQ(lines[1].substr(0, 28), "browser_close               ");
  // %-28s %10d %10d %7.1f%%
  EXPECT_EQ(lines[1].size(), 28u + 1 + 10 + 1 + 10 + 1 + 8);
  const std::string& total = lines[26];
  EXPECT_EQ(total.rfind("TOTAL", 0), 0u);
  EXPECT_NE(total.find("(basis: inferred)"), std::string::npos);
  EXPECT_EQ(lines[28], "worst offenders (tokens before shrinking):");
  // The costliest tool of this catalog is browser_take_screenshot.
  EXPECT_EQ(lines[29].rfind("  1. browser_take_screenshot: ", 0), 0u) << lines[29];
  EXPECT_NE(lines[29].find("client-only metadata"), std::string::npos);
}

TEST(Lint, RowsAreRealTokenCounts) {
  const tokens::Counter& counter = tokens::default_counter();
  std::string catalog = testing::chrome_devtools_catalog();
  LintReport report = lint_catalog(catalog, counter);
  ASSERT_TRUE(report.catalog);
  EXPECT_EQ(report.total_before, static_cast<std::int64_t>(counter.count(catalog)));
  std::int64_t before = 0;
  std::int64_t after = 0;
  for (const LintRow& r : report.rows) {
    EXPECT_GT(r.before, r.after) << r.name;
    EXPECT_GT(r.description_tokens, 0) << r.name;
    EXPECT_GT(r.client_only_tokens, 0) << r.name;
    EXPECT_LT(r.description_tokens + r.client_only_tokens, r.before) << r.name;
    before += r.before;
    after += r.after;
  }
  // Rows are per tool; the total is the whole document (brackets and all).
  EXPECT_GE(report.total_before, before);
  EXPECT_LT(report.total_after, report.total_before / 2);
}

TEST(Lint, JsonReport) {
  LintReport report = lint_catalog(testing::playwright_catalog(), tokens::default_counter());
  std::string json = report.to_json();
  EXPECT_EQ(json.rfind("{\"tools\":[{\"name\":\"browser_close\",\"before\":", 0), 0u) << json;
  EXPECT_NE(json.find("\"worst\":[\"browser_take_screenshot\","), std::string::npos);
  EXPECT_NE(json.find("\"basis\":\"inferred\"}"), std::string::npos);
}

TEST(Lint, NotACatalog) {
  LintReport report = lint_catalog("[1,2]", tokens::default_counter());
  EXPECT_FALSE(report.catalog);
  EXPECT_NE(report.note.find("cave_invalid_catalog"), std::string::npos);
}

}  // namespace
}  // namespace caveman::shrink
