#include "schema.h"

namespace caveman::mcp::schema {

Json of_type(const char* type) { return Json{{"type", type}}; }

Json nullable(const char* type) { return Json{{"type", Json::array({type, "null"})}}; }

Json object(std::initializer_list<Member> members) {
  Json properties = Json::object();
  Json required = Json::array();
  for (const Member& m : members) {
    properties[m.name] = m.schema;
    if (m.required) required.push_back(m.name);
  }
  Json out = Json{{"type", "object"}, {"properties", std::move(properties)}};
  if (!required.empty()) out["required"] = std::move(required);
  return out;
}

}  // namespace caveman::mcp::schema
