// The real MCP tool catalogs in tests/testdata/shrink (captured by
// tests/e2e/shrink/capture_catalogs.mjs), shared by the engine's toolschema tests and
// caveman-shrink's.
#ifndef CAVEMAN_TESTS_SUPPORT_CATALOG_FIXTURES_H_
#define CAVEMAN_TESTS_SUPPORT_CATALOG_FIXTURES_H_

#include <string>
#include <vector>

#include "support/test_support.h"

namespace caveman::testing {

inline std::string fixture_path(const std::string& name) {
  return std::string(CAVEMAN_SOURCE_DIR) + "/tests/testdata/shrink/" + name;
}

// @playwright/mcp 0.0.83 `tools/list` result (25 tools).
inline std::string playwright_catalog() {
  return read_file(fixture_path("playwright_mcp_0.0.83.tools.json"));
}

// chrome-devtools-mcp 1.11.0 `tools/list` result (32 tools).
inline std::string chrome_devtools_catalog() {
  return read_file(fixture_path("chrome_devtools_mcp_1.11.0.tools.json"));
}

struct NamedCatalog {
  std::string name;
  std::string catalog;
};

// Both catalogs, named "playwright" and "chrome-devtools".
inline std::vector<NamedCatalog> real_catalogs() {
  return {{"playwright", playwright_catalog()}, {"chrome-devtools", chrome_devtools_catalog()}};
}

}  // namespace caveman::testing

#endif  // CAVEMAN_TESTS_SUPPORT_CATALOG_FIXTURES_H_
