#include "compress/tabular/table_parse.h"

#include <gtest/gtest.h>

#include <string>

namespace caveman::compress {
namespace {

TEST(TableParseTest, StrictCsv) {
  auto t = parse_table("a,b\n1,\"x,y\"\n\n2,\"he said \"\"hi\"\"\"\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->format, Table::Format::kCsv);
  ASSERT_EQ(t->rows.size(), 3u);
  EXPECT_EQ(t->rows[1][1], "x,y");
  EXPECT_EQ(t->rows[2][1], "he said \"hi\"");
  EXPECT_EQ(t->width, 2u);
  EXPECT_TRUE(t->trailing_newline);
  EXPECT_FALSE(t->header_in_prelude);
  // Spans exclude the line ending and index the input.
  EXPECT_EQ(t->spans[1], (std::pair<std::size_t, std::size_t>{4, 11}));
}

TEST(TableParseTest, RejectsMalformedCsv) {
  EXPECT_FALSE(parse_table("a,b\n1,2,3\n"));          // unequal width
  EXPECT_FALSE(parse_table("a,b\n1,x\"y\n"));         // bare quote
  EXPECT_FALSE(parse_table("a,b\n1,\"open\n"));       // EOF inside quotes
  EXPECT_FALSE(parse_table("a,b\n1,\"x\"y\n"));       // text after a closing quote
  EXPECT_FALSE(parse_table("just one field\nline\n"));
  EXPECT_FALSE(parse_table("a,b\n\xff,2\n"));         // invalid UTF-8
  EXPECT_FALSE(parse_table(""));
}

TEST(TableParseTest, TsvAndCrlf) {
  auto t = parse_table("a\tb\tc,d\r\n1\t2\t3\r\n4\t5\t6\r\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->format, Table::Format::kTsv);
  EXPECT_TRUE(t->crlf);
  EXPECT_EQ(t->rows[0][2], "c,d");
  // A first cell that is empty keeps its TAB for delimiter sniffing.
  auto e = parse_table("\n\tb\n1\t2\n");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->delimiter, '\t');
  EXPECT_EQ(e->rows[0][0], "");
  // As many commas as TABs on the first line: comma-delimited.
  auto c = parse_table("a\tb,c\n1\t2,3\n");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->delimiter, ',');
}

TEST(TableParseTest, Markdown) {
  auto t = parse_table("| a | b |\n|---|:---:|\n| 1 | 2 |\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->format, Table::Format::kMarkdown);
  EXPECT_EQ(t->header_rows(), 2u);
  EXPECT_EQ(t->width, 2u);
  EXPECT_FALSE(parse_table("| a | b |\n| x | y |\n| 1 | 2 |\n"));  // no separator row
}

TEST(TableParseTest, CommentedTableWithHeaderCommentAndRaggedRows) {
  std::string in =
      "# tz table\n"
      "#\n"
      "#codes\tcoordinates\tTZ\tcomments\n"
      "AD\t+4230+00131\tEurope/Andorra\n"
      "AE,OM\t+2518+05518\tAsia/Dubai\tCrozet\n"
      "# a comment between rows\n"
      "AF\t+3431+06912\tAsia/Kabul\n"
      "AR\t-3436-05827\tAmerica/Argentina/Buenos_Aires\tBuenos Aires (BA, CF)\n"
      "#@AQ\tAntarctica/\n";
  auto t = parse_table(in);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->format, Table::Format::kTsv);
  EXPECT_TRUE(t->header_in_prelude);
  EXPECT_EQ(t->prelude, "# tz table\n#\n#codes\tcoordinates\tTZ\tcomments\n");
  ASSERT_EQ(t->rows.size(), 5u);
  EXPECT_EQ(t->rows[0], (std::vector<std::string>{"codes", "coordinates", "TZ", "comments"}));
  EXPECT_EQ(t->rows[1].size(), 3u);
  EXPECT_EQ(t->width, 4u);
  ASSERT_EQ(t->comments.size(), 2u);
  EXPECT_EQ(t->comments[0].before_row, 3u);
  EXPECT_EQ(in.substr(t->comments[0].begin, t->comments[0].end - t->comments[0].begin),
            "# a comment between rows");
  EXPECT_EQ(t->comments[1].before_row, 5u);
  EXPECT_EQ(in.substr(t->spans[0].first, t->spans[0].second - t->spans[0].first),
            "#codes\tcoordinates\tTZ\tcomments");
}

TEST(TableParseTest, HeaderCommentDecidesTheDelimiter) {
  // The first row alone ("AE,OM<TAB>x": one TAB, one comma) would read as CSV.
  auto t = parse_table("# t\n#codes\tname\nAE,OM\tx\nAD\ty\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->delimiter, '\t');
  EXPECT_EQ(t->rows[1][0], "AE,OM");
}

TEST(TableParseTest, CommentedTableWithoutHeaderComment) {
  auto t = parse_table("# notes\nname\tvalue\nx\t1\ny\t2\n");
  ASSERT_TRUE(t);
  EXPECT_FALSE(t->header_in_prelude);
  EXPECT_EQ(t->rows[0][0], "name");
}

TEST(TableParseTest, RaggednessIsBoundedAndOnlyForCommentedFiles) {
  // Without a '#' prelude every record must have the header's width.
  EXPECT_FALSE(parse_table("a\tb\tc\n1\t2\n3\t4\t5\n"));
  // With one, rows may omit trailing fields, but at least half must be full width.
  EXPECT_TRUE(parse_table("# c\na\tb\tc\n1\t2\n3\t4\t5\n"));
  EXPECT_FALSE(parse_table("# c\na\tb\tc\n1\t2\n3\t4\n6\t7\n"));
  // A single-field record is never a table row.
  EXPECT_FALSE(parse_table("# c\na\tb\nsolo\n"));
}

TEST(TableParseTest, HugeLinesFailWithoutBlowingUp) {
  // 64 MiB of delimiters would be 64 M fields; the 128-field cap must stop the reader early.
  EXPECT_FALSE(parse_table("a,b\n" + std::string(64u << 20, ',') + "\n"));
  std::string pipes = "|" + std::string(8u << 20, '|') + "|\n";
  EXPECT_FALSE(parse_table(pipes + pipes + pipes));
  auto t = parse_table("#" + std::string(8u << 20, '\t') + "\na\tb\n1\t2\n");
  ASSERT_TRUE(t);
  EXPECT_FALSE(t->header_in_prelude);  // 8 M cells do not name 2 columns
}

}  // namespace
}  // namespace caveman::compress
