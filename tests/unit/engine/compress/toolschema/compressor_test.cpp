// The engine's `toolschema` compressor: caveman-shrink's catalog shrinker behind the
// Compressor contract (forced only, exact recovery, deterministic).
#include <gtest/gtest.h>

#include <string>

#include "caveman/engine.h"
#include "caveman/toolschema.h"
#include "compress/compressors.h"
#include "json/json.h"
#include "support/corpus_skip.h"
#include "support/test_support.h"
#include "unit/engine/compress/toolschema/toolschema_fixtures.h"

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

TEST(ToolSchemaCompressorTest, DropsDocumentationKeepsConstraints) {
  std::string in = R"({
    "name": "navigate",
    "title": "Navigate",
    "description": ")" + kLong + R"(",
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
  // Tool `title`, `annotations` and `_meta` are for clients; `additionalProperties: false` is
  // a no-op for a model; the lead sentence and the constraints stay, in caveman prose.
  EXPECT_EQ(run_ok(in),
            R"({"name":"navigate","description":"Navigates browser to page and waits for it to )"
            R"(settle before returning control. URL must be absolute and use http or https. )"
            R"(Timeouts are at most 60 seconds","inputSchema":{"type":"object","properties":{)"
            R"("url":{"type":"string","format":"uri","minLength":1},)"
            R"("title":{"type":"string","default":"x","enum":["x","y"]},)"
            R"("examples":{"type":"number","const":1.50}},"required":["url"]}})");
}

TEST(ToolSchemaCompressorTest, DispatchesCatalogShapes) {
  std::string schema = R"({"type":"object","title":"T","properties":{"a":{"type":"string",)"
                       R"("description":")" + kLong + R"("}}})";
  // A parameter's lead is cut to 50 bytes and marked '…'.
  std::string want_schema =
      R"({"type":"object","properties":{"a":{"type":"string","description":"Navigates )"
      "browser to page and waits for it to\xE2\x80\xA6 URL must be absolute and use http or "
      R"(https. Timeouts are at most 60 seconds"}}})";
  // Anthropic list, MCP tools/list result, OpenAI nested function, bare schema.
  EXPECT_EQ(run_ok("[{\"name\":\"a\",\"input_schema\":" + schema + "}]"),
            "[{\"name\":\"a\",\"input_schema\":" + want_schema + "}]");
  EXPECT_EQ(run_ok(R"({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":)" +
                   schema + "}]}}"),
            R"({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":)" +
                want_schema + "}]}}");
  EXPECT_EQ(run_ok(R"({"tools":[{"type":"function","function":{"name":"f","parameters":)" +
                   schema + R"(}}],"title":"kept"})"),
            R"({"tools":[{"type":"function","function":{"name":"f","parameters":)" +
                want_schema + R"(}}],"title":"kept"})");
  EXPECT_EQ(run_ok(schema), want_schema);
  EXPECT_FALSE(run("42").has_value());
  EXPECT_FALSE(run("[1,2]").has_value());
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
    EXPECT_LT(out->bytes.size(), in.size() / 2);
    EXPECT_TRUE(json::is_valid(out->bytes));
    for (const auto& needle : f.must_keep) {
      EXPECT_TRUE(corpus::keeps("json", out->bytes, needle)) << needle;
    }
    EXPECT_EQ(run(out->bytes)->bytes, out->bytes);
    return;
  }
  CAVEMAN_CORPUS_MISSING() << "corpus not available";
}

// Through the whole pipeline, as `caveman-engine compress --type toolschema` runs it: at least
// caveman-shrink's saving on the real catalogs (its o200k counts in docs/BENCHMARKS.md,
// shrink), every selection fact kept, the original recoverable.
TEST(ToolSchemaCompressorTest, RealCatalogsShrinkAsMuchAsCavemanShrink) {
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_TRUE(store.ok());
  std::shared_ptr<ccr::Store> shared(std::move(store).value());
  Engine engine(shared);
  Options o;
  o.mode = "compress";
  o.type = "toolschema";
  struct Case {
    std::string catalog;
    std::int64_t shrink_before, shrink_after;
  };
  for (const Case& c : {Case{toolschema::testing::playwright_catalog(), 4415, 2095},
                        Case{toolschema::testing::chrome_devtools_catalog(), 6551, 3162}}) {
    CompressResult r = engine.compress(c.catalog, o);
    EXPECT_EQ(r.method, "toolschema");
    EXPECT_EQ(r.tokens_before, c.shrink_before);
    EXPECT_LE(r.tokens_after, c.shrink_after);
    EXPECT_GE(r.ratio, static_cast<double>(c.shrink_before - c.shrink_after) /
                           static_cast<double>(c.shrink_before));
    EXPECT_EQ(r.output, toolschema::shrink_catalog(c.catalog).output);
    EXPECT_EQ(toolschema::testing::selection_facts(r.output),
              toolschema::testing::selection_facts(c.catalog));
    ASSERT_FALSE(r.recovery_handle.empty());
    auto original = shared->get(r.recovery_handle);
    ASSERT_TRUE(original.ok());
    EXPECT_EQ(original.value(), c.catalog);
  }
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
