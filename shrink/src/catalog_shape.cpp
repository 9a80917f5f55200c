#include "catalog_shape.h"

namespace caveman::shrink {
namespace {

const JsonValue* name_of(const JsonValue& obj) {
  const JsonValue* name = obj.find("name");
  return name != nullptr && name->is_string() && !name->text.empty() ? name : nullptr;
}

// A named tool in `v`, or nullopt.
bool to_tool(JsonValue& v, ToolRef& out) {
  if (!v.is_object()) return false;
  JsonValue* fn = v.find("function");
  if (fn != nullptr && fn->is_object() && name_of(*fn) != nullptr) {
    out = ToolRef{&v, fn, name_of(*fn)->text, "openai"};
    return true;
  }
  const JsonValue* name = name_of(v);
  if (name == nullptr) return false;
  std::string dialect = "bare";
  if (v.find("inputSchema") != nullptr) {
    dialect = "mcp";
  } else if (v.find("input_schema") != nullptr) {
    dialect = "anthropic";
  } else if (v.find("parameters") != nullptr) {
    dialect = "openai-flat";
  }
  out = ToolRef{&v, nullptr, name->text, dialect};
  return true;
}

void collect(JsonValue& array, Catalog& catalog) {
  for (JsonValue& item : array.items) {
    ToolRef ref;
    if (to_tool(item, ref)) catalog.tools.push_back(std::move(ref));
  }
}

bool looks_like_single_tool(const JsonValue& obj) {
  if (obj.find("function") != nullptr) return true;
  if (name_of(obj) == nullptr) return false;
  return obj.find("inputSchema") != nullptr || obj.find("input_schema") != nullptr ||
         obj.find("parameters") != nullptr;
}

}  // namespace

std::string_view shape_name(CatalogShape shape) {
  switch (shape) {
    case CatalogShape::kToolsObject:
      return "tools-object";
    case CatalogShape::kFunctionsObject:
      return "functions-object";
    case CatalogShape::kJsonRpcResult:
      return "jsonrpc-result";
    case CatalogShape::kArray:
      return "array";
    case CatalogShape::kSingleTool:
      return "single-tool";
    case CatalogShape::kNone:
      break;
  }
  return "none";
}

Catalog find_catalog(JsonValue& doc) {
  Catalog catalog;
  if (doc.is_array()) {
    catalog.shape = CatalogShape::kArray;
    collect(doc, catalog);
  } else if (doc.is_object()) {
    JsonValue* tools = doc.find("tools");
    JsonValue* functions = doc.find("functions");
    JsonValue* result = doc.find("result");
    if (tools != nullptr && tools->is_array()) {
      catalog.shape = CatalogShape::kToolsObject;
      collect(*tools, catalog);
    } else if (functions != nullptr && functions->is_array()) {
      catalog.shape = CatalogShape::kFunctionsObject;
      collect(*functions, catalog);
    } else if (result != nullptr && result->is_object() && result->find("tools") != nullptr &&
               result->find("tools")->is_array()) {
      catalog.shape = CatalogShape::kJsonRpcResult;
      collect(*result->find("tools"), catalog);
    } else if (looks_like_single_tool(doc)) {
      ToolRef ref;
      if (to_tool(doc, ref)) {
        catalog.shape = CatalogShape::kSingleTool;
        catalog.tools.push_back(std::move(ref));
      }
    }
  }
  if (catalog.tools.empty()) catalog.shape = CatalogShape::kNone;
  return catalog;
}

JsonValue* input_schema_of(const ToolRef& tool) {
  JsonValue* holder = tool.function != nullptr ? tool.function : tool.envelope;
  for (std::string_view key : {"inputSchema", "input_schema", "parameters"}) {
    if (JsonValue* s = holder->find(key)) return s;
  }
  return nullptr;
}

}  // namespace caveman::shrink
