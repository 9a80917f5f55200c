#include "view_diff.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace caveman::browse {
namespace {

const char* kCheckout =
    "page \"Checkout\"\n"
    "  heading \"Checkout\"\n"
    "  form\n"
    "    [u3] textbox \"Email\" {editable}\n"
    "    [uw] button \"Save order\"\n"
    "  status\n"
    "    text \"Not saved\"";

TEST(ViewDiffTest, ParsesDepthUidAndRole) {
  std::vector<ViewLine> v = parse_view(kCheckout);
  ASSERT_EQ(v.size(), 7u);
  EXPECT_EQ(v[0].depth, 0);
  EXPECT_EQ(v[0].role, "page");
  EXPECT_EQ(v[3].depth, 2);
  EXPECT_EQ(v[3].uid, "u3");
  EXPECT_EQ(v[3].role, "textbox");
  EXPECT_EQ(v[3].text, "[u3] textbox \"Email\" {editable}");
  EXPECT_EQ(v[6].uid, "");
}

TEST(ViewDiffTest, SameViewIsNoChange) {
  std::optional<ViewDiff> d = diff_views(kCheckout, kCheckout, "uw");
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->empty());
  EXPECT_EQ(d->text, "");
}

TEST(ViewDiffTest, ChangedNodesKeepTheirUidAndContext) {
  std::string after =
      "page \"Checkout\"\n  heading \"Checkout\"\n  form\n    [u3] textbox \"Email\" = \"ada@example.com\" {editable}\n"
      "    [uw] button \"Save order\"\n  status\n    text \"Saved order for ada@example.com\"";
  std::optional<ViewDiff> d = diff_views(kCheckout, after, "uw");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->changed, 2);
  EXPECT_EQ(d->added, 0);
  EXPECT_EQ(d->removed, 0);
  EXPECT_EQ(d->text,
            "  form\n"
            "~   [u3] textbox \"Email\" = \"ada@example.com\" {editable}\n"
            ">   [uw] button \"Save order\"\n"
            "  status\n"
            "~   text \"Saved order for ada@example.com\"\n");
}

TEST(ViewDiffTest, AddedAndRemovedNodes) {
  std::string after =
      "page \"Checkout\"\n  heading \"Checkout\"\n  form\n    [u3] textbox \"Email\" {editable}\n"
      "    [uw] button \"Save order\"\n  dialog \"Confirm\"\n    text \"Really save?\"\n    [u9] button \"Yes\"\n";
  std::optional<ViewDiff> d = diff_views(kCheckout, after);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->added, 3);
  EXPECT_EQ(d->removed, 2);
  EXPECT_EQ(d->changed, 0);
  EXPECT_EQ(d->text,
            "- status … 1 more inside\n"
            "+ dialog \"Confirm\"\n"
            "+   text \"Really save?\"\n"
            "+   [u9] button \"Yes\"\n");
}

TEST(ViewDiffTest, SameUidElsewhereIsChangedNotAddedAndRemoved) {
  std::string before = "page \"P\"\n  [u1] button \"A\"\n  list\n    [u2] link \"B\"\n  [u4] button \"C\"";
  std::string after = "page \"P\"\n  [u4] button \"C\" {focused}\n  [u1] button \"A\"\n  list\n    [u2] link \"B\"";
  std::optional<ViewDiff> d = diff_views(before, after);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->changed, 1);
  EXPECT_EQ(d->added + d->removed, 0);
  EXPECT_EQ(d->text, "~ [u4] button \"C\"\n");  // moved; focus is not shown
}

TEST(ViewDiffTest, LongRunsOfRemovedRowsAreCounted) {
  std::string before = "page \"Orders\"\n  table \"Orders\"\n";
  std::string after = before;
  for (int i = 0; i < 10; ++i) {
    std::string row = "    row \"ORD-" + std::to_string(i) + "\"\n      [u" + std::to_string(i + 10) + "] button \"Open\"\n";
    before += row;
    if (i == 4) after += row;
  }
  std::optional<ViewDiff> d = diff_views(before, after);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->removed, 18);
  EXPECT_EQ(d->text,
            "  table \"Orders\"\n"
            "-   row \"ORD-0\" … 1 more inside\n"
            "-   … 3 more like these\n"
            "-   row \"ORD-5\" … 1 more inside\n"
            "-   … 4 more like these\n");
}

