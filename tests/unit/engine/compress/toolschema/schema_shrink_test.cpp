#include "compress/toolschema/schema_shrink.h"

#include <gtest/gtest.h>

#include <string>

#include "compress/toolschema/description.h"
#include "json/json.h"

namespace caveman::toolschema {
namespace {

// Shrinks a schema for tool `tool` and returns its compact JSON.
std::string shrink(std::string_view schema, ShrinkContext& context, bool strict = false,
                   std::string_view tool = "do_thing") {
  auto doc = json::parse(schema);
  EXPECT_TRUE(doc) << schema;
  if (!doc) return {};
  shrink_schema(*doc, tool, strict, context);
  return json::to_compact(*doc);
}

std::string shrink(std::string_view schema, bool strict = false) {
  ShrinkContext context;
  return shrink(schema, context, strict);
}

// Shrinks the catalog `json` tool by tool with one shared context.
std::string shrink_tools(std::string_view json) {
  auto doc = json::parse(json);
  EXPECT_TRUE(doc) << json;
  if (!doc) return {};
  ShrinkContext context;
  for (const ToolRef& t : find_catalog(*doc).tools) shrink_tool(t, context);
  return json::to_compact(*doc);
}

TEST(ShrinkSchema, DropsDocumentationKeywordsButNotPropertiesWithThoseNames) {
  EXPECT_EQ(shrink(R"({"$schema":"https://json-schema.org/draft/2020-12/schema","title":"T",)"
                   R"("$comment":"c","examples":[1],"example":2,"type":"object","properties":)"
                   R"({"title":{"type":"string","title":"x"},"examples":{"type":"array"}}})"),
            R"({"type":"object","properties":{"title":{"type":"string"},"examples":{"type":"array"}}})");
}

TEST(ShrinkSchema, KeepsEverythingThatConstrainsACall) {
  std::string s =
      R"({"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":20,)"
      R"("default":3,"multipleOf":1},"s":{"type":"string","enum":["a","b"],"pattern":"^x",)"
      R"("format":"uri","minLength":1,"const":"a"},"r":{"$ref":"#/$defs/r"}},)"
      R"("required":["n"],"$defs":{"r":{"type":"string"}},"allOf":[{"required":["s"]}]})";
  EXPECT_EQ(shrink(s), s);
}

TEST(ShrinkSchema, AdditionalPropertiesFalseGoesUnlessStrict) {
  std::string s = R"({"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false})";
  EXPECT_EQ(shrink(s), R"({"type":"object","properties":{"a":{"type":"string"}}})");
  EXPECT_EQ(shrink(s, /*strict=*/true), s);
  EXPECT_EQ(shrink(R"({"type":"object","additionalProperties":true})"), R"({"type":"object"})");
  EXPECT_EQ(shrink(R"({"type":"object","additionalProperties":{}})"), R"({"type":"object"})");
  EXPECT_EQ(shrink(R"({"type":"object","additionalProperties":{"type":"string","title":"v"}})"),
            R"({"type":"object","additionalProperties":{"type":"string"}})");
}

TEST(ShrinkSchema, DropsNoOpKeywords) {
  EXPECT_EQ(shrink(R"({"type":"object","properties":{},"required":[]})"), R"({"type":"object"})");
  EXPECT_EQ(shrink(R"({"type":"integer","minimum":-9007199254740991,"maximum":9007199254740991})"),
            R"({"type":"integer"})");
  EXPECT_EQ(shrink(R"({"type":"integer","minimum":-9007199254740990,"maximum":9007199254740990})"),
            R"({"type":"integer","minimum":-9007199254740990,"maximum":9007199254740990})");
}

TEST(ShrinkSchema, NullableAnyOfBecomesATypeList) {
  EXPECT_EQ(shrink(R"({"description":"Mode","anyOf":[{"type":"string","enum":["a","b"]},{"type":"null"}]})"),
            R"({"description":"Mode","type":["string","null"],"enum":["a","b",null]})");
  EXPECT_EQ(shrink(R"({"oneOf":[{"type":"null"},{"type":"number"}]})"), R"({"type":["number","null"]})");
  // Anything richer stays a combinator.
  std::string rich = R"({"anyOf":[{"type":"string","minLength":1},{"type":"null"}]})";
  EXPECT_EQ(shrink(rich), rich);
  std::string typed = R"({"type":"string","anyOf":[{"type":"string","enum":["a"]},{"type":"null"}]})";
  EXPECT_EQ(shrink(typed), typed);
}

TEST(ShrinkSchema, RefCyclesAreNeverFollowed) {
  // Self- and mutually-recursive references: shrinking only walks the tree it is given.
  EXPECT_EQ(shrink(R"({"$ref":"#","title":"x","properties":{"a":{"$ref":"#/properties/a"},)"
                   R"("b":{"$ref":"#/$defs/c"}},"$defs":{"c":{"$ref":"#/$defs/d"},"d":{"$ref":"#/$defs/c"}}})"),
            R"({"$ref":"#","properties":{"a":{"$ref":"#/properties/a"},"b":{"$ref":"#/$defs/c"}},)"
            R"("$defs":{"c":{"$ref":"#/$defs/d"},"d":{"$ref":"#/$defs/c"}}})");
}

TEST(ShrinkSchema, DescriptionsAreCondensed) {
  EXPECT_EQ(shrink(R"({"type":"object","properties":{"q":{"type":"number","description":)"
                   R"("Compression quality for the JPEG format. Higher values mean better quality. )"
                   R"(Must be between 0 and 100."}}})"),
            R"({"type":"object","properties":{"q":{"type":"number","description":)"
            R"("Compression quality for JPEG format. Must be between 0 and 100"}}})");
}

