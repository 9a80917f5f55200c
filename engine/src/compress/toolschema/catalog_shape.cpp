#include "compress/toolschema/catalog_shape.h"

namespace caveman::toolschema {
namespace {

const json::Value* name_of(const json::Value& obj) {
  const json::Value* name = obj.find("name");
  return name != nullptr && name->is_string() && !name->text.empty() ? name : nullptr;
}

// A named tool in `v`, or nullopt.
bool to_tool(json::Value& v, ToolRef& out) {
  if (!v.is_object()) return false;
  json::Value* fn = v.find("function");
  if (fn != nullptr && fn->is_object() && name_of(*fn) != nullptr) {
    out = ToolRef{&v, fn, name_of(*fn)->text, "openai"};
    return true;
  }
  const json::Value* name = name_of(v);
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

void collect(json::Value& array, Catalog& catalog) {
  for (json::Value& item : array.items) {
    ToolRef ref;
    if (to_tool(item, ref)) catalog.tools.push_back(std::move(ref));
  }
}

bool looks_like_single_tool(const json::Value& obj) {
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

Catalog find_catalog(json::Value& doc) {
  Catalog catalog;
  if (doc.is_array()) {
    catalog.shape = CatalogShape::kArray;
    collect(doc, catalog);
  } else if (doc.is_object()) {
    json::Value* tools = doc.find("tools");
    json::Value* functions = doc.find("functions");
    json::Value* result = doc.find("result");
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

json::Value* input_schema_of(const ToolRef& tool) {
  json::Value* holder = tool.function != nullptr ? tool.function : tool.envelope;
  for (std::string_view key : {"inputSchema", "input_schema", "parameters"}) {
    if (json::Value* s = holder->find(key)) return s;
  }
  return nullptr;
}

}  // namespace caveman::toolschema
