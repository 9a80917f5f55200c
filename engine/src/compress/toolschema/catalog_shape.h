// Tool-catalog shape detection: where the tools of a JSON document are and which dialect
// each one speaks.
//
// Containers: an MCP `tools/list` result or any `{"tools":[…]}` object, a legacy OpenAI
// `{"functions":[…]}`, a JSON-RPC response `{"result":{"tools":[…]}}`, a bare array of tools,
// or a single tool object. Dialects: MCP (`inputSchema`), Anthropic (`input_schema`), OpenAI
// Chat (`{"type":"function","function":{…,"parameters"}}`) and flat OpenAI/Responses
// (`parameters`). A tool needs a non-empty string `name` (its own or its `function`'s);
// elements without one are left alone. ToolRefs point into the document they were found in
// and stay valid while that document's tool arrays are not resized.
#ifndef CAVEMAN_COMPRESS_TOOLSCHEMA_CATALOG_SHAPE_H_
#define CAVEMAN_COMPRESS_TOOLSCHEMA_CATALOG_SHAPE_H_

#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"

namespace caveman::toolschema {

enum class CatalogShape { kNone, kToolsObject, kFunctionsObject, kJsonRpcResult, kArray, kSingleTool };

// "tools-object", "functions-object", "jsonrpc-result", "array", "single-tool", "none".
std::string_view shape_name(CatalogShape shape);

struct ToolRef {
  json::Value* envelope = nullptr;  // the tool object as it appears in the container
  json::Value* function = nullptr;  // OpenAI Chat: the nested `function` object, else null
  std::string name;
  std::string dialect;            // "mcp", "anthropic", "openai", "openai-flat", "bare"
};

struct Catalog {
  CatalogShape shape = CatalogShape::kNone;
  std::vector<ToolRef> tools;
};

// The catalog inside `doc`; shape kNone (and no tools) when `doc` holds no named tool.
Catalog find_catalog(json::Value& doc);

// The tool's input schema member (`inputSchema`, `input_schema` or `parameters`), or null.
json::Value* input_schema_of(const ToolRef& tool);

}  // namespace caveman::toolschema

#endif  // CAVEMAN_COMPRESS_TOOLSCHEMA_CATALOG_SHAPE_H_
