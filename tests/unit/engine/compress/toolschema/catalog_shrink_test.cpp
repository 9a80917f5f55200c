#include <gtest/gtest.h>

#include <string>

#include "caveman/toolschema.h"
#include "compress/toolschema/catalog_profile.h"
#include "json/json.h"
#include "unit/engine/compress/toolschema/toolschema_fixtures.h"

namespace caveman::toolschema {
namespace {

using ::caveman::testing::NamedCatalog;
using ::caveman::testing::real_catalogs;

TEST(ShrinkCatalog, EveryShapeKeepsItsShapeAndItsFacts) {
  for (const NamedCatalog& c : real_catalogs()) {
    struct Variant {
      std::string json;
      std::string shape;
      std::string dialect;
    };
    for (const Variant& v : {Variant{c.catalog, "tools-object", "mcp"},
                             Variant{testing::as_bare_array(c.catalog), "array", "mcp"},
                             Variant{testing::as_anthropic(c.catalog), "tools-object", "anthropic"},
                             Variant{testing::as_openai(c.catalog), "tools-object", "openai"}}) {
      CatalogShrink s = shrink_catalog(v.json);
      ASSERT_TRUE(s.shrunk) << s.note;
      EXPECT_EQ(s.shape, v.shape);
      EXPECT_EQ(s.dialect, v.dialect);
      EXPECT_LT(s.output.size(), v.json.size() * 6 / 10) << c.name << " " << v.dialect;
      EXPECT_EQ(testing::selection_facts(s.output), testing::selection_facts(v.json))
          << c.name << " " << v.dialect;
      auto before = json::parse(v.json);
      auto after = json::parse(s.output);
      ASSERT_TRUE(after);
      // Same container, same tool count, same member holding the schema.
      EXPECT_EQ(before->is_array(), after->is_array());
      Catalog cb = find_catalog(*before);
      Catalog ca = find_catalog(*after);
      ASSERT_EQ(cb.tools.size(), ca.tools.size());
      ASSERT_EQ(s.tools.size(), ca.tools.size());
      for (std::size_t i = 0; i < ca.tools.size(); ++i) {
        EXPECT_EQ(ca.tools[i].dialect, cb.tools[i].dialect);
        EXPECT_EQ(s.tools[i].name, ca.tools[i].name);
        ASSERT_NE(input_schema_of(ca.tools[i]), nullptr);
        EXPECT_EQ(input_schema_of(ca.tools[i])->find("type")->text, "object");
      }
    }
  }
}

TEST(ShrinkCatalog, IsDeterministicAndIdempotent) {
  for (const NamedCatalog& c : real_catalogs()) {
    CatalogShrink once = shrink_catalog(c.catalog);
    ASSERT_TRUE(once.shrunk);
    EXPECT_EQ(shrink_catalog(c.catalog).output, once.output);
    CatalogShrink twice = shrink_catalog(once.output);
    ASSERT_TRUE(twice.shrunk);
    EXPECT_EQ(twice.output, once.output) << c.name;
  }
}

TEST(ShrinkCatalog, ProfileCheckGuardsTheTransform) {
  for (const NamedCatalog& c : real_catalogs()) {
    auto before = json::parse(c.catalog);
    auto after = json::parse(shrink_catalog(c.catalog).output);
    std::string why;
    EXPECT_TRUE(profile_preserved(profile_catalog(find_catalog(*before)),
                                  profile_catalog(find_catalog(*after)), &why))
        << why;
    // Changing one type is caught.
    Catalog ca = find_catalog(*after);
    json::Value* schema = input_schema_of(ca.tools[0]);
    schema->find("type")->text = "string";
    EXPECT_FALSE(profile_preserved(profile_catalog(find_catalog(*before)),
                                   profile_catalog(find_catalog(*after)), &why));
    EXPECT_NE(why.find("type:"), std::string::npos) << why;
  }
}

TEST(ShrinkCatalog, InvalidOrNonCatalogJsonIsNotShrunk) {
  for (std::string_view bad : {"{\"tools\":[", "not json", "", "{\"tools\":[]} trailing",
                               "[{\"name\":\"a\",\"description\":\"\xFF\"}]"}) {
    CatalogShrink s = shrink_catalog(bad);
    EXPECT_FALSE(s.shrunk);
    EXPECT_EQ(s.shape, "none");
    EXPECT_EQ(s.note, "cave_invalid_catalog: input is not valid JSON") << bad;
  }
  CatalogShrink schema = shrink_catalog(R"({"type":"object","properties":{"a":{}}})");
  EXPECT_FALSE(schema.shrunk);
  EXPECT_EQ(schema.note, "cave_invalid_catalog: no tool with a non-empty name");
}

TEST(ShrinkCatalog, KeepsTheFinalNewlineAndTheContainerMembers) {
  std::string in =
      "{\"tools\":[{\"name\":\"t\",\"description\":\"The tool. It does things.\","
      "\"inputSchema\":{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
      "\"type\":\"object\"}}],\"nextCursor\":\"abc\"}\n";
  CatalogShrink s = shrink_catalog(in);
  ASSERT_TRUE(s.shrunk);
  EXPECT_EQ(s.output,
            "{\"tools\":[{\"name\":\"t\",\"description\":\"Tool\",\"inputSchema\":{\"type\":"
            "\"object\"}}],\"nextCursor\":\"abc\"}\n");
}

TEST(ShrinkCatalog, ListsWhatEachToolSpentBeforeShrinking) {
  CatalogShrink s = shrink_catalog(
      R"({"tools":[{"name":"t","title":"T","description":"Does it.","annotations":{"x":1},)"
      R"("inputSchema":{"type":"object","$schema":"s","properties":{"pageId":{"type":"number",)"
      R"("description":"Page.","examples":[1.50]}},"additionalProperties":false}}]})");
  ASSERT_TRUE(s.shrunk) << s.note;
  ASSERT_EQ(s.tools.size(), 1u);
  using Described = std::pair<std::string, std::string>;
  EXPECT_EQ(s.tools[0].descriptions,
            (std::vector<Described>{{"", "Does it."}, {"pageId", "Page."}}));
  EXPECT_EQ(s.tools[0].client_only,
            (std::vector<std::string>{R"("title":"T")", R"("annotations":{"x":1})",
                                      R"("$schema":"s")", R"("examples":[1.50])",
                                      R"("additionalProperties":false)"}));
}

}  // namespace
}  // namespace caveman::toolschema
