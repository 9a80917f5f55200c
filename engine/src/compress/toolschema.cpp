// toolschema — tool catalogs (Anthropic `input_schema`, MCP `inputSchema`, OpenAI
// `function.parameters`), forced only (docs/spec/compressors.md#toolschema).
//
// Envelopes keep every member (names, annotations, `_meta`, `cache_control`, vendor
// fields); only schemas and descriptions shrink. Inside a schema, documentation-only
// members go (`title`, `examples`, `$comment`, `$schema`), long descriptions keep their
// constraint sentences, and everything that constrains a call stays verbatim. `$ref` is
// never resolved, so reference cycles cannot loop. Output is compact JSON in the input's
// member order (keys are not sorted: docs/architecture.md#determinism).
#include <optional>
#include <string>
#include <string_view>

#include "compress/compressors.h"
#include "compress/toolschema_description.h"
#include "json/json.h"

namespace caveman::compress {
namespace {

using json::Value;

bool is_one_of(std::string_view key, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    if (key == n) return true;
  }
  return false;
}

void compress_schema(Value& v);

// Members whose children are user-chosen names mapping to schemas.
void compress_name_map(Value& v) {
  if (!v.is_object()) {
    compress_schema(v);
    return;
  }
  for (json::Member& m : v.members) compress_schema(m.value);
}

void compress_schema(Value& v) {
  if (v.is_array()) {
    for (Value& item : v.items) compress_schema(item);
    return;
  }
  if (!v.is_object()) return;
  std::vector<json::Member> kept;
  kept.reserve(v.members.size());
  for (json::Member& m : v.members) {
    if (is_one_of(m.key, {"examples", "example", "$comment", "title", "$schema"})) continue;
    if (m.key == "description" && m.value.is_string()) {
      m.value.text = toolschema::shorten_description(m.value.text);
    } else if (is_one_of(m.key, {"enum", "required", "default", "const"})) {
      // verbatim: these constrain or fill in the call
    } else if (is_one_of(m.key, {"properties", "$defs", "definitions", "patternProperties",
                                 "dependentSchemas", "dependentRequired", "dependencies"})) {
      compress_name_map(m.value);
    } else {
      compress_schema(m.value);
    }
    kept.push_back(std::move(m));
  }
  v.members = std::move(kept);
}

void compress_envelopes(Value& v);

void compress_envelope(Value& v) {
  if (!v.is_object()) return;
  for (json::Member& m : v.members) {
    if (is_one_of(m.key, {"input_schema", "inputSchema", "parameters", "outputSchema",
                          "output_schema"})) {
      compress_schema(m.value);
    } else if (m.key == "function") {
      compress_envelopes(m.value);
    } else if (m.key == "description" && m.value.is_string()) {
      m.value.text = toolschema::shorten_description(m.value.text);
    }
  }
}

void compress_envelopes(Value& v) {
  if (v.is_array()) {
    for (Value& item : v.items) compress_envelope(item);
  } else {
    compress_envelope(v);
  }
}

void compress_document(Value& doc) {
  if (doc.is_array()) {
    compress_envelopes(doc);
    return;
  }
  if (!doc.is_object()) return;
  if (Value* tools = doc.find("tools")) {
    compress_envelopes(*tools);
    return;
  }
  // A JSON-RPC tools/list response: {"jsonrpc":…,"result":{"tools":[…]}}.
  if (Value* result = doc.find("result"); result && result->is_object() && result->find("tools")) {
    compress_envelopes(*result->find("tools"));
    return;
  }
  for (std::string_view k : {"name", "input_schema", "inputSchema", "parameters", "function"}) {
    if (doc.find(k)) {
      compress_envelope(doc);
      return;
    }
  }
  compress_schema(doc);  // a bare JSON Schema
}

class ToolSchemaCompressor final : public Compressor {
 public:
  std::string_view type() const override { return "toolschema"; }

  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view /*query*/) const override {
    std::optional<Value> doc = json::parse(input);
    if (!doc) return std::nullopt;
    compress_document(*doc);
    return CompressorOutput{json::to_compact(*doc), "toolschema", std::nullopt, {}};
  }
};

}  // namespace

std::unique_ptr<Compressor> make_toolschema_compressor() {
  return std::make_unique<ToolSchemaCompressor>();
}

}  // namespace caveman::compress
