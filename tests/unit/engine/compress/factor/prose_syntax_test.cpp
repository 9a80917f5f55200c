#include "compress/factor/prose_syntax.h"

#include <gtest/gtest.h>

#include "compress/factor/block_syntax.h"
#include "compress/factor/expand.h"

namespace caveman::compress::factor {
namespace {

TEST(ProseSyntaxTest, HeadersReadBackAsWritten) {
  std::string text = write_prose_header({40, 78});
  EXPECT_EQ(text,
            "[40 lines of text wrapped at 78 columns, a paragraph per line: break a longer line "
            "at its last space within 78 columns, again for the rest; each piece keeps its "
            "indentation]");
  ASSERT_TRUE(could_be_prose_header(text));
  std::optional<ProseHeader> back = parse_prose_header(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->lines, 40u);
  EXPECT_EQ(back->width, 78u);
  EXPECT_TRUE(contains_block("x\n" + text + "\n"));
  // The two widths must agree; anything else is prose, not a header.
  std::string odd = text;
  odd.replace(odd.find("within 78"), 9, "within 77");
  EXPECT_EQ(parse_prose_header(odd), std::nullopt);
  EXPECT_EQ(parse_prose_header(text + " "), std::nullopt);
}

TEST(ProseSyntaxTest, RefillBreaksAtTheLastSpaceThatFits) {
  EXPECT_EQ(refill("   aaa bbb ccc", 10), (std::vector<std::string>{"   aaa bbb", "   ccc"}));
  EXPECT_EQ(refill("   aaa bbb", 10), (std::vector<std::string>{"   aaa bbb"}));
  // Columns are code points: "é" is one column, two bytes.
  EXPECT_EQ(refill("éééé ééé éé", 8), (std::vector<std::string>{"éééé ééé", "éé"}));
  // A word longer than the width stays whole on its own line.
  EXPECT_EQ(refill("ab " + std::string(12, 'x') + " cd", 8),
            (std::vector<std::string>{"ab", std::string(12, 'x') + " cd"}));
}

TEST(ProseSyntaxTest, ALongRowIsFilledInLinearTime) {
  std::string row;
  for (int i = 0; i < 400000; ++i) row += "ab ";
  row += "end";
  std::vector<std::string> lines = refill(row, 40);
  ASSERT_EQ(lines.size(), 400001u / 13 + 1);
  EXPECT_EQ(lines.front(), "ab ab ab ab ab ab ab ab ab ab ab ab ab");
  EXPECT_EQ(lines.back().substr(lines.back().size() - 3), "end");
}

TEST(ProseSyntaxTest, ABlockCutShortIsNoView) {
  // One row making two lines, where the header states three (the final line break is a row).
  EXPECT_EQ(expand_blocks(write_prose_header({3, 10}) + "\n   aaa bbb ccc"), std::nullopt);
  EXPECT_EQ(expand_blocks(write_prose_header({3, 10}) + "\n   aaa bbb ccc\n"), "   aaa bbb\n   ccc\n");
  EXPECT_EQ(expand_blocks(write_prose_header({3, 10}) + "\n   aaa bbb ccc\nddd"),
            "   aaa bbb\n   ccc\nddd");
}

}  // namespace
}  // namespace caveman::compress::factor
