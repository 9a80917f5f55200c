// Tool-catalog shrinking: the one algorithm behind the engine's `toolschema` compressor and
// caveman-shrink (docs/engine.md "Tool catalogs", docs/shrink.md).
//
// A pure transform of catalog text: no tokens, no store. What a model needs to pick and call a
// tool stays (names, parameter names, types, enums, `required`, bounds, constraint sentences);
// documentation and client-only metadata go. A selection-profile check guards the result: if
// anything a model needs were lost, or the input is no catalog, nothing is shrunk and `note`
// says why. Deterministic (same input, same bytes) and idempotent. Thread-safe.
#ifndef CAVEMAN_TOOLSCHEMA_H_
#define CAVEMAN_TOOLSCHEMA_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace caveman::toolschema {

// One tool of a shrunk catalog, with what it spent before shrinking (caveman-shrink lint).
struct ShrunkTool {
  std::string name;
  std::string before_json;  // the tool envelope as given (compact)
  std::string after_json;   // the same tool, shrunk
  // Every description of the tool before shrinking, in document order, with the parameter
  // it documents ("" for the tool's own description and the schema's top level).
  std::vector<std::pair<std::string, std::string>> descriptions;
  // Each client-only member before shrinking (tool `title`, `annotations`, `_meta`…; schema
  // `$schema`, `title`, `examples`, `additionalProperties: false`…) as compact `"key":value`.
  std::vector<std::string> client_only;
};

struct CatalogShrink {
  bool shrunk = false;  // false: pass the input through; `note` says why
  std::string note;     // "<code>: …" (codes::kInvalidCatalog, kInternalError) when not shrunk
  // Where the tools were: "tools-object", "functions-object", "jsonrpc-result", "array",
  // "single-tool", or "none" when the input holds no named tool.
  std::string shape = "none";
  std::string dialect;  // "mcp", "anthropic", "openai", "openai-flat", "bare" or "mixed"
  std::string output;   // compact JSON of the shrunk document (+ the input's final newline)
  std::vector<ShrunkTool> tools;
};

// Shrinks the catalog in `input`: an MCP `tools/list` result or any `{"tools":[…]}`, a legacy
// `{"functions":[…]}`, a JSON-RPC `{"result":{"tools":[…]}}`, a bare array of tools or one tool
// object (MCP, Anthropic, OpenAI Chat and flat OpenAI dialects). Invalid JSON or no tool with
// a non-empty name → shrunk == false with a `codes::kInvalidCatalog` note.
CatalogShrink shrink_catalog(std::string_view input);

}  // namespace caveman::toolschema

#endif  // CAVEMAN_TOOLSCHEMA_H_
