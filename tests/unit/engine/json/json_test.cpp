// The one JSON document type: order, literals, byte ranges, and parse→write round trips.
#include "json/json.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace caveman::json {
namespace {

TEST(JsonDoc, KeepsOrderDuplicatesAndLiterals) {
  std::string in = R"({"z":1.0,"a":[1e5,-0,true,null],"z":"\u00e9\n"})";
  std::optional<Value> v = parse(in);
  ASSERT_TRUE(v);
  ASSERT_EQ(v->members.size(), 3u);
  EXPECT_EQ(v->members[0].key, "z");
  EXPECT_EQ(v->find("z")->text, "1.0");  // the first of duplicates
  EXPECT_EQ(v->members[2].value.text, "\xC3\xA9\n");
  EXPECT_EQ(to_compact(*v), in.substr(0, in.find("\\u00e9")) + "\xC3\xA9\\n\"}");
  EXPECT_EQ(to_indented(*parse("[1,{}]")), "[\n  1,\n  {}\n]");
}

TEST(JsonDoc, RecordsByteRangesOfParsedValues) {
  std::string in = R"( {"k" : [ 1 , "s" ], "m":{}} )";
  std::optional<Value> v = parse(in);
  ASSERT_TRUE(v);
  auto bytes = [&](const Value& x) { return in.substr(x.begin, x.end - x.begin); };
  EXPECT_EQ(bytes(*v), R"({"k" : [ 1 , "s" ], "m":{}})");
  EXPECT_EQ(bytes(v->members[0].value), R"([ 1 , "s" ])");
  EXPECT_EQ(bytes(v->members[0].value.items[1]), "\"s\"");
  EXPECT_EQ(v->members[1].key_begin, in.find("\"m\""));
  EXPECT_EQ(bytes(v->members[1].value), "{}");
  EXPECT_EQ(Value::object().end, 0u);  // built values have no range
}

TEST(JsonDoc, RejectsWhatTheGrammarRejects) {
  for (const char* bad : {"", "[1,]", "{\"a\":1,}", "01", "[1] 2", "\"\\x\"", "{1:2}", "nul"}) {
    EXPECT_FALSE(parse(bad)) << bad;
    EXPECT_FALSE(is_valid(bad)) << bad;
  }
  std::string deep = std::string(600, '[') + std::string(600, ']');
  EXPECT_FALSE(parse(deep));  // default cap: 512 containers
  EXPECT_TRUE(is_valid(deep));  // Go's json.Valid allows 10 000
  EXPECT_TRUE(parse(deep, 600));
  EXPECT_TRUE(is_valid("\"\xFF\""));  // invalid UTF-8 inside strings is tolerated
}

TEST(JsonDoc, EraseRangesMergesOverlaps) {
  EXPECT_EQ(erase_ranges("0123456789", {{5, 7}, {1, 3}, {2, 4}, {9, 12}}), "0478");
}

// Random compact documents: writing what was parsed gives the input back byte for byte, and
// every value's range re-parses to that value.
class RandomJson {
 public:
  explicit RandomJson(unsigned seed) : rng_(seed) {}

  std::string value(int depth) {
    switch (pick(depth < 4 ? 7 : 5)) {
      case 0: return "null";
      case 1: return pick(2) ? "true" : "false";
      case 2: return number();
      case 3:
      case 4: return string();
      case 5: return array(depth);
      default: return object(depth);
    }
  }

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<unsigned>(n)); }

  std::string number() {
    static const char* kLiterals[] = {"0", "-0", "12", "-3.25", "1e5", "2.5E-3", "1.0", "7e+2"};
    return kLiterals[pick(8)];
  }

  std::string string() {
    static const std::string kPieces[] = {"a", "Z", " ", "\\\"", "\\\\", "\\n", "\\u0001",
                                          "\xC3\xA9", "\xF0\x9F\x98\x80", "/", "\\b", "\\f"};
    std::string s = "\"";
    for (int n = pick(6); n > 0; --n) s += kPieces[pick(12)];
    return s + "\"";
  }

  std::string array(int depth) {
    std::string s = "[";
    for (int n = pick(4); n > 0; --n) s += (s.size() > 1 ? "," : "") + value(depth + 1);
    return s + "]";
  }

  std::string object(int depth) {
    std::string s = "{";
    for (int n = pick(4); n > 0; --n) {
      s += (s.size() > 1 ? "," : "") + string() + ":" + value(depth + 1);
    }
    return s + "}";
  }

  std::mt19937 rng_;
};

void expect_ranges_reparse(const std::string& in, const Value& v) {
  ASSERT_LE(v.begin, v.end);
  ASSERT_LE(v.end, in.size());
  std::optional<Value> again = parse(std::string_view(in).substr(v.begin, v.end - v.begin));
  ASSERT_TRUE(again);
  EXPECT_EQ(to_compact(*again), to_compact(v));
  for (const Value& item : v.items) expect_ranges_reparse(in, item);
  for (const Member& m : v.members) {
    EXPECT_EQ(in[m.key_begin], '"');
    expect_ranges_reparse(in, m.value);
  }
}

TEST(JsonDoc, RandomCompactDocumentsRoundTripByteIdentical) {
  RandomJson gen(23);
  for (int i = 0; i < 2000; ++i) {
    std::string in = gen.value(0);
    std::optional<Value> v = parse(in);
    ASSERT_TRUE(v) << in;
    ASSERT_TRUE(is_valid(in)) << in;
    EXPECT_EQ(to_compact(*v), in);
    expect_ranges_reparse(in, *v);
    EXPECT_EQ(to_compact(*parse(to_compact(*v))), to_compact(*v));
  }
}

}  // namespace
}  // namespace caveman::json
