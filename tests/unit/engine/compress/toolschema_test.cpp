#include <gtest/gtest.h>

#include <string>

#include "caveman/engine.h"
#include "compress/compressors.h"
#include "compress/toolschema_description.h"
#include "json/json.h"
#include "support/test_support.h"

namespace caveman::compress {
namespace {

std::optional<CompressorOutput> run(std::string_view in) {
  static const auto c = make_toolschema_compressor();
  return c->compress(in, "");
}

std::string run_ok(std::string_view in) {
  auto out = run(in);
  EXPECT_TRUE(out.has_value()) << in;
  return out ? out->bytes : std::string();
}

const std::string kLong =
    "Navigates the browser to a page and waits for it to settle before returning control. "
    "The URL must be absolute and use http or https. Timeouts are at most 60 seconds. "
    "Cookies from earlier sessions are reused when available for the same origin host.";

TEST(ToolSchemaDescriptionTest, ShortDescriptionsStayWhole) {
  EXPECT_EQ(toolschema::shorten_description("  Click an element.  "), "Click an element.");
  std::string s160(160, 'a');
  EXPECT_EQ(toolschema::shorten_description(s160), s160);
}

TEST(ToolSchemaDescriptionTest, KeepsConstraintsAndTheFirstOtherSentence) {
  EXPECT_EQ(toolschema::shorten_description(kLong),
            "Navigates the browser to a page and waits for it to settle before returning\xE2\x80\xA6 "
            "The URL must be absolute and use http or https. Timeouts are at most 60 seconds.");
}

TEST(ToolSchemaDescriptionTest, SplitsSentencesButNotAbbreviations) {
  auto s = toolschema::split_sentences(
      "Use e.g. Chrome or Firefox. Dr. Smith wrote it. Version 1.2 works. J. Doe agrees. next");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0], "Use e.g. Chrome or Firefox.");
  EXPECT_EQ(s[1], "Dr. Smith wrote it.");
  EXPECT_EQ(s[2], "Version 1.2 works.");
  EXPECT_EQ(s[3], "J. Doe agrees. next");
}

TEST(ToolSchemaDescriptionTest, ConstraintMarkers) {
  for (const char* yes : {"It must be set.", "Value is required.", "Rejects empty input.",
                          "Dates use ISO 8601.", "Per RFC-3339 dates.", "At least one item.",
                          "Case-sensitive match.", "Formatted as text.", "Exceeding it fails.",
                          "You can't skip it."}) {
    EXPECT_TRUE(toolschema::has_constraint(yes)) << yes;
  }
  for (const char* no : {"Clicks the element.", "Mustard is yellow.", "Information here.",
                         "Isolation mode.", "Minimalist layout."}) {
    EXPECT_FALSE(toolschema::has_constraint(no)) << no;
  }
}

TEST(ToolSchemaDescriptionTest, Idempotent) {
  std::string once = toolschema::shorten_description(kLong + " " + kLong);
  EXPECT_EQ(toolschema::shorten_description(once), once);
  std::string word(300, 'x');  // one unbreakable word: cut mid-word
  once = toolschema::shorten_description(word);
  EXPECT_LE(once.size(), 80u);
  EXPECT_EQ(toolschema::shorten_description(once), once);
}

TEST(ToolSchemaCompressorTest, DropsDocumentationKeepsConstraints) {
  std::string in = R"({
    "name": "navigate",
    "title": "Navigate",
    "description": "Go to a URL.",
    "annotations": {"readOnlyHint": false},
    "_meta": {"x": 1},
    "inputSchema": {
      "$schema": "http://json-schema.org/draft-07/schema#",
      "type": "object",
      "title": "NavigateArgs",
      "$comment": "generated",
      "properties": {
        "url": {"type": "string", "format": "uri", "examples": ["https://a.b"], "minLength": 1},
        "title": {"type": "string", "default": "x", "enum": ["x", "y"]},
        "examples": {"type": "number", "const": 1.50}
      },
      "required": ["url"],
      "additionalProperties": false
    }
  })";
  EXPECT_EQ(run_ok(in),
            R"({"name":"navigate","title":"Navigate","description":"Go to a URL.",)"
            R"("annotations":{"readOnlyHint":false},"_meta":{"x":1},"inputSchema":{"type":"object",)"
            R"("properties":{"url":{"type":"string","format":"uri","minLength":1},)"
            R"("title":{"type":"string","default":"x","enum":["x","y"]},)"
            R"("examples":{"type":"number","const":1.50}},"required":["url"],)"
            R"("additionalProperties":false}})");
}

