// JSON-lines tables (json_lines_view, docs/formats.md "JSON tables"): a run of minified
// objects, one a line, becomes a table whose rows stand for whole lines; lossless.
#include <gtest/gtest.h>

#include <string>

#include "caveman/tokens.h"
#include "compress/factor/expand.h"
#include "compress/factor/json_table.h"
#include "compress/factor/table_syntax.h"

namespace caveman::compress::factor {
namespace {

std::string request_line(int i, int level = 30) {
  return "{\"level\":" + std::to_string(level) + ",\"time\":" + std::to_string(1765100000000 + i) +
         ",\"pid\":7,\"req\":{\"method\":\"GET\",\"url\":\"/api/items/" + std::to_string(i * 37) +
         "\"},\"ms\":" + std::to_string(i % 40) + ",\"msg\":\"request completed\"}";
}

std::string log_of(int n, const std::string& after_line_5 = "") {
  std::string s;
  for (int i = 0; i < n; ++i) {
    s += request_line(i) + "\n";
    if (i == 5 && !after_line_5.empty()) s += after_line_5 + "\n";
  }
  return s;
}

std::optional<std::string> view_of(const std::string& text) {
  auto problem = [](std::string_view l) { return l.find("\"err\"") != std::string_view::npos; };
  std::optional<std::string> view = json_lines_view(text, problem, tokens::default_counter());
  if (view) EXPECT_EQ(expand_blocks(*view).value_or(""), text) << *view;
  return view;
}

TEST(JsonLinesTest, ARunOfObjectLinesBecomesATableWithConstantColumnsStatedOnce) {
  std::optional<std::string> view = view_of(log_of(20));
  ASSERT_TRUE(view);
  EXPECT_TRUE(
      view->starts_with("[JSON table of 20 lines (one minified JSON object per line), "
                        "columns: level = 30, time, pid = 7, req.method = \"GET\", req.url, "
                        "ms, msg = \"request completed\";"))
      << *view;
  EXPECT_NE(view->find("\n[1765100000003,\"/api/items/111\",3]\n"), std::string::npos) << *view;
}

TEST(JsonLinesTest, AProblemLineStaysAsWrittenAndSplitsTheRun) {
  const std::string err =
      "{\"level\":50,\"time\":1,\"pid\":7,\"err\":{\"message\":\"upstream timeout\"}}";
  std::optional<std::string> view = view_of(log_of(30, err));
  ASSERT_TRUE(view);
  EXPECT_NE(view->find("\n" + err + "\n"), std::string::npos) << *view;
  // The six lines before it are too few for a table: they stay as written.
  EXPECT_TRUE(view->starts_with(request_line(0) + "\n")) << *view;
  EXPECT_NE(view->find("[JSON table of 24 lines"), std::string::npos) << *view;
}

TEST(JsonLinesTest, ShortRunsAndOtherTextAreLeftAlone) {
  EXPECT_FALSE(view_of(log_of(7)));
  EXPECT_FALSE(view_of("plain text\nmore text\n"));
  // Spaces inside a line: not minified, so its bytes could not be written back.
  std::string spaced;
  for (int i = 0; i < 12; ++i) spaced += "{\"a\": " + std::to_string(i) + ", \"b\": \"x\"}\n";
  EXPECT_FALSE(view_of(spaced));
}

TEST(JsonLinesTest, TheHeaderReadsBackAsALinesTable) {
  std::optional<std::string> view = view_of(log_of(10));
  ASSERT_TRUE(view);
  std::optional<TableHeader> h = parse_table_header(view->substr(0, view->find('\n')));
  ASSERT_TRUE(h);
  EXPECT_TRUE(h->lines);
  EXPECT_EQ(h->rows, 10u);
  EXPECT_EQ(write_table_header(*h), view->substr(0, view->find('\n')));
}

}  // namespace
}  // namespace caveman::compress::factor
