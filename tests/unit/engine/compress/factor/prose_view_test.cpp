#include "compress/factor/prose_view.h"

#include <gtest/gtest.h>

#include <iostream>

#include <random>
#include <string>
#include <vector>

#include "caveman/tokens.h"
#include "compress/compressors.h"
#include "compress/factor/block_syntax.h"
#include "compress/factor/expand.h"
#include "compress/factor/prose_syntax.h"
#include "support/corpus.h"
#include "support/corpus_skip.h"

namespace caveman::compress::factor {
namespace {

// The view of `input` (checked: it expands to `input`, is not viewed again and is the same
// bytes on a second run), or `input`.
std::string roundtrip_or_fail(const std::string& input) {
  std::optional<std::string> view = unwrap_view(input);
  if (!view) return input;
  EXPECT_EQ(expand_blocks(*view), input);
  EXPECT_EQ(unwrap_view(*view), std::nullopt) << "a view is viewed again";
  EXPECT_EQ(unwrap_view(input), view) << "not deterministic";
  return *view;
}

// `words` filled greedily to `width` columns behind `indent` spaces, as nroff and fmt do.
std::string fill(const std::vector<std::string>& words, std::size_t width, std::size_t indent) {
  std::string out, line;
  for (const std::string& w : words) {
    if (!line.empty() && indent + columns(line) + 1 + columns(w) > width) {
      out += std::string(indent, ' ') + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + std::string(indent, ' ') + line + "\n";
}

std::vector<std::string> random_words(std::mt19937& rng, std::size_t n) {
  static const char* const kWords[] = {"commit", "the", "log", "of", "reachable", "parents",
                                 "history", "--follow", "git-rev-list(1)", "a", "set",
                                 "command’s", "output", "é", "symmetric", "difference"};
  std::vector<std::string> out;
  for (std::size_t i = 0; i < n; ++i) out.emplace_back(kWords[rng() % std::size(kWords)]);
  return out;
}

// A man page section: a heading, then paragraphs filled to 78 columns at indent 7.
std::string man_section(std::mt19937& rng, int paragraphs) {
  std::string s = "DESCRIPTION\n";
  for (int p = 0; p < paragraphs; ++p) s += fill(random_words(rng, 40 + rng() % 40), 78, 7) + "\n";
  return s + "           $ git log foo bar ^baz\n";
}

TEST(ProseViewTest, FilledParagraphsAreWrittenOnePerLine) {
  std::mt19937 rng(7);
  std::string input = man_section(rng, 12);
  std::string view = roundtrip_or_fail(input);
  ASSERT_NE(view, input);
  EXPECT_NE(view.find(" lines of text wrapped at 78 columns, a paragraph per line: break a "
                      "longer line at its last space within 78 columns, again for the rest; "
                      "each piece keeps its indentation]\nDESCRIPTION\n       "),
            std::string::npos)
      << view;
  // 12 paragraphs, 12 blank lines, the heading and the code line: 26 rows under a header.
  std::size_t rows = 0;
  for (char c : view) rows += c == '\n';
  EXPECT_EQ(rows, 27u) << view;
  EXPECT_NE(view.find("\n           $ git log foo bar ^baz\n"), std::string::npos);
}

TEST(ProseViewTest, HandWrappedLinesStayAsWritten) {
  // Short lines that a greedy fill would have joined: not filled text, nothing to unwrap.
  std::string input;
  for (int i = 0; i < 40; ++i) input += "a short line number " + std::to_string(i) + "\nand more\n";
  EXPECT_EQ(unwrap_view(input), std::nullopt);
}

TEST(ProseViewTest, LinesWiderThanTheFillColumnEndABlock) {
  std::mt19937 rng(11);
  std::string wide = "    " + std::string(120, 'x') + " a line of code wider than the text\n";
  std::string input = man_section(rng, 12) + wide + man_section(rng, 12);
  std::string view = roundtrip_or_fail(input);
  EXPECT_NE(view, input);
  EXPECT_NE(view.find("\n" + wide), std::string::npos) << "the wide line is outside blocks";
}

TEST(ProseViewTest, FewJoinsAreNotWorthAHeader) {
  std::mt19937 rng(3);
  EXPECT_EQ(unwrap_view(fill(random_words(rng, 30), 78, 0)), std::nullopt);
}

TEST(ProseViewTest, GeneratedTextsRoundTripExactly) {
  std::mt19937 rng(2026);
  for (int round = 0; round < 300; ++round) {
    std::string input;
    const std::size_t width = 40 + rng() % 60;
    for (int block = 0, n = 1 + static_cast<int>(rng() % 8); block < n; ++block) {
      switch (rng() % 6) {
        case 0: input += "\n"; break;
        case 1: input += std::string(rng() % 5, ' ') + "code(x,  y);  \n"; break;
        case 2: input += std::string(width + rng() % 40, 'w') + "\n"; break;
        case 3: input += "\t" + fill(random_words(rng, 20), width, 0); break;
        default: input += fill(random_words(rng, 10 + rng() % 60), width, rng() % 9); break;
      }
    }
    if (rng() % 2) input.pop_back();  // no final newline
    roundtrip_or_fail(input);
  }
}

TEST(ProseViewTest, TheTextCompressorOffersTheViewLosslessly) {
  std::mt19937 rng(5);
  std::string input = man_section(rng, 12);
  auto c = make_factored(make_declining_compressor("text"), tokens::default_counter(),
                         FactorViews{.prose = true});
  std::optional<CompressorOutput> out = c->compress(input, "");
  ASSERT_TRUE(out.has_value());
  EXPECT_TRUE(out->lossless_to_model);
  EXPECT_EQ(expand_blocks(out->bytes), input);
  EXPECT_LT(tokens::default_counter().count(out->bytes), tokens::default_counter().count(input));
  EXPECT_EQ(c->compress(out->bytes, ""), std::nullopt) << "compressing a view changes nothing";
}

TEST(ProseViewCorpusTest, CorpusTextsRoundTripExactly) {
  std::size_t seen = 0;
  for (const corpus::CorpusFile& f : corpus::corpus_manifest()) {
    if (f.kind != "text") continue;
    ++seen;
    std::string input = corpus::read_file(f.path);
    std::string view = roundtrip_or_fail(input);
    const std::size_t before = tokens::default_counter().count(input);
    const std::size_t after = tokens::default_counter().count(view);
    EXPECT_LE(after, before + 64) << f.name;
    std::cout << f.name << ": " << input.size() << " -> " << view.size() << " bytes, " << before
              << " -> " << after << " tokens\n";
  }
  if (seen == 0) CAVEMAN_CORPUS_MISSING() << "corpus not found at " << corpus::corpus_dir();
}

}  // namespace
}  // namespace caveman::compress::factor