TEST(ShrinkSchema, DescriptionThatEchoesTheNameIsDropped) {
  ShrinkContext context;
  EXPECT_EQ(shrink(R"({"properties":{"width":{"type":"number","description":"Page width"}}})",
                   context, false, "resize_page"),
            R"({"properties":{"width":{"type":"number"}}})");
  // …unless it states a constraint.
  EXPECT_EQ(shrink(R"({"properties":{"width":{"type":"number","description":"Page width, at most 100"}}})",
                   context, false, "resize_page"),
            R"({"properties":{"width":{"type":"number","description":"Page width, at most 100"}}})");
}

TEST(ShrinkSchema, HoistsRepeatedDescriptionsAcrossTheCatalog) {
  ShrinkContext context;
  std::string first = shrink(
      R"({"properties":{"target":{"type":"string","description":"Exact element reference from the snapshot"}}})",
      context, false, "click");
  EXPECT_NE(first.find("description"), std::string::npos);
  // The same text under another name is not repeated either.
  EXPECT_EQ(shrink(R"({"properties":{"endTarget":{"type":"string","description":"Exact element reference from the snapshot"}}})",
                   context, false, "drag"),
            R"({"properties":{"endTarget":{"type":"string"}}})");
}

TEST(ShrinkSchema, CompoundNamesShareTheirFirstDefinitionOneWordNamesDoNot) {
  ShrinkContext context;
  shrink(R"({"properties":{"filePath":{"type":"string","description":"Where the trace is saved"},)"
         R"("mode":{"type":"string","description":"How the audit runs"}}})",
         context, false, "start_trace");
  EXPECT_EQ(shrink(R"({"properties":{"filePath":{"type":"string","description":"Output video location"},)"
                   R"("mode":{"type":"string","description":"Color scheme to emulate"}}})",
                   context, false, "screencast"),
            R"({"properties":{"filePath":{"type":"string"},"mode":{"type":"string","description":"Color scheme to emulate"}}})");
}

TEST(ShrinkSchema, ConstraintsRepeatUnderADifferentParameter) {
  ShrinkContext context;
  std::string schema = R"({"properties":{"PARAM":{"type":"integer","description":"At most 30 seconds"}}})";
  auto with = [&](std::string name) {
    std::string s = schema;
    s.replace(s.find("PARAM"), 5, name);
    return shrink(s, context, false, "wait");
  };
  EXPECT_NE(with("timeout").find("At most 30"), std::string::npos);
  EXPECT_EQ(with("timeout").find("At most 30"), std::string::npos) << "same parameter: hoisted";
  EXPECT_NE(with("delay").find("At most 30"), std::string::npos) << "other parameter: repeated";
}

TEST(ShrinkTool, DropsClientOnlyMembersAndKeepsVendorFields) {
  EXPECT_EQ(
      shrink_tools(R"({"tools":[{"name":"t","title":"T","description":"Do the thing.",)"
                   R"("inputSchema":{"type":"object"},"outputSchema":{"type":"object"},)"
                   R"("annotations":{"readOnlyHint":true},"execution":{"taskSupport":"optional"},)"
                   R"("icons":[],"_meta":{"x":1},"cache_control":{"type":"ephemeral"},"x-vendor":1}]})"),
      R"({"tools":[{"name":"t","description":"Do thing","inputSchema":{"type":"object"},)"
      R"("cache_control":{"type":"ephemeral"},"x-vendor":1}]})");
}

TEST(ShrinkTool, OpenAiStrictKeepsAdditionalPropertiesFalse) {
  EXPECT_EQ(shrink_tools(R"([{"type":"function","function":{"name":"f","strict":true,"parameters":)"
                         R"({"type":"object","properties":{"a":{"type":"string"}},"required":["a"],)"
                         R"("additionalProperties":false}}}])"),
            R"([{"type":"function","function":{"name":"f","strict":true,"parameters":)"
            R"({"type":"object","properties":{"a":{"type":"string"}},"required":["a"],)"
            R"("additionalProperties":false}}}])");
  EXPECT_EQ(shrink_tools(R"([{"type":"function","name":"f","parameters":{"type":"object",)"
                         R"("additionalProperties":false}}])"),
            R"([{"type":"function","name":"f","parameters":{"type":"object"}}])");
}

TEST(ShrinkTool, ToolDescriptionUsesTheToolCap) {
  std::string out = shrink_tools(
      R"([{"name":"t","description":"Search the accessibility snapshot of the current page for )"
      R"(text or a regular expression and return the matching nodes with context. Extra.","inputSchema":{}}])");
  auto doc = json::parse(out);
  ASSERT_TRUE(doc);
  const std::string& d = doc->items[0].find("description")->text;
  EXPECT_LE(d.size(), kToolLeadCap);
  EXPECT_GT(d.size(), kParamLeadCap);
}

}  // namespace
}  // namespace caveman::toolschema
