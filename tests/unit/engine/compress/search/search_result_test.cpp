#include "compress/search/search_result.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compress/compressors.h"

namespace caveman::compress {
namespace {

std::optional<std::string> run(std::string_view input, std::string_view query = "") {
  auto c = make_search_result_compressor();
  auto out = c->compress(input, query);
  if (!out) return std::nullopt;
  return out->bytes;
}

// n grep hits that all share one vocabulary: "src/app.c:<line>:    return ok;".
std::vector<std::string> same_hits(int n) {
  std::vector<std::string> lines;
  for (int i = 0; i < n; ++i)
    lines.push_back("src/app.c:" + std::to_string(10 + i) + ":    return ok;");
  return lines;
}

std::string join(const std::vector<std::string>& lines, bool trailing = true,
                 std::string_view eol = "\n") {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += eol;
    out += lines[i];
  }
  if (trailing) out += eol;
  return out;
}

// A distinct letters-only word per i, so the redundancy gate sees each line as novel.
std::string unique_word(int i) {
  std::string w = "w";
  do {
    w.push_back(static_cast<char>('a' + i % 26));
    i /= 26;
  } while (i > 0);
  return w + "q";
}

std::size_t count(std::string_view hay, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t p = hay.find(needle); p != std::string_view::npos; p = hay.find(needle, p + 1))
    ++n;
  return n;
}

TEST(SearchHitTest, PrefixForms) {
  EXPECT_EQ(search_hit_text_offset("a/b.c:12:text"), 9u);
  EXPECT_EQ(search_hit_text_offset("a/b.c:12:7:text"), 11u);
  EXPECT_EQ(search_hit_text_offset("./x.py:1:"), 9u);
  EXPECT_FALSE(search_hit_text_offset("a/b.c-12-context line"));
  EXPECT_FALSE(search_hit_text_offset("a/b.c:x:text"));
  EXPECT_FALSE(search_hit_text_offset(":12:text"));
  EXPECT_FALSE(search_hit_text_offset("(paren):12:text"));
  EXPECT_FALSE(search_hit_text_offset("https://example.com/x"));
  // The path may hold at most 240 bytes.
  EXPECT_TRUE(search_hit_text_offset("p" + std::string(240, 'a') + ":1:x"));
  EXPECT_FALSE(search_hit_text_offset("p" + std::string(241, 'a') + ":1:x"));
}

TEST(SearchResultTest, DeclinesShortOrInvalidInput) {
  EXPECT_FALSE(run(join(same_hits(17))));
  std::vector<std::string> lines = same_hits(40);
  lines[20] += "\xff";
  EXPECT_FALSE(run(join(lines)));
}

TEST(SearchResultTest, ElidesRepeatedHitsKeepingHeadAndTail) {
  std::vector<std::string> lines = same_hits(40);
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  std::string expected;
  for (int i = 0; i < 8; ++i) expected += lines[i] + "\n";
  expected +=
      "… 28 search result lines matching \"src/app.c:{n}:    return ok;\" elided (caveman) …\n";
  for (int i = 36; i < 40; ++i) expected += lines[i] + "\n";
  EXPECT_EQ(*out, expected);
}

TEST(SearchResultTest, KeepsKeywordLines) {
  std::vector<std::string> lines = same_hits(40);
  lines[20] = "src/app.c:30:    return ok; // password";
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find(lines[20]), std::string::npos);
  EXPECT_EQ(count(*out, "elided (caveman)"), 2u);
}

TEST(SearchResultTest, KeepsHitsWhoseMatchedTextReportsAProblem) {
  for (std::string word : {"fatal", "exception", "traceback", "failure"}) {
    std::vector<std::string> lines = same_hits(40);
    // Same vocabulary as its neighbours except the problem word: the gate alone would
    // call it represented (10 of 11 tokens contained).
    for (auto& l : lines) l += " alpha beta gamma delta epsilon";
    lines[20] = "src/app.c:30:    return ok; alpha beta gamma delta " + word;
    auto out = run(join(lines));
    ASSERT_TRUE(out) << word;
    EXPECT_NE(out->find(lines[20]), std::string::npos) << word;
  }
}

TEST(SearchResultTest, ProblemWordsMustStandAlone) {
  std::vector<std::string> lines;
  for (int i = 0; i < 40; ++i) {
    lines.push_back("lib/mod.py:" + std::to_string(100 + i) + ":        raise ValueError(\"bad\")");
  }
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  // Head 8 + tail 4 only (the first hit has no newline before it); the rest behind a selector.
  EXPECT_EQ(count(*out, "\nlib/mod.py:"), 11u) << *out;
  EXPECT_EQ(count(*out, "search result lines matching"), 1u) << *out;
}

