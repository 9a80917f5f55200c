#include "json_spans.h"

#include <gtest/gtest.h>

namespace caveman::proxy {
namespace {

TEST(ProxyJsonSpans, RecordsTheByteRangeOfEveryValue) {
  std::string text = R"( {"a": [1, -2.5e3, "x\ny"], "b" : {"c":true,"d":null}, "e":"\u00e9\ud83d\ude00"} )";
  std::optional<JsonDoc> doc = JsonDoc::parse(text);
  ASSERT_TRUE(doc);
  const JsonNode& root = doc->node(doc->root());
  EXPECT_EQ(root.kind, JsonKind::kObject);
  EXPECT_EQ(text.substr(root.begin, root.end - root.begin), text.substr(1, text.size() - 2));
  NodeId a = doc->get(doc->root(), "a");
  ASSERT_TRUE(doc->is(a, JsonKind::kArray));
  const JsonNode& s = doc->node(doc->node(a).items[2]);
  EXPECT_EQ(s.text, "x\ny");
  EXPECT_EQ(text.substr(s.begin, s.end - s.begin), R"("x\ny")");
  EXPECT_EQ(doc->node(doc->node(a).items[1]).text, "-2.5e3");
  EXPECT_EQ(doc->get_string(doc->root(), "e"), "\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_TRUE(doc->is(doc->get(doc->get(doc->root(), "b"), "d"), JsonKind::kNull));
  EXPECT_EQ(doc->get(doc->root(), "missing"), kNoNode);
  EXPECT_EQ(doc->get_string(doc->root(), "a"), "");
}

TEST(ProxyJsonSpans, RejectsMalformedInput) {
  for (const char* bad : {"", "{", "{\"a\":}", "[1,]", "{\"a\":1,}", "\"unterminated", "01", "1.", "-",
                          "{\"a\":1} trailing", "tru", "\"raw\ncontrol\"", "\"bad \\q escape\"",
                          "{'single':1}", "[1 2]"}) {
    EXPECT_FALSE(JsonDoc::parse(bad)) << bad;
  }
  std::string deep(300, '[');
  deep += std::string(300, ']');
  EXPECT_FALSE(JsonDoc::parse(deep));  // depth cap, not a stack overflow
  std::string ok(200, '[');
  ok += std::string(200, ']');
  EXPECT_TRUE(JsonDoc::parse(ok));
  // kMaxDepth counts containers, the rule of base::JsonScanner (the old parser also took an
  // empty 257th level).
  auto nest = [](int n) { return std::string(n, '[') + std::string(n, ']'); };
  EXPECT_TRUE(JsonDoc::parse(nest(JsonDoc::kMaxDepth)));
  EXPECT_FALSE(JsonDoc::parse(nest(JsonDoc::kMaxDepth + 1)));
}

// The string scanner skips 8 plain bytes at a time: every special byte ('"', '\\', a control
// byte, a byte ≥ 0x80) must be found at every offset within and across those words.
TEST(ProxyJsonSpans, StringScanFindsEverySpecialByteAtEveryOffset) {
  for (std::size_t len = 0; len < 40; ++len) {
    for (std::size_t at = 0; at < len; ++at) {
      std::string plain(len, 'a');
      std::string escaped = plain;
      escaped.replace(at, 1, "\\\"");  // an escaped quote at `at`
      std::optional<JsonDoc> doc = JsonDoc::parse("\"" + escaped + "\"");
      ASSERT_TRUE(doc) << len << " " << at;
      std::string want = plain;
      want[at] = '"';
      EXPECT_EQ(doc->node(doc->root()).text, want) << len << " " << at;

      std::string control = plain;
      control[at] = '\x1f';
      EXPECT_FALSE(JsonDoc::parse("\"" + control + "\"")) << "raw control byte " << len << " " << at;

      std::string ended = plain;
      ended[at] = '"';  // the string ends early: trailing bytes make the document invalid
      EXPECT_FALSE(JsonDoc::parse("\"" + ended + "\"")) << len << " " << at;

      std::string high = plain;
      high.replace(at, 1, "\xC3\xA9");  // UTF-8 bytes ≥ 0x80 are plain
      std::optional<JsonDoc> utf8 = JsonDoc::parse("\"" + high + "\"");
      ASSERT_TRUE(utf8);
      EXPECT_EQ(utf8->node(utf8->root()).text, high);
    }
  }
}

TEST(ProxyJsonSpans, LoneSurrogatesDecodeAsReplacementCharacter) {
  std::optional<JsonDoc> doc = JsonDoc::parse(R"(["\ud800x", "\udc00"])");
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->node(doc->node(doc->root()).items[0]).text, "\xEF\xBF\xBDx");
  EXPECT_EQ(doc->node(doc->node(doc->root()).items[1]).text, "\xEF\xBF\xBD");
}

TEST(ProxyJsonSpans, QuoteRoundTripsThroughTheParser) {
  std::string raw = "tab\tquote\"back\\slash\x01" "nl\n\xE2\x80\xA8 \xC3\xA9";
  std::string lit = json_quote(raw);
  EXPECT_EQ(lit.find('\x01'), std::string::npos);
  std::optional<JsonDoc> doc = JsonDoc::parse(lit);
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->node(doc->root()).text, raw);
}

TEST(ProxyJsonSpans, SplicesReplaceOnlyTheirRanges) {
  std::string text = "0123456789";
  EXPECT_EQ(apply_splices(text, {{7, 9, "X"}, {1, 3, "abc"}, {5, 5, "+"}}), "0abc34+56X9");
  EXPECT_EQ(apply_splices(text, {}), text);
}

}  // namespace
}  // namespace caveman::proxy
