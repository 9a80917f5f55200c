// The real MCP catalogs (support/catalog_fixtures.h) and the same tools rewritten into the
// other catalog shapes (Anthropic `tools`, OpenAI `tools`, a bare array), for the toolschema
// tests, and the selection facts a shrunk catalog must keep.
#ifndef CAVEMAN_TESTS_UNIT_ENGINE_COMPRESS_TOOLSCHEMA_TOOLSCHEMA_FIXTURES_H_
#define CAVEMAN_TESTS_UNIT_ENGINE_COMPRESS_TOOLSCHEMA_TOOLSCHEMA_FIXTURES_H_

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "compress/toolschema/catalog_shape.h"
#include "json/json.h"
#include "support/catalog_fixtures.h"

namespace caveman::toolschema::testing {

using ::caveman::testing::chrome_devtools_catalog;
using ::caveman::testing::playwright_catalog;

// The MCP tools of `mcp_result` ({"tools":[{name,description,inputSchema,…}]}) as Anthropic
// request tools: {"tools":[{name,description,input_schema}]}.
inline std::string as_anthropic(const std::string& mcp_result) {
  json::Value doc = *json::parse(mcp_result);
  json::Value tools = json::Value::array();
  for (const json::Value& t : doc.find("tools")->items) {
    json::Value a = json::Value::object();
    a.add("name", *t.find("name"));
    if (const json::Value* d = t.find("description")) a.add("description", *d);
    a.add("input_schema", *t.find("inputSchema"));
    tools.items.push_back(std::move(a));
  }
  json::Value out = json::Value::object();
  out.add("tools", std::move(tools));
  return json::to_compact(out);
}

// OpenAI Chat Completions tools:
// {"tools":[{"type":"function","function":{name,description,parameters}}]}.
inline std::string as_openai(const std::string& mcp_result) {
  json::Value doc = *json::parse(mcp_result);
  json::Value tools = json::Value::array();
  for (const json::Value& t : doc.find("tools")->items) {
    json::Value fn = json::Value::object();
    fn.add("name", *t.find("name"));
    if (const json::Value* d = t.find("description")) fn.add("description", *d);
    fn.add("parameters", *t.find("inputSchema"));
    json::Value o = json::Value::object();
    o.add("type", json::Value::string("function"));
    o.add("function", std::move(fn));
    tools.items.push_back(std::move(o));
  }
  json::Value out = json::Value::object();
  out.add("tools", std::move(tools));
  return json::to_compact(out);
}

// A bare array of the MCP tools.
inline std::string as_bare_array(const std::string& mcp_result) {
  return json::to_compact(*json::parse(mcp_result)->find("tools"));
}

// Every tool name, parameter name (at any depth), `type` name, `required` entry and enum value
// in the catalog `json`, independently of the shrinker's own profile check.
inline std::multiset<std::string> selection_facts(const std::string& json) {
  std::multiset<std::string> facts;
  std::optional<json::Value> doc = json::parse(json);
  if (!doc) return {"invalid JSON"};
  for (const ToolRef& tool : find_catalog(*doc).tools) {
    facts.insert("tool " + tool.name);
    std::vector<std::pair<const json::Value*, std::string>> stack;
    if (const json::Value* s = input_schema_of(tool)) stack.emplace_back(s, tool.name);
    while (!stack.empty()) {
      auto [v, path] = stack.back();
      stack.pop_back();
      for (const json::Value& item : v->items) stack.emplace_back(&item, path);
      for (const json::Member& m : v->members) {
        if (m.key == "properties" && m.value.is_object()) {
          for (const json::Member& p : m.value.members) {
            facts.insert("param " + path + "." + p.key);
            stack.emplace_back(&p.value, path + "." + p.key);
          }
        } else if (m.key == "type") {
          if (m.value.is_string()) facts.insert("type " + path + "=" + m.value.text);
          for (const json::Value& t : m.value.items) facts.insert("type " + path + "=" + t.text);
        } else if (m.key == "required" && m.value.is_array()) {
          for (const json::Value& r : m.value.items) {
            facts.insert("required " + path + ":" + r.text);
          }
        } else if (m.key == "enum" && m.value.is_array()) {
          for (const json::Value& e : m.value.items) {
            if (!e.is_null()) facts.insert("enum " + path + "=" + json::to_compact(e));
          }
        } else if (m.value.is_object() || m.value.is_array()) {
          stack.emplace_back(&m.value, path);
        }
      }
    }
  }
  return facts;
}

}  // namespace caveman::toolschema::testing

#endif  // CAVEMAN_TESTS_UNIT_ENGINE_COMPRESS_TOOLSCHEMA_TOOLSCHEMA_FIXTURES_H_
