#include "compress/toolschema/tool_costs.h"

#include <string>
#include <string_view>

#include "compress/toolschema/schema_shrink.h"

namespace caveman::toolschema {
namespace {

bool is_client_only_schema_member(const json::Member& m) {
  if (is_doc_keyword(m.key)) return true;
  return m.key == "additionalProperties" && m.value.is_bool() && !m.value.boolean;
}

std::string member_json(const json::Member& m) {
  std::string text;
  json::write_string(m.key, text);
  text.push_back(':');
  json::write_compact(m.value, text);
  return text;
}

void walk_schema(const json::Value& v, std::string_view param, ShrunkTool& tool) {
  if (v.is_array()) {
    for (const json::Value& item : v.items) walk_schema(item, param, tool);
    return;
  }
  if (!v.is_object()) return;
  for (const json::Member& m : v.members) {
    if (m.key == "description" && m.value.is_string()) {
      tool.descriptions.emplace_back(std::string(param), m.value.text);
    } else if (is_client_only_schema_member(m)) {
      tool.client_only.push_back(member_json(m));
    } else if (m.key == "properties" && m.value.is_object()) {
      for (const json::Member& p : m.value.members) walk_schema(p.value, p.key, tool);
    } else if (m.key != "enum" && m.key != "const" && m.key != "default") {
      walk_schema(m.value, param, tool);
    }
  }
}

}  // namespace

void list_tool_costs(const json::Value& envelope, ShrunkTool& tool) {
  for (const json::Value* holder : {&envelope, envelope.find("function")}) {
    if (holder == nullptr || !holder->is_object()) continue;
    for (const json::Member& m : holder->members) {
      if (is_client_only_tool_member(m.key)) {
        tool.client_only.push_back(member_json(m));
      } else if (m.key == "description" && m.value.is_string()) {
        tool.descriptions.emplace_back(std::string(), m.value.text);
      } else if (m.key == "inputSchema" || m.key == "input_schema" || m.key == "parameters") {
        walk_schema(m.value, {}, tool);
      }
    }
  }
}

}  // namespace caveman::toolschema