TEST(ToolSchemaCompressorTest, DispatchesCatalogShapes) {
  std::string desc = "\"description\":\"" + kLong + "\"";
  std::string short_desc = toolschema::shorten_description(kLong);
  std::string schema = R"({"type":"object","title":"T","properties":{"a":{"type":"string",)" +
                       desc + "}}}";
  std::string want_schema = R"({"type":"object","properties":{"a":{"type":"string","description":")" +
                            short_desc + "\"}}}";
  // Anthropic list, MCP tools/list result, OpenAI nested function, bare schema.
  EXPECT_EQ(run_ok("[{\"name\":\"a\",\"input_schema\":" + schema + "}]"),
            "[{\"name\":\"a\",\"input_schema\":" + want_schema + "}]");
  EXPECT_EQ(run_ok("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\",\"inputSchema\":" +
                   schema + "}]}}"),
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[{\"name\":\"a\",\"inputSchema\":" +
                want_schema + "}]}}");
  EXPECT_EQ(run_ok("{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":" +
                   schema + "}}],\"title\":\"kept\"}"),
            "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\",\"parameters\":" +
                want_schema + "}}],\"title\":\"kept\"}");
  EXPECT_EQ(run_ok(schema), want_schema);
  EXPECT_EQ(run_ok("42"), "42");
}

TEST(ToolSchemaCompressorTest, RefCyclesAreNotFollowed) {
  std::string in = R"({"$defs":{"node":{"type":"object","title":"Node","properties":{)"
                   R"("next":{"$ref":"#/$defs/node"}}}},"$ref":"#/$defs/node"})";
  EXPECT_EQ(run_ok(in), R"({"$defs":{"node":{"type":"object","properties":{)"
                        R"("next":{"$ref":"#/$defs/node"}}}},"$ref":"#/$defs/node"})");
}

TEST(ToolSchemaCompressorTest, IdempotentAndDeterministic) {
  std::string in = "[{\"name\":\"a\",\"description\":\"" + kLong + " " + kLong +
                   "\",\"input_schema\":{\"type\":\"object\",\"title\":\"x\"}}]";
  std::string once = run_ok(in);
  EXPECT_EQ(run_ok(in), once);
  EXPECT_EQ(run_ok(once), once);
}

TEST(ToolSchemaCompressorTest, DeclinesMalformedJson) {
  EXPECT_FALSE(run("").has_value());
  EXPECT_FALSE(run("{\"name\":").has_value());
  EXPECT_FALSE(run("{} {}").has_value());
  EXPECT_FALSE(run(std::string(100000, '[')).has_value());  // nesting cap, no stack overflow
}

TEST(ToolSchemaCompressorTest, CorpusCatalogKeepsNamesAndShrinks) {
  for (const auto& f : corpus::corpus_manifest()) {
    if (f.name != "json-mcp-playwright-tools-list.json") continue;
    std::string in = corpus::read_file(f.path);
    auto out = run(in);
    ASSERT_TRUE(out.has_value());
    EXPECT_LT(out->bytes.size(), in.size());
    EXPECT_TRUE(json::is_valid(out->bytes));
    for (const auto& needle : f.must_keep) {
      EXPECT_TRUE(corpus::keeps("json", out->bytes, needle)) << needle;
    }
    EXPECT_EQ(run(out->bytes)->bytes, out->bytes);
    return;
  }
  GTEST_SKIP() << "corpus not available";
}

TEST(ToolSchemaCompressorTest, ForcedOnly) {
  Engine engine(nullptr);
  Options o;
  o.mode = "compress";
  o.external_recovery = true;
  std::string in = "[{\"name\":\"a\",\"description\":\"" + kLong +
                   "\",\"input_schema\":{\"type\":\"object\",\"title\":\"Args\"}}]";
  EXPECT_EQ(detect(in), "json");
  CompressResult auto_r = engine.compress(in, o);
  EXPECT_NE(auto_r.method, "toolschema");
  o.type = "toolschema";
  CompressResult forced = engine.compress(in, o);
  EXPECT_EQ(forced.method, "toolschema");
  EXPECT_EQ(forced.content_type, "toolschema");
}

}  // namespace
}  // namespace caveman::compress
