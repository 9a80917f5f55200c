// ASCII and UTF-8 helpers (docs/base.md): locale-free, byte-exact.
#include "caveman/base/text.h"

#include <gtest/gtest.h>

#include <string>

namespace caveman::base {
namespace {

TEST(BaseText, AsciiLowerTouchesOnlyAZ) {
  EXPECT_EQ(ascii_lower("HeLLo-World_09"), "hello-world_09");
  EXPECT_EQ(ascii_lower("ÄÖÜ É"), "ÄÖÜ É");  // UTF-8 bytes pass through
  EXPECT_EQ(ascii_lower(std::string("A\0B", 3)), std::string("a\0b", 3));
  EXPECT_TRUE(iequals_ascii("Content-Type", "content-TYPE"));
  EXPECT_FALSE(iequals_ascii("abc", "abcd"));
  EXPECT_FALSE(iequals_ascii("É", "é"));
}

TEST(BaseText, TrimAsciiStripsTheSixWhiteSpaceBytes) {
  EXPECT_EQ(trim_ascii(" \t\n\v\f\rx y\r\n"), "x y");
  EXPECT_EQ(trim_ascii(""), "");
  EXPECT_EQ(trim_ascii(" \n "), "");
  EXPECT_EQ(trim_ascii("\xC2\xA0x"), "\xC2\xA0x");  // NBSP is not ASCII white space
}

TEST(BaseText, Utf8ValidityIsRfc3629) {
  for (const char* ok : {"", "ascii", "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                         "\xEF\xBF\xBF", "\xF4\x8F\xBF\xBF"}) {
    EXPECT_TRUE(is_valid_utf8(ok)) << ok;
  }
  for (const char* bad : {"\x80", "\xC3", "\xC0\xAF", "\xE0\x80\xAF", "\xED\xA0\x80",
                          "\xF4\x90\x80\x80", "\xF5\x80\x80\x80", "\xFF", "ok\xE2\x82"}) {
    EXPECT_FALSE(is_valid_utf8(bad)) << bad;
  }
  EXPECT_TRUE(is_valid_utf8(std::string("a\0b", 3)));
}

// The one JSON string escaper. The copies agreed on everything but \b and \f: JSON writers
// use the short forms, TOON (§7.1 has no \b, \f) the \u00XX ones.
TEST(BaseText, JsonStringEscapesOnlyQuotesBackslashesAndControls) {
  std::string out;
  append_json_string(std::string("a\"b\\c\n\r\t\b\f\x01\x1f\x7f/\xC3\xA9\xFF", 17), out);
  EXPECT_EQ(out, "\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\\u001f\x7f/\xC3\xA9\xFF\"");
  std::string toon;
  append_json_string("\b\f\n", toon, /*short_bf=*/false);
  EXPECT_EQ(toon, "\"\\u0008\\u000c\\n\"");
  std::string empty;
  append_json_string("", empty);
  EXPECT_EQ(empty, "\"\"");
}

}  // namespace
}  // namespace caveman::base
