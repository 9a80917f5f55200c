#include "compress/toolschema/catalog_profile.h"

#include <algorithm>
#include <string_view>

namespace caveman::toolschema {
namespace {

bool is_subschema_key(std::string_view key) {
  for (std::string_view k : {"items", "prefixItems", "additionalItems", "unevaluatedItems",
                             "unevaluatedProperties", "additionalProperties", "propertyNames",
                             "contains", "not", "if", "then", "else", "allOf", "anyOf",
                             "oneOf"}) {
    if (key == k) return true;
  }
  return false;
}

std::string join(std::string_view path, std::string_view child, std::string_view sep) {
  if (path.empty()) return std::string(child);
  return std::string(path) + std::string(sep) + std::string(child);
}

void walk(const json::Value& v, const std::string& path, std::vector<std::string>& out) {
  if (v.is_array()) {
    for (const json::Value& item : v.items) walk(item, path, out);
    return;
  }
  if (!v.is_object()) return;
  for (const json::Member& m : v.members) {
    const json::Value& x = m.value;
    if (m.key == "type") {
      if (x.is_string()) out.push_back("type:" + path + "=" + x.text);
      for (const json::Value& t : x.items) {
        if (t.is_string()) out.push_back("type:" + path + "=" + t.text);
      }
    } else if (m.key == "enum" && x.is_array()) {
      for (const json::Value& e : x.items) {
        out.push_back("enum:" + path + "=" + json::to_compact(e));
      }
    } else if (m.key == "const") {
      out.push_back("enum:" + path + "=" + json::to_compact(x));
    } else if (m.key == "required" && x.is_array()) {
      for (const json::Value& r : x.items) {
        if (r.is_string()) out.push_back("required:" + join(path, r.text, "."));
      }
    } else if (m.key == "properties" && x.is_object()) {
      for (const json::Member& p : x.members) {
        std::string child = join(path, p.key, ".");
        out.push_back("param:" + child);
        walk(p.value, child, out);
      }
    } else if ((m.key == "$defs" || m.key == "definitions" || m.key == "patternProperties" ||
                m.key == "dependentSchemas") &&
               x.is_object()) {
      for (const json::Member& p : x.members) {
        walk(p.value, join(path, m.key + "/" + p.key, "."), out);
      }
    } else if (m.key == "items" || m.key == "prefixItems") {
      walk(x, path + "[]", out);
    } else if (is_subschema_key(m.key)) {
      walk(x, path, out);
    }
  }
}

}  // namespace

std::vector<std::string> profile_schema(const json::Value& schema) {
  std::vector<std::string> entries;
  walk(schema, "", entries);
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
  return entries;
}

std::vector<ToolProfile> profile_catalog(const Catalog& catalog) {
  std::vector<ToolProfile> out;
  for (const ToolRef& tool : catalog.tools) {
    ToolProfile p;
    p.name = tool.name;
    if (const json::Value* schema = input_schema_of(tool)) p.entries = profile_schema(*schema);
    out.push_back(std::move(p));
  }
  return out;
}

bool profile_preserved(const std::vector<ToolProfile>& before,
                       const std::vector<ToolProfile>& after, std::string* why) {
  if (before.size() != after.size()) {
    if (why != nullptr) *why = "tool count changed";
    return false;
  }
  for (std::size_t i = 0; i < before.size(); ++i) {
    if (before[i].name != after[i].name) {
      if (why != nullptr) *why = "tool renamed: " + before[i].name;
      return false;
    }
    for (const std::string& e : before[i].entries) {
      if (!std::binary_search(after[i].entries.begin(), after[i].entries.end(), e)) {
        if (why != nullptr) *why = before[i].name + " lost " + e;
        return false;
      }
    }
  }
  return true;
}

}  // namespace caveman::toolschema
