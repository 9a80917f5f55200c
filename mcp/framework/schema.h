// JSON Schema shorthands for tool catalogs (MCP inputSchema / outputSchema): the pieces the
// tools of caveman-mcp and cavemem spelled out the same way, each member's name once.
#ifndef CAVEMAN_MCP_FRAMEWORK_SCHEMA_H_
#define CAVEMAN_MCP_FRAMEWORK_SCHEMA_H_

#include <initializer_list>
#include <utility>

#include "json_types.h"

namespace caveman::mcp::schema {

// {"type": type}
Json of_type(const char* type);

// {"type": [type, "null"]}: a member that is null when it has no value.
Json nullable(const char* type);

// One member of an object schema: its name, its schema and whether "required" lists it.
struct Member {
  Member(const char* name, const char* type, bool required = true)
      : name(name), schema(of_type(type)), required(required) {}
  Member(const char* name, Json schema, bool required = true)
      : name(name), schema(std::move(schema)), required(required) {}

  const char* name;
  Json schema;
  bool required;
};

// {"type": "object", "properties": {…}, "required": […]}, members in the order given;
// "required" is left out when no member is required.
Json object(std::initializer_list<Member> members);

}  // namespace caveman::mcp::schema

#endif  // CAVEMAN_MCP_FRAMEWORK_SCHEMA_H_
