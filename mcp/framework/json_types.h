// The JSON type of the MCP framework and its one serializer.
#ifndef CAVEMAN_MCP_FRAMEWORK_JSON_TYPES_H_
#define CAVEMAN_MCP_FRAMEWORK_JSON_TYPES_H_

#include <string>

#include <nlohmann/json.hpp>

namespace caveman::mcp {

using Json = nlohmann::ordered_json;

// Serializes `j` compactly; invalid UTF-8 inside strings is replaced (never throws).
std::string dump(const Json& j);

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_FRAMEWORK_JSON_TYPES_H_
