// toon_encode beyond the spec fixtures: strict JSON input, exact numbers, quoting edges,
// tabular detection, list-item layout and the safe key-folding rules.
#include <gtest/gtest.h>

#include <string>

#include "caveman/toon.h"

namespace caveman::toon {
namespace {

std::string enc(std::string_view json, const EncodeOptions& options = {}) {
  Result<std::string> r = toon_encode(json, options);
  return r.ok() ? r.value() : "ERROR " + r.status().ToString();
}

EncodeOptions folding(int depth = kUnlimitedFlattenDepth) {
  EncodeOptions o;
  o.key_folding = KeyFolding::kSafe;
  o.flatten_depth = depth;
  return o;
}

TEST(ToonEncodeTest, RejectsBadOptions) {
  EncodeOptions o;
  o.delimiter = ';';
  EXPECT_EQ(toon_encode("{}", o).status().error_code(), "cave_invalid_arguments");
  o = {};
  o.indent = 0;
  EXPECT_EQ(toon_encode("{}", o).status().error_code(), "cave_invalid_arguments");
  o.indent = 65;
  EXPECT_EQ(toon_encode("{}", o).status().error_code(), "cave_invalid_arguments");
  o = {};
  o.flatten_depth = -1;
  EXPECT_EQ(toon_encode("{}", o).status().error_code(), "cave_invalid_arguments");
}

TEST(ToonEncodeTest, JsonErrorsNameLineAndColumn) {
  EXPECT_EQ(enc("{\"a\": 1,\n  \"a\": 2}"),
            "ERROR cave_invalid_json: line 2, column 3: duplicate key (TOON objects need unique "
            "keys)");
  EXPECT_EQ(enc("[1, 2] x"),
            "ERROR cave_invalid_json: line 1, column 8: trailing data after the JSON value");
  EXPECT_EQ(enc(""), "ERROR cave_invalid_json: line 1, column 1: empty input");
  EXPECT_EQ(enc("[\"\\ud800\"]"),
            "ERROR cave_invalid_json: line 1, column 9: lone UTF-16 surrogate escape (TOON "
            "cannot represent it)");
  EXPECT_EQ(enc("[\"\\udc00\\ud800\"]").substr(0, 26), "ERROR cave_invalid_json: l");
  EXPECT_EQ(enc("{\"a\":\"\xC3\"}"), "ERROR cave_invalid_json: line 1, column 7: invalid UTF-8");
  EXPECT_EQ(enc("[1e99999999999999999]"),
            "ERROR cave_invalid_json: line 1, column 2: number exponent out of range (|exponent| "
            "> 10^15)");
  EXPECT_EQ(enc("[01]"), "ERROR cave_invalid_json: line 1, column 2: invalid number");
  EXPECT_EQ(enc("{\"a\" 1}"),
            "ERROR cave_invalid_json: line 1, column 6: expected ':' after the key");
}

TEST(ToonEncodeTest, NestingIsCappedAt512Containers) {
  std::string ok = std::string(512, '[') + std::string(512, ']');
  std::string deep = std::string(513, '[') + std::string(513, ']');
  EXPECT_TRUE(toon_encode(ok).ok());
  EXPECT_NE(enc(deep).find("nesting deeper than 512 levels"), std::string::npos);
}

TEST(ToonEncodeTest, NumbersAreCanonicalAndExact) {
  EXPECT_EQ(enc("[1.50,-0,1e6,1E-7,12345678901234567890123,9007199254740993]"),
            "[6]: 1.5,0,1000000,1e-7,1.2345678901234567890123e+22,9007199254740993");
}

TEST(ToonEncodeTest, SurrogatePairEscapesBecomeLiteralUtf8) {
  EXPECT_EQ(enc(R"({"e":"\ud83d\ude80 go","k":"caf\u00e9"})"),
            "e: \xF0\x9F\x9A\x80 go\nk: caf\xC3\xA9");
}

TEST(ToonEncodeTest, QuotesStringsDecodersWouldTrim) {
  // NBSP, U+2028 and BOM are white space to a JavaScript decoder's trim().
  EXPECT_EQ(enc("{\"s\":\"\xC2\xA0x\",\"t\":\"y\xE2\x80\xA8\",\"u\":\"\xEF\xBB\xBFz\"}"),
            "s: \"\xC2\xA0x\"\nt: \"y\xE2\x80\xA8\"\nu: \"\xEF\xBB\xBFz\"");
  EXPECT_EQ(enc(R"({"d":"a\u007fb"})"),
            "d: a\x7F"
            "b");  // DEL is not a control to quote
  EXPECT_EQ(enc(R"({"c":"\u001f"})"), "c: \"\\u001f\"");
}

TEST(ToonEncodeTest, ObjectValuesQuoteForTheDocumentDelimiterOnly) {
  EncodeOptions pipe;
  pipe.delimiter = '|';
  EXPECT_EQ(enc(R"({"v":"a|b","w":"a,b","t":["a|b","a,b"]})", pipe),
            "v: \"a|b\"\nw: a,b\nt[2|]: \"a|b\"|a,b");
}

TEST(ToonEncodeTest, KeysAreQuotedUnlessIdentifierLike) {
  EXPECT_EQ(enc(R"({"user.name":1,"a-b":2,"_x.y":3,"1a":4})"),
            "user.name: 1\n\"a-b\": 2\n_x.y: 3\n\"1a\": 4");
}

TEST(ToonEncodeTest, TabularOnlyForUniformPrimitiveRows) {
  EXPECT_EQ(enc(R"({"rows":[{"a":1,"b":{"c":1}},{"a":2,"b":3}]})"),
            "rows[2]:\n  - a: 1\n    b:\n      c: 1\n  - a: 2\n    b: 3");
  EXPECT_EQ(enc(R"({"rows":[{"a":1},{}]})"), "rows[2]:\n  - a: 1\n  -");
  EXPECT_EQ(enc(R"({"rows":[{"a":1,"b":2},{"a":1,"c":2}]})"),
            "rows[2]:\n  - a: 1\n    b: 2\n  - a: 1\n    c: 2");
  EXPECT_EQ(enc(R"({"rows":[{"a":1,"b":2},{"b":3,"a":4}]})"), "rows[2]{a,b}:\n  1,2\n  4,3");
}

TEST(ToonEncodeTest, ListItemLayout) {
  // A tabular first field shares the hyphen line, rows at +2, other fields at +1.
  EXPECT_EQ(enc(R"([{"a":[{"x":1},{"x":2}],"b":1}])"),
            "[1]:\n  - a[2]{x}:\n      1\n      2\n    b: 1");
  // Arrays of objects inside arrays never use the tabular form (§9.4).
  EXPECT_EQ(enc(R"({"k":[[{"x":1},{"x":2}]]})"), "k[1]:\n  - [2]:\n    - x: 1\n    - x: 2");
  EXPECT_EQ(enc(R"([[],{},[[1]],"s"])"), "[4]:\n  - [0]:\n  -\n  - [1]:\n    - [1]: 1\n  - s");
}

TEST(ToonEncodeTest, IndentOption) {
  EncodeOptions four;
  four.indent = 4;
  EXPECT_EQ(enc(R"({"a":{"b":[{"c":1},{"d":2}]}})", four),
            "a:\n    b[2]:\n        - c: 1\n        - d: 2");
}

TEST(ToonEncodeTest, FoldingAChainThatEndsInAWideObject) {
  EXPECT_EQ(enc(R"({"a":{"b":{"x":1,"y":2}}})", folding()), "a.b:\n  x: 1\n  y: 2");
}

TEST(ToonEncodeTest, FoldingNeverTakesAPathThatARootDottedKeyNames) {
  EXPECT_EQ(enc(R"({"a":{"x":1,"b":{"c":1}},"a.b.c":2})", folding()),
            "a:\n  x: 1\n  b:\n    c: 1\na.b.c: 2");
}

TEST(ToonEncodeTest, FoldingSkipsTheHyphenLineButNotLaterFields) {
  EXPECT_EQ(enc(R"({"items":[{"a":{"b":1}}]})", folding()), "items[1]:\n  - a:\n      b: 1");
  EXPECT_EQ(enc(R"({"items":[{"id":1,"a":{"b":1}}]})", folding()),
            "items[1]:\n  - id: 1\n    a.b: 1");
}

TEST(ToonEncodeTest, FoldingAvoidsCollisionsWithAnySiblingInAListItem) {
  // The folded "a.b" would repeat the first field's key.
  EXPECT_EQ(enc(R"({"items":[{"a.b":1,"a":{"b":2}}]})", folding()),
            "items[1]:\n  - a.b: 1\n    a:\n      b: 2");
}

TEST(ToonEncodeTest, FlattenDepthLimitsSegmentsAndStopsBelow) {
  EXPECT_EQ(enc(R"({"a":{"b":{"c":{"d":{"e":1}}}}})", folding(3)), "a.b.c:\n  d:\n    e: 1");
  EXPECT_EQ(enc(R"({"a":{"b":{"c":1}}})", folding(1)), "a:\n  b:\n    c: 1");
}

TEST(ToonEncodeTest, RootForms) {
  EXPECT_EQ(enc("{}"), "");
  EXPECT_EQ(enc("[]"), "[]");
  EXPECT_EQ(enc("\"\""), "\"\"");
  EXPECT_EQ(enc("\"a,b\""), "\"a,b\"");
  EXPECT_EQ(enc(" null "), "null");
}

}  // namespace
}  // namespace caveman::toon
