#include "compress/toolschema/catalog_shape.h"

#include <gtest/gtest.h>

#include "unit/engine/compress/toolschema/toolschema_fixtures.h"

namespace caveman::toolschema {
namespace {

Catalog find(json::Value& doc) { return find_catalog(doc); }

TEST(CatalogShape, RecognisesEveryContainer) {
  struct Case {
    std::string json;
    CatalogShape shape;
    std::string dialect;
  };
  std::vector<Case> cases = {
      {R"({"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"x"})",
       CatalogShape::kToolsObject, "mcp"},
      {R"({"tools":[{"name":"a","input_schema":{"type":"object"}}]})", CatalogShape::kToolsObject,
       "anthropic"},
      {R"({"tools":[{"type":"function","function":{"name":"a","parameters":{}}}]})",
       CatalogShape::kToolsObject, "openai"},
      {R"([{"type":"function","name":"a","parameters":{}}])", CatalogShape::kArray, "openai-flat"},
      {R"({"functions":[{"name":"a","parameters":{}}]})", CatalogShape::kFunctionsObject,
       "openai-flat"},
      {R"({"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{}}]}})",
       CatalogShape::kJsonRpcResult, "mcp"},
      {R"({"name":"a","inputSchema":{"type":"object"}})", CatalogShape::kSingleTool, "mcp"},
      {R"([{"name":"a","description":"no schema"}])", CatalogShape::kArray, "bare"},
  };
  for (const Case& c : cases) {
    auto doc = json::parse(c.json);
    ASSERT_TRUE(doc) << c.json;
    Catalog catalog = find(*doc);
    EXPECT_EQ(catalog.shape, c.shape) << c.json;
    ASSERT_EQ(catalog.tools.size(), 1u) << c.json;
    EXPECT_EQ(catalog.tools[0].name, "a");
    EXPECT_EQ(catalog.tools[0].dialect, c.dialect) << c.json;
  }
}

TEST(CatalogShape, NamelessToolsAreSkippedAndNoToolsMeansNoCatalog) {
  auto doc = json::parse(R"([{"name":""},{"inputSchema":{}},{"name":"ok","parameters":{}},3])");
  ASSERT_TRUE(doc);
  Catalog catalog = find(*doc);
  ASSERT_EQ(catalog.tools.size(), 1u);
  EXPECT_EQ(catalog.tools[0].name, "ok");
  for (std::string_view json : {R"({"type":"object","properties":{}})", R"([1,2,3])", R"("x")",
                                R"({"tools":"none"})", R"({"tools":[{"description":"x"}]})"}) {
    auto d = json::parse(json);
    ASSERT_TRUE(d);
    EXPECT_EQ(find(*d).shape, CatalogShape::kNone) << json;
    EXPECT_TRUE(find(*d).tools.empty());
  }
}

TEST(CatalogShape, InputSchemaOfEachDialect) {
  auto doc = json::parse(
      R"([{"name":"m","inputSchema":{"m":1}},{"name":"a","input_schema":{"a":1}},)"
      R"({"type":"function","function":{"name":"o","parameters":{"o":1}}},{"name":"n"}])");
  ASSERT_TRUE(doc);
  Catalog catalog = find(*doc);
  ASSERT_EQ(catalog.tools.size(), 4u);
  EXPECT_EQ(json::to_compact(*input_schema_of(catalog.tools[0])), R"({"m":1})");
  EXPECT_EQ(json::to_compact(*input_schema_of(catalog.tools[1])), R"({"a":1})");
  EXPECT_EQ(json::to_compact(*input_schema_of(catalog.tools[2])), R"({"o":1})");
  EXPECT_EQ(input_schema_of(catalog.tools[3]), nullptr);
}

TEST(CatalogShape, RealCatalogsAreMcpToolsObjects) {
  for (const std::string& text : {testing::playwright_catalog(), testing::chrome_devtools_catalog()}) {
    auto doc = json::parse(text);
    ASSERT_TRUE(doc);
    Catalog catalog = find(*doc);
    EXPECT_EQ(catalog.shape, CatalogShape::kToolsObject);
    EXPECT_GE(catalog.tools.size(), 25u);
    for (const ToolRef& t : catalog.tools) EXPECT_EQ(t.dialect, "mcp");
  }
}

}  // namespace
}  // namespace caveman::toolschema
