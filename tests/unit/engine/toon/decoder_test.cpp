// toon_decode beyond the spec fixtures: errors name their line, no line is ever dropped,
// the documented non-strict policies, exact numbers, limits and path expansion details.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "caveman/toon.h"
#include "json/json.h"

namespace caveman::toon {
namespace {

std::string dec(std::string_view toon, bool strict = true, bool expand = false) {
  DecodeOptions o;
  o.strict = strict;
  o.expand_paths = expand ? ExpandPaths::kSafe : ExpandPaths::kOff;
  Result<std::string> r = toon_decode(toon, o);
  return r.ok() ? r.value() : "ERROR " + r.status().ToString();
}

std::string lenient(std::string_view toon) { return dec(toon, false); }

TEST(ToonDecodeTest, RejectsBadOptions) {
  DecodeOptions o;
  o.indent = 0;
  EXPECT_EQ(toon_decode("a: 1", o).status().error_code(), "cave_invalid_arguments");
}

TEST(ToonDecodeTest, ErrorsNameTheLine) {
  EXPECT_EQ(dec("a: 1\nb: 2\n    c: 3"), "ERROR cave_invalid_toon: line 3: unexpected indentation");
  EXPECT_EQ(dec("a: 1\nb: \"x\\q\""), "ERROR cave_invalid_toon: line 2: invalid escape \\q");
  EXPECT_EQ(dec("a: 1\nitems[2]:\n  - x\n\n  - y"),
            "ERROR cave_invalid_toon: line 4: blank line inside a list array");
  EXPECT_EQ(dec("k: v\n\xFF"), "ERROR cave_invalid_toon: line 2: invalid UTF-8");
  EXPECT_EQ(dec("a:\n  b: \"open"), "ERROR cave_invalid_toon: line 2: unterminated string");
}

TEST(ToonDecodeTest, NoLineIsEverDropped) {
  // Lines that no structure can own are errors in both modes (never silently discarded).
  for (bool strict : {true, false}) {
    EXPECT_EQ(dec("[2]: 1,2\nx: 1", strict),
              "ERROR cave_invalid_toon: line 2: content after the root array");
    EXPECT_EQ(dec("a: 1\n  b: 2", strict),
              "ERROR cave_invalid_toon: line 2: unexpected indentation");
    EXPECT_EQ(dec("t[1]: x\n  - y", strict),
              "ERROR cave_invalid_toon: line 2: unexpected indentation");
    EXPECT_EQ(dec("k[1]:\n  - a\n  b: 1", strict),
              "ERROR cave_invalid_toon: line 3: expected a list item (\"- \")");
    EXPECT_EQ(dec("x: 1\n- y", strict),
              "ERROR cave_invalid_toon: line 2: list item outside an array");
    EXPECT_EQ(dec("x: 1\n[2]: a,b", strict),
              "ERROR cave_invalid_toon: line 2: array header without a key inside an object");
  }
}

TEST(ToonDecodeTest, StrictCountsIncludeBareHyphenItems) {
  EXPECT_EQ(dec("k[1]:\n  - a\n  -"),
            "ERROR cave_invalid_toon: line 3: array declares 1 items but has 2");
}

TEST(ToonDecodeTest, AcceptsCrlfLineEnds) {
  EXPECT_EQ(dec("a: 1\r\nb[2]: x,y\r\nc:\r\n  d: \"q\"\r\n"),
            R"({"a":1,"b":["x","y"],"c":{"d":"q"}})");
}

TEST(ToonDecodeTest, NumbersAreExact) {
  EXPECT_EQ(dec("n: 12345678901234567890.50\nm: 1E+25\nz: -0.0"),
            R"({"n":12345678901234567890.5,"m":1e+25,"z":0})");
  // Out-of-domain exponents stay strings (documented policy).
  EXPECT_EQ(dec("n: 1e99999999999999999"), R"({"n":"1e99999999999999999"})");
}

TEST(ToonDecodeTest, UnquotedKeysAreAnyTextBeforeTheColon) {
  EXPECT_EQ(dec("full name: Ada\n  \t: x"), "ERROR cave_invalid_toon: line 2: tab in indentation");
  EXPECT_EQ(dec("full name: Ada"), R"({"full name":"Ada"})");
  EXPECT_EQ(dec("\"q\" : 1"), R"({"q":1})");
}

TEST(ToonDecodeTest, EscapesAndSurrogates) {
  EXPECT_EQ(dec("v: \"\\u00E9\\u00e9\\t\""), "{\"v\":\"\xC3\xA9\xC3\xA9\\t\"}");
  EXPECT_EQ(dec("v: \"\\uDC00\""),
            "ERROR cave_invalid_toon: line 1: \\u escape of a surrogate (supplementary "
            "characters must be literal UTF-8)");
  EXPECT_EQ(dec("v: \"\\u12\""),
            "ERROR cave_invalid_toon: line 1: \\u must be followed by four hex digits");
  EXPECT_EQ(dec("v: \"a\" b"),
            "ERROR cave_invalid_toon: line 1: unexpected characters after closing quote");
}

TEST(ToonDecodeTest, HeaderEdges) {
  EXPECT_EQ(dec("t[2]{a,b}: 1,2"),
            "ERROR cave_invalid_toon: line 1: values after a tabular array header");
  EXPECT_EQ(dec("t[1]{}:\n  1"), "ERROR cave_invalid_toon: line 1: empty field name");
  EXPECT_EQ(dec("t[1]{a,a}:\n  1,2"), "ERROR cave_invalid_toon: line 1: duplicate key \"a\"");
  EXPECT_EQ(lenient("t[1]{a,a}:\n  1,2"), R"({"t":[{"a":2}]})");
  EXPECT_EQ(dec("t[4294967295]: x"),
            "ERROR cave_invalid_toon: line 1: invalid array length [4294967295]");
  EXPECT_EQ(dec("\"k\"[2|]: a|b"), R"({"k":["a","b"]})");
  EXPECT_EQ(dec("- [1] x"), R"("- [1] x")");  // one line, neither header nor key-value (§5)
  EXPECT_EQ(dec("- [1]: x"), "ERROR cave_invalid_toon: line 1: list item outside an array");
}

TEST(ToonDecodeTest, ListItemForms) {
  EXPECT_EQ(dec("[4]:\n  -   \n  - []\n  - \"a:b\"\n  - k: v"), R"([{},[],"a:b",{"k":"v"}])");
  EXPECT_EQ(dec("[1]:\n  - a:\n      b: 1\n    c: 2"), R"([{"a":{"b":1},"c":2}])");
  EXPECT_EQ(dec("[1]:\n  - [2]:\n    - x: 1\n    - [1]: 2"), R"([[{"x":1},[2]]])");
}

TEST(ToonDecodeTest, NestedObjectDepthIsSetByItsFirstLine) {
  EXPECT_EQ(dec("a:\n      b: 1\n      c: 2\nd: 3"), R"({"a":{"b":1,"c":2},"d":3})");
  EXPECT_EQ(dec("a:\n    b: 1\n  c: 2"), "ERROR cave_invalid_toon: line 3: unexpected indentation");
}

TEST(ToonDecodeTest, NonStrictLastWriteWinsAtTheFirstPosition) {
  EXPECT_EQ(lenient("a: 1\nb: 2\na: 3"), R"({"a":3,"b":2})");
  EXPECT_EQ(lenient("o:\n  a: 1\n  a:\n    z: 1"), R"({"o":{"a":{"z":1}}})");
}

TEST(ToonDecodeTest, NonStrictCountsWidthsAndIndentation) {
  EXPECT_EQ(lenient("k[1]:\n  - a\n  - b"), R"({"k":["a","b"]})");  // all items kept
  EXPECT_EQ(lenient("k[5]: a,b"), R"({"k":["a","b"]})");
  EXPECT_EQ(lenient("t[2]{a,b,c}:\n  1,2\n  3,4,5,6"),
            R"({"t":[{"a":1,"b":2},{"a":3,"b":4,"c":5}]})");
  EXPECT_EQ(lenient("a:\n\tb: 1\n\t\tc: 2"),
            "ERROR cave_invalid_toon: line 3: unexpected indentation");
  EXPECT_EQ(lenient("a:\n\tb:\n\t\tc: 2"), R"({"a":{"b":{"c":2}}})");  // a tab is one level
  EXPECT_EQ(lenient("a:\n   b: 1"), R"({"a":{"b":1}})");
  EXPECT_EQ(lenient("x[2] : a,b"), R"({"x[2]":"a,b"})");  // malformed header → key-value
}

TEST(ToonDecodeTest, NestingIsCappedAt512Containers) {
  auto nested = [](int levels) {
    std::string t;
    for (int i = 0; i < levels; ++i)
      t += std::string(static_cast<std::size_t>(i) * 2, ' ') + "a:\n";
    return t + std::string(static_cast<std::size_t>(levels) * 2, ' ') + "z: 1";
  };
  EXPECT_EQ(dec(nested(510)).substr(0, 10), "{\"a\":{\"a\":");  // root + 511 objects = 511
  EXPECT_EQ(dec(nested(512)).substr(0, 40), "ERROR cave_invalid_toon: line 512: nesti");
}

TEST(ToonDecodeTest, PathExpansion) {
  EXPECT_EQ(dec("a.b: 1\n\"a.c\": 2\na.d.e: 3", true, true),
            R"({"a":{"b":1,"d":{"e":3}},"a.c":2})");
  EXPECT_EQ(dec("a.b: 1\na:\n  c: 2", true, true), R"({"a":{"b":1,"c":2}})");  // deep merge
  EXPECT_EQ(
      dec("x: 0\na.b: 1\na: 2", true, true),
      "ERROR cave_invalid_toon: line 3: path expansion conflict at \"a\" (object vs primitive)");
  EXPECT_EQ(dec("a: 1\na.b: 2", false, true), R"({"a":{"b":2}})");
  EXPECT_EQ(dec("a.1b: 1\na-b.c: 2", true, true), R"({"a.1b":1,"a-b.c":2})");   // not identifiers
  EXPECT_EQ(dec("l[1]:\n  - p.q: 1", true, true), R"({"l":[{"p":{"q":1}}]})");  // inside arrays
  std::string deep = "k";
  for (int i = 0; i < 600; ++i) deep += ".k";
  EXPECT_EQ(dec(deep + ": 1", true, true).substr(0, 60),
            "ERROR cave_invalid_toon: line 1: path expansion of \"k.k.k.k.");
}

TEST(ToonDecodeTest, TrimsUnicodeWhiteSpaceLikeTheReference) {
  EXPECT_EQ(dec("k: \xC2\xA0v\xE3\x80\x80\nt[2]: a ,\xC2\xA0"
                "b"),
            R"({"k":"v","t":["a","b"]})");
  EXPECT_EQ(dec("k: \"\xC2\xA0v\""), "{\"k\":\"\xC2\xA0v\"}");  // quoted: kept
}

// Mutated documents (dropped, repeated, re-indented and truncated lines, stray bytes) either
// decode to valid JSON or fail with cave_invalid_toon — in both modes, never anything else.
TEST(ToonDecodeTest, MutatedInputsFailCleanly) {
  const std::string kBase =
      "a: 1\nb:\n  c[3]: 1,2,3\n  d[2]{x,y}:\n    1,\"p:q\"\n    3,4\ne[2]:\n  - p: 1\n"
      "  - q[2]:\n      - [1]: 1\n      - r: \"s\\\"t\"\nf: s";
  ASSERT_EQ(dec(kBase).substr(0, 5), "{\"a\":");
  std::uint64_t state = 12345;
  auto next = [&state](std::size_t n) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((state >> 33) % n);
  };
  const char* junk[] = {" ", "  ", "-", "- ", ":",  ",",   "\"", "[",
                        "]", "{",  "}", "\t", "\n", "[2]", "\\", "\xC3"};
  for (int i = 0; i < 3000; ++i) {
    std::string t = kBase;
    for (int k = 0, edits = 1 + static_cast<int>(next(3)); k < edits; ++k) {
      std::size_t at = next(t.size() + 1);
      switch (next(3)) {
        case 0:
          t.insert(at, junk[next(sizeof junk / sizeof junk[0])]);
          break;
        case 1:
          t.erase(at, 1 + next(4));
          break;
        default:
          t = t.substr(0, at);
          break;
      }
    }
    for (bool strict : {true, false}) {
      DecodeOptions o;
      o.strict = strict;
      o.expand_paths = i % 2 ? ExpandPaths::kSafe : ExpandPaths::kOff;
      Result<std::string> r = toon_decode(t, o);
      if (r.ok()) {
        EXPECT_TRUE(json::is_valid(r.value())) << t;
      } else {
        EXPECT_EQ(r.status().error_code(), "cave_invalid_toon") << t;
        EXPECT_EQ(r.status().message().rfind("line ", 0), 0u) << r.status().message();
      }
    }
  }
}

TEST(ToonDecodeTest, RootForms) {
  EXPECT_EQ(dec(""), "{}");
  EXPECT_EQ(dec("\n  \n"), "{}");
  EXPECT_EQ(dec("[]  "), "[]");
  EXPECT_EQ(dec("hello world"), R"("hello world")");
  EXPECT_EQ(dec("\"a:b\""), R"("a:b")");
  EXPECT_EQ(dec("  x: 1"), "ERROR cave_invalid_toon: line 1: unexpected indentation");
}

}  // namespace
}  // namespace caveman::toon