TEST(ViewDiffTest, FocusAloneIsNoChange) {
  std::string before = "page \"P\"\n  [u1] textbox \"Name\" {editable}\n  [u2] button \"Go\" {focused}";
  std::string after = "page \"P\" {focused}\n  [u1] textbox \"Name\" {focused,editable}\n  [u2] button \"Go\"";
  EXPECT_TRUE(diff_views(before, after, "u2")->empty());
}

TEST(ViewDiffTest, RemovingOneOfAlikeItemsRemovesThatItem) {
  std::string before =
      "page \"T\"\n  list\n    listitem\n      text \"Write report\"\n    listitem\n      text \"Call Ada\"\n"
      "    listitem\n      text \"Buy milk\"\n  status\n    text \"3 open\"";
  std::string after =
      "page \"T\"\n  list\n    listitem\n      text \"Write report\"\n    listitem\n      text \"Buy milk\"\n"
      "  status\n    text \"2 open\"";
  std::optional<ViewDiff> d = diff_views(before, after);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->removed, 2);
  EXPECT_EQ(d->changed, 1);  // the status text; its container is only context
  EXPECT_EQ(d->text,
            "  list\n"
            "-   listitem … 1 more inside\n"
            "  status\n"
            "~   text \"2 open\"\n");
}

TEST(ViewDiffTest, EveryLineReadsUnderItsOwnAncestors) {
  // A form step replaced: the paragraphs stay, their fields change.
  std::string before = "page \"F\"\n  form\n    paragraph\n      [u1] textbox \"User\"\n    paragraph\n      [u2] textbox \"Pass\"";
  std::string after = "page \"F\"\n  form\n    paragraph\n      [u7] textbox \"Name\"\n    paragraph\n      [u8] combobox \"Plan\"";
  EXPECT_EQ(diff_views(before, after)->text,
            "  form\n"
            "    paragraph\n"
            "-     [u1] textbox \"User\"\n"
            "    paragraph\n"
            "-     [u2] textbox \"Pass\"\n"
            "    paragraph\n"
            "+     [u7] textbox \"Name\"\n"
            "    paragraph\n"
            "+     [u8] combobox \"Plan\"\n");
  std::string retitled = "page \"G\"\n  form\n    paragraph\n      [u1] textbox \"User\"\n    paragraph\n      [u2] textbox \"Pass\"";
  EXPECT_EQ(diff_views(before, retitled)->text, "~ page \"G\"\n");
}

TEST(ViewDiffTest, RandomOutlinesKeepTheFormat) {
  std::mt19937 rng(26);
  const char* texts[] = {"listitem", "row", "text \"a\"", "text \"b\"", "[u1] button \"Go\"", "[u2] link \"x\" {focused}",
                         "heading \"H\"", "[u3] textbox \"T\" = \"v\""};
  auto outline = [&] {
    std::string o = "page \"P\"\n";
    int depth = 1;
    for (int i = 0, n = static_cast<int>(rng() % 30); i < n; ++i) {
      depth = std::max(1, std::min(depth + static_cast<int>(rng() % 3) - 1, 5));
      o += std::string(static_cast<std::size_t>(depth) * 2, ' ') + texts[rng() % 8] + "\n";
    }
    return o;
  };
  for (int round = 0; round < 500; ++round) {
    std::string a = outline(), b = outline();
    EXPECT_TRUE(diff_views(a, a, "u1")->empty());
    std::optional<ViewDiff> d = diff_views(a, b, "u1");
    ASSERT_TRUE(d);
    for (const ViewLine& l : parse_view(d->text)) EXPECT_NE(l.text, "") << d->text;
    std::size_t pos = 0;
    while (pos < d->text.size()) {
      EXPECT_NE(std::string("+-~> ").find(d->text[pos]), std::string::npos) << d->text;
      EXPECT_EQ(d->text[pos + 1], ' ') << d->text;
      pos = d->text.find('\n', pos) + 1;
    }
    EXPECT_EQ(d->text.empty(), d->empty());
  }
}

TEST(ViewDiffTest, DeterministicAndBoundedBySize) {
  std::string a = kCheckout, b = std::string(kCheckout) + "\n  [u77] link \"More\"";
  EXPECT_EQ(diff_views(a, b)->text, diff_views(a, b)->text);
  std::string big_a, big_b;
  for (int i = 0; i < 2100; ++i) {
    big_a += "text \"a" + std::to_string(i) + "\"\n";
    big_b += "text \"b" + std::to_string(i) + "\"\n";
  }
  EXPECT_FALSE(diff_views(big_a, big_b).has_value());
  EXPECT_TRUE(diff_views(big_a, big_a).has_value());
}

}  // namespace
}  // namespace caveman::browse
