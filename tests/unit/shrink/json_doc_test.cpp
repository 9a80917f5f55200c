#include "json_doc.h"

#include <gtest/gtest.h>

#include <string>

namespace caveman::shrink {
namespace {

TEST(JsonDoc, CompactRoundTripKeepsOrderDuplicatesAndLiterals) {
  std::string in = R"({"b":1,"a":[1.50,-0.0,1e5,12345678901234567890123],"b":"x","c":{}})";
  auto doc = parse_json(in);
  ASSERT_TRUE(doc);
  EXPECT_EQ(to_json(*doc), in);
}

TEST(JsonDoc, WhitespaceIsRemovedAndUtf8Kept) {
  auto doc = parse_json(" {\n  \"k\" : [ true , false , null ],\n  \"s\":\"h\\u00e9 \\u2026\"\n} ");
  ASSERT_TRUE(doc);
  EXPECT_EQ(to_json(*doc), "{\"k\":[true,false,null],\"s\":\"h\xC3\xA9 \xE2\x80\xA6\"}");
}

TEST(JsonDoc, EscapesLikeJsonStringify) {
  JsonValue v = JsonValue::string(std::string("q\" b\\ n\n t\t c\x01 /", 16));
  EXPECT_EQ(to_json(v), "\"q\\\" b\\\\ n\\n t\\t c\\u0001 /\"");
}

TEST(JsonDoc, RejectsInvalidInput) {
  for (std::string_view bad : {"", "{", "[1,]", "{\"a\":1} x", "{'a':1}", "nul", "\"\xFF\""}) {
    EXPECT_FALSE(parse_json(bad)) << bad;
  }
}

TEST(JsonDoc, CapsNestingDepth) {
  std::string ok(kMaxDepth, '[');
  ok += std::string(kMaxDepth, ']');
  EXPECT_TRUE(parse_json(ok));
  std::string deep(kMaxDepth + 1, '[');
  deep += std::string(kMaxDepth + 1, ']');
  EXPECT_FALSE(parse_json(deep));
  std::string hostile(200000, '[');
  EXPECT_FALSE(parse_json(hostile));
}

TEST(JsonDoc, FindEraseAdd) {
  auto doc = parse_json(R"({"a":1,"b":2,"a":3})");
  ASSERT_TRUE(doc);
  EXPECT_EQ(doc->find("a")->text, "1");
  EXPECT_EQ(doc->erase("a"), 2u);
  doc->add("c", JsonValue::boolean_value(true));
  EXPECT_EQ(to_json(*doc), R"({"b":2,"c":true})");
  EXPECT_EQ(doc->find("zzz"), nullptr);
}

}  // namespace
}  // namespace caveman::shrink
