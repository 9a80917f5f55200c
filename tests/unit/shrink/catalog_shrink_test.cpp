#include "catalog_shrink.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "caveman/ccr.h"
#include "caveman/tokens.h"
#include "support/catalog_fixtures.h"
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

using ::caveman::testing::NamedCatalog;
using ::caveman::testing::real_catalogs;

TEST(CatalogShrink, RealCatalogsLoseHalfTheirTokensAndAreRecoverable) {
  auto store = memory_store();
  const tokens::Counter& counter = tokens::default_counter();
  for (const NamedCatalog& c : real_catalogs()) {
    CatalogRun run = run_catalog_shrink(c.catalog, store.get(), "", counter);
    ASSERT_FALSE(run.report.recovery_handle.empty()) << c.name << ": " << run.report.note;
    EXPECT_GE(run.report.ratio, 0.50) << c.name;
    EXPECT_EQ(run.report.tokens_after, static_cast<std::int64_t>(counter.count(run.output)));
    EXPECT_EQ(run.report.shape, "tools-object");
    EXPECT_EQ(run.report.dialect, "mcp");
    // Recoverable byte for byte.
    auto original = store->get(run.report.recovery_handle);
    ASSERT_TRUE(original.ok());
    EXPECT_EQ(original.value(), c.catalog);
    EXPECT_EQ(run.report.recovery_handle, ccr::handle_for(c.catalog));
  }
}

// SHA-256 prefixes (as CCR handles) of caveman-shrink's stdout for the two real catalogs,
// measured before the shrinker moved into the engine (caveman/toolschema.h): the move must
// not change a byte.
TEST(CatalogShrink, RealCatalogOutputBytesAreUnchanged) {
  auto store = memory_store();
  const tokens::Counter& counter = tokens::default_counter();
  CatalogRun playwright =
      run_catalog_shrink(testing::playwright_catalog(), store.get(), "", counter);
  EXPECT_EQ(ccr::handle_for(playwright.output), "ccr_1c8eee614d6d2225ffd6f29bb248d871");
  EXPECT_EQ(playwright.report.tokens_after, 2095);
  CatalogRun chrome =
      run_catalog_shrink(testing::chrome_devtools_catalog(), store.get(), "", counter);
  EXPECT_EQ(ccr::handle_for(chrome.output), "ccr_75728c9181d6963afc7498aaea893eff");
  EXPECT_EQ(chrome.report.tokens_after, 3162);
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
