#include <gtest/gtest.h>

#include <string>

#include "caveman/compressor.h"
#include "caveman/engine.h"
#include "compress/compressors.h"

namespace caveman::compress {
namespace {

std::optional<CompressorOutput> run(std::string_view in) {
  static const auto c = make_toolschema_annotations_compressor();
  return c->compress(in, "");
}

std::string run_ok(std::string_view in) {
  auto out = run(in);
  EXPECT_TRUE(out.has_value()) << in;
  return out ? out->bytes : std::string();
}

TEST(ToolSchemaAnnotationsTest, DeletesAnnotationsWithOneSeparator) {
  // Middle member: its leading comma goes. First member: its trailing separator goes.
  EXPECT_EQ(run_ok(R"({"name":"a","input_schema":{"type":"object", "title":"T", "x":1}})"),
            R"({"name":"a","input_schema":{"type":"object", "x":1}})");
  EXPECT_EQ(run_ok(R"({"name":"a","input_schema":{"$schema":"s",  "type":"object"}})"),
            R"({"name":"a","input_schema":{"type":"object"}})");
  EXPECT_EQ(run_ok(R"({"name":"a","input_schema":{ "title":"T" }})"),
            R"({"name":"a","input_schema":{ }})");
  EXPECT_EQ(run_ok(R"({"name":"a","input_schema":{"title":"T","examples":[1],"type":"object","deprecated":true}})"),
            R"({"name":"a","input_schema":{"type":"object"}})");
}

TEST(ToolSchemaAnnotationsTest, PreservesEveryOtherByte) {
  std::string in =
      "[\n  {\n    \"name\": \"t\",\n    \"title\": \"Envelope title stays\",\n"
      "    \"cache_control\": {\"type\": \"ephemeral\"},\n"
      "    \"input_schema\": {\n      \"type\": \"object\",\n      \"title\": \"Args\",\n"
      "      \"properties\": {\n        \"title\": {\"type\": \"string\", \"examples\": [\"x\"], "
      "\"default\": 1.50e0},\n        \"n\": {\"enum\": [{\"title\": \"kept in enum\"}], "
      "\"description\": \"caf\\u00e9\"}\n      }\n    }\n  }\n]";
  std::string want =
      "[\n  {\n    \"name\": \"t\",\n    \"title\": \"Envelope title stays\",\n"
      "    \"cache_control\": {\"type\": \"ephemeral\"},\n"
      "    \"input_schema\": {\n      \"type\": \"object\",\n"
      "      \"properties\": {\n        \"title\": {\"type\": \"string\", "
      "\"default\": 1.50e0},\n        \"n\": {\"enum\": [{\"title\": \"kept in enum\"}], "
      "\"description\": \"caf\\u00e9\"}\n      }\n    }\n  }\n]";
  EXPECT_EQ(run_ok(in), want);
}

TEST(ToolSchemaAnnotationsTest, EntersOnlySchemaPositions) {
  std::string in =
      R"({"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object",)"
      R"("anyOf":[{"title":"A","required":["a"]},{"title":"B"}],"items":{"title":"I"},)"
      R"("x-vendor":{"title":"skip"},"const":{"title":"skip"}}}}]})";
  EXPECT_EQ(run_ok(in),
            R"({"tools":[{"type":"function","function":{"name":"f","parameters":{"type":"object",)"
            R"("anyOf":[{"required":["a"]},{}],"items":{},)"
            R"("x-vendor":{"title":"skip"},"const":{"title":"skip"}}}}]})");
}

TEST(ToolSchemaAnnotationsTest, NothingToDeleteReturnsInputUnchanged) {
  std::string in = R"([{"name":"a","input_schema":{"type":"object"}}])";
  EXPECT_EQ(run_ok(in), in);
  EXPECT_EQ(run_ok("\"just a string\""), "\"just a string\"");
}

TEST(ToolSchemaAnnotationsTest, IdempotentAndDeterministic) {
  std::string in = R"({"jsonrpc":"2.0","result":{"tools":[{"name":"a","inputSchema":)"
                   R"({"$schema":"x","type":"object","properties":{"p":{"title":"P","type":"string"}}}}]}})";
  std::string once = run_ok(in);
  EXPECT_EQ(once, R"({"jsonrpc":"2.0","result":{"tools":[{"name":"a","inputSchema":)"
                  R"({"type":"object","properties":{"p":{"type":"string"}}}}]}})");
  EXPECT_EQ(run_ok(in), once);
  EXPECT_EQ(run_ok(once), once);
}

TEST(ToolSchemaAnnotationsTest, DeclinesMalformedJson) {
  EXPECT_FALSE(run("").has_value());
  EXPECT_FALSE(run("[{\"name\":\"a\",}]").has_value());
  EXPECT_FALSE(run("{\"a\":1} x").has_value());
  EXPECT_FALSE(run(std::string(5000, '[') + std::string(5000, ']')).has_value());  // depth cap
  EXPECT_FALSE(run("\"\\x\"").has_value());
}

TEST(ToolSchemaAnnotationsTest, ForcedOnlyAndOutsideTheManifest) {
  std::string in = R"([{"name":"a","input_schema":{"type":"object","title":"A long schema title here"}}])";
  EXPECT_EQ(detect(in), "json");
  EXPECT_EQ(Registry::capability_manifest_json().find("toolschema-annotations"), std::string::npos);
  Engine engine(nullptr);
  Options o;
  o.mode = "compress";
  o.external_recovery = true;
  o.type = "toolschema-annotations";
  CompressResult r = engine.compress(in, o);
  EXPECT_EQ(r.method, "toolschema-annotations");
  EXPECT_EQ(r.output, R"([{"name":"a","input_schema":{"type":"object"}}])");
}

}  // namespace
}  // namespace caveman::compress
