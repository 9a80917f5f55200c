// The one JSON tokenizer (docs/base.md): tokens, byte ranges, decoding and error positions.
#include "caveman/base/json_scan.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace caveman::base {
namespace {

struct Seen {
  JsonToken token;
  std::size_t begin, end;
  std::string text;
};

std::vector<Seen> scan_all(std::string_view text, JsonScanOptions options = {}) {
  JsonScanner sc(text, options);
  std::vector<Seen> out;
  while (true) {
    JsonToken t = sc.next();
    out.push_back({t, sc.begin(), sc.end(), std::string(sc.text())});
    if (t == JsonToken::kEnd || t == JsonToken::kError) return out;
  }
}

std::pair<JsonError, std::size_t> error_of(std::string_view text, JsonScanOptions options = {}) {
  JsonScanner sc(text, options);
  JsonToken t;
  while ((t = sc.next()) != JsonToken::kEnd && t != JsonToken::kError) {
  }
  return {sc.error(), sc.error_offset()};
}

TEST(BaseJsonScan, TokensCarryTheirByteRanges) {
  std::string in = R"( {"a" : [1, -2.5e3, "x\ny"], "b":true,"c":null} )";
  std::vector<Seen> got = scan_all(in);
  std::vector<JsonToken> kinds;
  for (const Seen& s : got) kinds.push_back(s.token);
  EXPECT_EQ(kinds, (std::vector<JsonToken>{
                       JsonToken::kBeginObject, JsonToken::kKey, JsonToken::kBeginArray,
                       JsonToken::kNumber, JsonToken::kNumber, JsonToken::kString,
                       JsonToken::kEndArray, JsonToken::kKey, JsonToken::kTrue, JsonToken::kKey,
                       JsonToken::kNull, JsonToken::kEndObject, JsonToken::kEnd}));
  for (const Seen& s : got) {
    if (s.token == JsonToken::kEnd) continue;
    ASSERT_LE(s.end, in.size());
    std::string_view bytes = std::string_view(in).substr(s.begin, s.end - s.begin);
    if (s.token == JsonToken::kNumber) EXPECT_EQ(bytes, s.text);
    if (s.token == JsonToken::kKey) EXPECT_EQ(bytes.front(), '"');
  }
  EXPECT_EQ(got[4].text, "-2.5e3");  // number literal as written
  EXPECT_EQ(got[5].text, "x\ny");    // decoded
  EXPECT_EQ(in.substr(got[5].begin, got[5].end - got[5].begin), "\"x\\ny\"");
  EXPECT_EQ(in[got[11].begin], '}');
}

TEST(BaseJsonScan, PlainStringsAreViewsEscapedOnesDecoded) {
  std::string in = R"(["plain","\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"])";
  JsonScanner sc(in);
  sc.next();
  ASSERT_EQ(sc.next(), JsonToken::kString);
  EXPECT_FALSE(sc.escaped());
  EXPECT_EQ(sc.text().data(), in.data() + 2);
  ASSERT_EQ(sc.next(), JsonToken::kString);
  EXPECT_TRUE(sc.escaped());
  EXPECT_EQ(sc.text(), "\"\\/\b\f\n\r\t\xC3\xA9\xF0\x9F\x98\x80");

  JsonScanner raw(in, {.decode_strings = false});
  raw.next();
  raw.next();
  ASSERT_EQ(raw.next(), JsonToken::kString);
  EXPECT_EQ(raw.text(), R"(\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00)");
}

TEST(BaseJsonScan, LoneSurrogatesAreReplacementOrRejected) {
  EXPECT_EQ(scan_all(R"("\ud800x")")[0].text, "\xEF\xBF\xBDx");
  EXPECT_EQ(scan_all(R"("\udc00")")[0].text, "\xEF\xBF\xBD");
  EXPECT_EQ(scan_all(R"("\ud800\u0041")")[0].text, "\xEF\xBF\xBD" "A");
  JsonScanOptions strict{.reject_lone_surrogates = true};
  EXPECT_EQ(error_of(R"("\ud800x")", strict), std::make_pair(JsonError::kLoneSurrogate, 7ul));
  EXPECT_EQ(error_of(R"("\ud800\u0041")", strict),
            std::make_pair(JsonError::kLoneSurrogate, 13ul));
  EXPECT_EQ(error_of(R"("\udc00")", strict), std::make_pair(JsonError::kLoneSurrogate, 7ul));
  EXPECT_EQ(error_of(R"("\ud83d\ude00")", strict).first, JsonError::kNone);
}

// Offsets are what caveman-engine toon encode reports as line and column.
TEST(BaseJsonScan, ErrorsNameTheirKindAndOffset) {
  struct Case {
    const char* in;
    JsonError error;
    std::size_t at;
  };
  for (const Case& c : std::vector<Case>{
           {"", JsonError::kEmpty, 0},
           {"  ", JsonError::kEmpty, 2},
           {"[", JsonError::kUnexpectedEnd, 1},
           {"{", JsonError::kExpectedKey, 1},
           {"[1,]", JsonError::kUnexpectedCharacter, 3},
           {R"({"a":1,})", JsonError::kExpectedKey, 7},
           {R"({"a" 1})", JsonError::kExpectedColon, 5},
           {R"({"a":1 "b":2})", JsonError::kExpectedCommaOrBrace, 7},
           {"[1 2]", JsonError::kExpectedCommaOrBracket, 3},
           {"[1", JsonError::kUnexpectedEndInArray, 2},
           {R"({"a":1)", JsonError::kUnexpectedEndInObject, 6},
           {"tru", JsonError::kInvalidLiteral, 0},
           {"[01]", JsonError::kInvalidNumber, 1},
           {"1-2", JsonError::kInvalidNumber, 0},
           {"1.", JsonError::kInvalidNumber, 0},
           {"+1", JsonError::kUnexpectedCharacter, 0},
           {R"("abc)", JsonError::kUnterminatedString, 4},
           {"\"ab\\", JsonError::kUnterminatedString, 3},
           {R"("a\x")", JsonError::kInvalidEscape, 2},
           {R"("a\u12g4")", JsonError::kInvalidUnicodeEscape, 4},
           {"\"a\tb\"", JsonError::kControlCharacter, 2},
           {"[1] x", JsonError::kTrailingData, 4},
       }) {
    EXPECT_EQ(error_of(c.in), std::make_pair(c.error, c.at)) << c.in;
  }
  EXPECT_EQ(json_error_text(JsonError::kExpectedColon), "expected ':' after the key");
}

TEST(BaseJsonScan, DepthCapCountsContainers) {
  auto nest = [](int n) { return std::string(n, '[') + std::string(n, ']'); };
  EXPECT_EQ(error_of(nest(4), {.max_depth = 4}).first, JsonError::kNone);
  EXPECT_EQ(error_of(nest(5), {.max_depth = 4}), std::make_pair(JsonError::kTooDeep, 4ul));
  EXPECT_EQ(error_of(nest(512)).first, JsonError::kNone);
  EXPECT_EQ(error_of(nest(513)).first, JsonError::kTooDeep);
}

TEST(BaseJsonScan, ErrorAndEndAreSticky) {
  JsonScanner bad("[x");
  bad.next();
  EXPECT_EQ(bad.next(), JsonToken::kError);
  EXPECT_EQ(bad.next(), JsonToken::kError);
  JsonScanner good("1");
  EXPECT_EQ(good.next(), JsonToken::kNumber);
  EXPECT_EQ(good.next(), JsonToken::kEnd);
  EXPECT_EQ(good.next(), JsonToken::kEnd);
}

}  // namespace
}  // namespace caveman::base