// Two kappa lines, so neither is rare: without the query a selector hides them with the rest.
TEST(SearchResultTest, QueryKeepsARepresentedLine) {
  std::vector<std::string> lines = same_hits(40);
  for (auto& l : lines) l += " alpha beta gamma delta epsilon zeta eta theta";
  lines[16] = "src/app.c:26:    return ok; alpha beta gamma delta epsilon zeta eta kappa";
  lines[24] = "src/app.c:34:    return ok; alpha beta gamma delta epsilon zeta eta kappa";
  auto plain = run(join(lines));
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->find("kappa"), std::string::npos) << *plain;
  auto with_query = run(join(lines), "kappa");
  ASSERT_TRUE(with_query);
  EXPECT_NE(with_query->find(lines[16] + "\n"), std::string::npos) << *with_query;
  EXPECT_NE(with_query->find(lines[24] + "\n"), std::string::npos) << *with_query;
}

TEST(SearchResultTest, NovelLinesSurviveTheGate) {
  std::vector<std::string> lines = same_hits(40);
  lines[20] = "src/parser.c:7:  tokenize(buffer, length);";
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find(lines[20]), std::string::npos);
}

TEST(SearchResultTest, ShortSeparatorsAreNotWorthAMarker) {
  std::vector<std::string> lines = same_hits(40);
  lines[20] = "--";
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  // No selector states "--" and its neighbours: it stays, between the markers of the two halves.
  EXPECT_NE(out->find("(caveman) …\n--\n… "), std::string::npos) << *out;
  EXPECT_EQ(count(*out, "elided (caveman)"), 2u);
  std::vector<std::string> alone = same_hits(40);
  for (int i = 0; i < 40; ++i) alone[i] = "src/" + unique_word(i) + ".c:1: " + unique_word(i + 100);
  alone[20] = "--";
  auto kept = run(join(alone));
  EXPECT_FALSE(kept);  // every other line is novel; "--" alone is not worth a marker
}

TEST(SearchResultTest, CrlfMarkersAndTrailingNewline) {
  std::vector<std::string> lines = same_hits(40);
  std::vector<std::string> crlf;
  for (auto& l : lines) crlf.push_back(l + "\r");
  auto out = run(join(crlf, /*trailing=*/false));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("… 28 search result lines matching"), std::string::npos) << *out;
  EXPECT_NE(out->find("elided (caveman) …\r\n"), std::string::npos);
  EXPECT_NE(out->back(), '\n');
  auto lf = run(join(lines, /*trailing=*/false));
  ASSERT_TRUE(lf);
  EXPECT_EQ(lf->find('\r'), std::string::npos);
}

TEST(SearchResultTest, MixedLineEndingsKeepEachLinesOwnEnding) {
  std::vector<std::string> lines = same_hits(40);
  for (int i = 0; i < 40; i += 3) lines[i] += "\r";  // CRLF is the minority
  auto out = run(join(lines));
  ASSERT_TRUE(out);
  EXPECT_NE(out->find("… 28 search result lines matching"), std::string::npos) << *out;
  EXPECT_NE(out->find("elided (caveman) …\n"), std::string::npos);
  EXPECT_EQ(out->find("(caveman) …\r"), std::string::npos);
  EXPECT_NE(out->find(lines[0] + "\n"), std::string::npos);  // its own CR survives
  EXPECT_NE(out->find(lines[39] + "\n"), std::string::npos);
}

TEST(SearchResultTest, DeterministicAndIdempotent) {
  std::vector<std::string> lines;
  for (int i = 0; i < 300; ++i) {
    lines.push_back("pkg/f" + std::to_string(i % 7) + ".go:" + std::to_string(i) +
                    ":\treturn fmt.Errorf(\"x %d\", v" + std::to_string(i % 3) + ")");
  }
  std::string input = join(lines);
  auto a = run(input);
  auto b = run(input);
  ASSERT_TRUE(a);
  EXPECT_EQ(*a, *b);
  EXPECT_FALSE(run(*a));  // re-entry guard: the engine passes a second pass through
}

TEST(SearchResultTest, HugeSingleLineDeclines) {
  std::string big(64u << 20, 'a');
  EXPECT_FALSE(run(big));
}

}  // namespace
}  // namespace caveman::compress
