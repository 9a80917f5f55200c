#include "catalog_shrink.h"

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>

#include "caveman/ccr.h"
#include "caveman/tokens.h"
#include "catalog_profile.h"
#include "json_doc.h"
#include "shrink_fixtures.h"
#include "support/fault_store.h"

namespace caveman::shrink {
namespace {

using caveman::testing::FaultStore;
using caveman::testing::StoreFault;

std::unique_ptr<ccr::Store> memory_store() {
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return std::move(store).value();
}

// Every tool name, parameter name (at any depth), `required` entry and enum value in `json`.
std::multiset<std::string> selection_facts(const std::string& json) {
  std::multiset<std::string> facts;
  auto doc = parse_json(json);
  EXPECT_TRUE(doc);
  if (!doc) return facts;
  for (const ToolRef& tool : find_catalog(*doc).tools) {
    facts.insert("tool " + tool.name);
    std::vector<std::pair<const JsonValue*, std::string>> stack;
    if (const JsonValue* s = input_schema_of(tool)) stack.emplace_back(s, tool.name);
    while (!stack.empty()) {
      auto [v, path] = stack.back();
      stack.pop_back();
      for (const JsonValue& item : v->items) stack.emplace_back(&item, path);
      for (const JsonMember& m : v->members) {
        if (m.key == "properties" && m.value.is_object()) {
          for (const JsonMember& p : m.value.members) {
            facts.insert("param " + path + "." + p.key);
            stack.emplace_back(&p.value, path + "." + p.key);
          }
        } else if (m.key == "required" && m.value.is_array()) {
          for (const JsonValue& r : m.value.items) facts.insert("required " + path + ":" + r.text);
        } else if (m.key == "enum" && m.value.is_array()) {
          for (const JsonValue& e : m.value.items) {
            if (!e.is_null()) facts.insert("enum " + path + "=" + to_json(e));
          }
        } else if (m.value.is_object() || m.value.is_array()) {
          stack.emplace_back(&m.value, path);
        }
      }
    }
  }
  return facts;
}

struct FixtureCase {
  std::string name;
  std::string catalog;
};

std::vector<FixtureCase> real_catalogs() {
  return {{"playwright", testing::playwright_catalog()},
          {"chrome-devtools", testing::chrome_devtools_catalog()}};
}

TEST(CatalogShrink, RealCatalogsLoseHalfTheirTokensAndNoSelectionFact) {
  auto store = memory_store();
  const tokens::Counter& counter = tokens::default_counter();
  for (const FixtureCase& c : real_catalogs()) {
    CatalogRun run = run_catalog_shrink(c.catalog, store.get(), "", counter);
    ASSERT_FALSE(run.report.recovery_handle.empty()) << c.name << ": " << run.report.note;
    EXPECT_GE(run.report.ratio, 0.50) << c.name;
    EXPECT_EQ(run.report.tokens_after, static_cast<std::int64_t>(counter.count(run.output)));
    EXPECT_EQ(run.report.shape, "tools-object");
    EXPECT_EQ(run.report.dialect, "mcp");
    EXPECT_EQ(selection_facts(run.output), selection_facts(c.catalog)) << c.name;
    // Recoverable byte for byte.
    auto original = store->get(run.report.recovery_handle);
    ASSERT_TRUE(original.ok());
    EXPECT_EQ(original.value(), c.catalog);
    EXPECT_EQ(run.report.recovery_handle, ccr::handle_for(c.catalog));
  }
}

TEST(CatalogShrink, EveryShapeKeepsItsShapeAndItsFacts) {
  for (const FixtureCase& c : real_catalogs()) {
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
      EXPECT_EQ(shape_name(s.shape), v.shape);
      EXPECT_EQ(s.dialect, v.dialect);
      EXPECT_EQ(selection_facts(s.output), selection_facts(v.json)) << c.name << " " << v.dialect;
      auto before = parse_json(v.json);
      auto after = parse_json(s.output);
      ASSERT_TRUE(after);
      // Same container, same tool count, same member holding the schema.
      EXPECT_EQ(before->is_array(), after->is_array());
      Catalog cb = find_catalog(*before);
      Catalog ca = find_catalog(*after);
      ASSERT_EQ(cb.tools.size(), ca.tools.size());
      for (std::size_t i = 0; i < ca.tools.size(); ++i) {
        EXPECT_EQ(ca.tools[i].dialect, cb.tools[i].dialect);
        ASSERT_NE(input_schema_of(ca.tools[i]), nullptr);
        EXPECT_EQ(input_schema_of(ca.tools[i])->find("type")->text, "object");
      }
    }
  }
}

TEST(CatalogShrink, IsDeterministicAndIdempotent) {
  for (const FixtureCase& c : real_catalogs()) {
    CatalogShrink once = shrink_catalog(c.catalog);
    ASSERT_TRUE(once.shrunk);
    EXPECT_EQ(shrink_catalog(c.catalog).output, once.output);
    CatalogShrink twice = shrink_catalog(once.output);
    ASSERT_TRUE(twice.shrunk);
    EXPECT_EQ(twice.output, once.output) << c.name;
  }
}

TEST(CatalogShrink, ProfileCheckGuardsTheTransform) {
  for (const FixtureCase& c : real_catalogs()) {
    auto before = parse_json(c.catalog);
    auto after = parse_json(shrink_catalog(c.catalog).output);
    std::string why;
    EXPECT_TRUE(profile_preserved(profile_catalog(find_catalog(*before)),
                                  profile_catalog(find_catalog(*after)), &why))
        << why;
    // Removing one enum value is caught.
    Catalog ca = find_catalog(*after);
    JsonValue* schema = input_schema_of(ca.tools[0]);
    schema->find("type")->text = "string";
    EXPECT_FALSE(profile_preserved(profile_catalog(find_catalog(*before)),
                                   profile_catalog(find_catalog(*after)), &why));
    EXPECT_NE(why.find("type:"), std::string::npos) << why;
  }
}

TEST(CatalogShrink, InvalidJsonPassesThroughWithAWarning) {
  auto store = memory_store();
  for (std::string_view bad : {"{\"tools\":[", "not json", "", "{\"tools\":[]} trailing"}) {
    CatalogRun run = run_catalog_shrink(bad, store.get(), "", tokens::default_counter());
    EXPECT_EQ(run.output, bad);
    EXPECT_EQ(run.report.ratio, 0);
    EXPECT_TRUE(run.report.recovery_handle.empty());
    EXPECT_NE(run.warning.find("cave_invalid_catalog"), std::string::npos) << run.warning;
    EXPECT_NE(run.report.to_json().find("\"note\":\"passed through: cave_invalid_catalog"),
              std::string::npos);
  }
}

TEST(CatalogShrink, NonCatalogJsonPassesThrough) {
  auto store = memory_store();
  std::string schema = R"({"type":"object","title":"Not a catalog","properties":{"a":{}}})";
  CatalogRun run = run_catalog_shrink(schema, store.get(), "", tokens::default_counter());
  EXPECT_EQ(run.output, schema);
  EXPECT_EQ(run.report.shape, "none");
  EXPECT_NE(run.warning.find("no tool"), std::string::npos);
}

TEST(CatalogShrink, NotSmallerPassesThroughQuietly) {
  auto store = memory_store();
  std::string tiny = R"([{"name":"a","inputSchema":{"type":"object"}}])";
  CatalogRun run = run_catalog_shrink(tiny, store.get(), "", tokens::default_counter());
  EXPECT_EQ(run.output, tiny);
  EXPECT_TRUE(run.report.recovery_handle.empty());
  EXPECT_EQ(run.report.note, "passed through: not smaller");
  EXPECT_TRUE(run.warning.empty());
}

TEST(CatalogShrink, NoStoreOrAFailingStoreMeansTheOriginal) {
  std::string catalog = testing::playwright_catalog();
  CatalogRun none = run_catalog_shrink(catalog, nullptr, "cave_ccr_unavailable: locked",
                                       tokens::default_counter());
  EXPECT_EQ(none.output, catalog);
  EXPECT_TRUE(none.report.recovery_handle.empty());
  EXPECT_NE(none.warning.find("locked"), std::string::npos);

  auto faulty = FaultStore::over_memory_store();
  faulty->fail_writes(StoreFault::kBudgetExceeded);
  CatalogRun full = run_catalog_shrink(catalog, faulty.get(), "", tokens::default_counter());
  EXPECT_EQ(full.output, catalog);
  EXPECT_EQ(full.report.ratio, 0);
  EXPECT_NE(full.report.note.find("cave_ccr_budget_exceeded"), std::string::npos) << full.report.note;
}

TEST(CatalogShrink, KeepsTheFinalNewlineAndTheContainerMembers) {
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

TEST(CatalogReport, JsonFieldsInOrder) {
  CatalogReport r;
  r.tokens_before = 10;
  r.tokens_after = 4;
  r.ratio = 0.6;
  r.recovery_handle = "ccr_0123";
  r.shape = "array";
  r.dialect = "mcp";
  r.tools = 2;
  EXPECT_EQ(r.to_json(),
            R"({"tokens_before":10,"tokens_after":4,"ratio":0.6,"basis":"inferred",)"
            R"("content_type":"toolschema","shape":"array","dialect":"mcp","tools":2,)"
            R"("recovery_handle":"ccr_0123"})");
}

}  // namespace
}  // namespace caveman::shrink
