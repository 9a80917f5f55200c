// Fixture access for the caveman-shrink unit tests: the real MCP catalogs captured by
// tests/e2e/shrink/capture_catalogs.mjs, and the same tools rewritten into the other
// catalog shapes (Anthropic `tools`, OpenAI `tools`, a bare array).
#ifndef CAVEMAN_TESTS_UNIT_SHRINK_SHRINK_FIXTURES_H_
#define CAVEMAN_TESTS_UNIT_SHRINK_SHRINK_FIXTURES_H_

#include <string>
#include <vector>

#include "json_doc.h"
#include "support/test_support.h"

namespace caveman::shrink::testing {

inline std::string fixture_path(const std::string& name) {
  return std::string(CAVEMAN_SOURCE_DIR) + "/tests/testdata/shrink/" + name;
}

inline std::string playwright_catalog() {
  return caveman::testing::read_file(fixture_path("playwright_mcp_0.0.83.tools.json"));
}

inline std::string chrome_devtools_catalog() {
  return caveman::testing::read_file(fixture_path("chrome_devtools_mcp_1.11.0.tools.json"));
}

// The MCP tools of `mcp_result` ({"tools":[{name,description,inputSchema,…}]}) as Anthropic
// request tools: {"tools":[{name,description,input_schema}]}.
inline std::string as_anthropic(const std::string& mcp_result) {
  JsonValue doc = *parse_json(mcp_result);
  JsonValue tools = JsonValue::array();
  for (const JsonValue& t : doc.find("tools")->items) {
    JsonValue a = JsonValue::object();
    a.add("name", *t.find("name"));
    if (const JsonValue* d = t.find("description")) a.add("description", *d);
    a.add("input_schema", *t.find("inputSchema"));
    tools.items.push_back(std::move(a));
  }
  JsonValue out = JsonValue::object();
  out.add("tools", std::move(tools));
  return to_json(out);
}

// OpenAI Chat Completions tools: {"tools":[{"type":"function","function":{name,description,parameters}}]}.
inline std::string as_openai(const std::string& mcp_result) {
  JsonValue doc = *parse_json(mcp_result);
  JsonValue tools = JsonValue::array();
  for (const JsonValue& t : doc.find("tools")->items) {
    JsonValue fn = JsonValue::object();
    fn.add("name", *t.find("name"));
    if (const JsonValue* d = t.find("description")) fn.add("description", *d);
    fn.add("parameters", *t.find("inputSchema"));
    JsonValue o = JsonValue::object();
    o.add("type", JsonValue::string("function"));
    o.add("function", std::move(fn));
    tools.items.push_back(std::move(o));
  }
  JsonValue out = JsonValue::object();
  out.add("tools", std::move(tools));
  return to_json(out);
}

// A bare array of the MCP tools.
inline std::string as_bare_array(const std::string& mcp_result) {
  return to_json(*parse_json(mcp_result)->find("tools"));
}

}  // namespace caveman::shrink::testing

#endif  // CAVEMAN_TESTS_UNIT_SHRINK_SHRINK_FIXTURES_H_
