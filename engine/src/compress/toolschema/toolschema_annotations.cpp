// toolschema-annotations — span deletion of schema annotations, forced only and left out of
// the capability manifest (docs/spec/compressors.md#toolschema-annotations).
//
// Unlike `toolschema` nothing is re-serialized: `$schema`, `title`, `examples` and
// `deprecated` members are cut out of schema objects with one adjacent separator, and every
// other byte (order, whitespace, number text, escapes, `cache_control`) is preserved, so a
// prompt-cached catalog keeps its exact shape. Envelope members are never deleted; only
// schema positions are entered (enum/const/default/x-… are skipped untouched).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compress/compressors.h"
#include "json/json.h"

namespace caveman::compress {
namespace {

using Node = json::Value;
using Ranges = std::vector<std::pair<std::size_t, std::size_t>>;

bool is_one_of(std::string_view key, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names) {
    if (key == n) return true;
  }
  return false;
}

// `visit` on each item of an array, or on `n` itself (a schema or a list of schemas).
void each_or_one(const Node& n, Ranges& out, void (*visit)(const Node&, Ranges&)) {
  if (n.kind == json::Kind::kArray) {
    for (const Node& item : n.items) visit(item, out);
  } else {
    visit(n, out);
  }
}

void schema(const Node& n, Ranges& out) {
  if (n.kind != json::Kind::kObject) return;
  bool kept_before = false;
  for (std::size_t i = 0; i < n.members.size(); ++i) {
    const json::Member& m = n.members[i];
    if (is_one_of(m.key, {"$schema", "title", "examples", "deprecated"})) {
      if (kept_before) {
        out.emplace_back(n.members[i - 1].value.end, m.value.end);  // ", "title": …
      } else {
        std::size_t next = i + 1 < n.members.size() ? n.members[i + 1].key_begin : n.end - 1;
        out.emplace_back(m.key_begin, next);  // "title": …, (up to the next key or '}')
      }
      continue;
    }
    kept_before = true;
    if (is_one_of(m.key, {"properties", "patternProperties", "$defs", "definitions",
                          "dependentSchemas"})) {
      if (m.value.kind == json::Kind::kObject) {
        for (const json::Member& child : m.value.members) schema(child.value, out);
      }
    } else if (is_one_of(m.key, {"items", "prefixItems", "additionalItems", "unevaluatedItems",
                                 "additionalProperties", "unevaluatedProperties", "propertyNames",
                                 "contains", "not", "if", "then", "else", "allOf", "anyOf",
                                 "oneOf"})) {
      each_or_one(m.value, out, schema);
    }
  }
}

void envelope(const Node& n, Ranges& out) {
  if (n.kind != json::Kind::kObject) return;
  for (const json::Member& m : n.members) {
    if (is_one_of(m.key, {"input_schema", "inputSchema", "parameters", "outputSchema",
                          "output_schema"})) {
      schema(m.value, out);
    } else if (m.key == "function") {
      each_or_one(m.value, out, envelope);
    }
  }
}

const Node* member(const Node& n, std::string_view key) {
  for (const json::Member& m : n.members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

void document(const Node& doc, Ranges& out) {
  if (doc.kind == json::Kind::kObject) {
    // {"tools":[…]} and the JSON-RPC tools/list response {"result":{"tools":[…]}}.
    if (const Node* tools = member(doc, "tools")) return each_or_one(*tools, out, envelope);
    if (const Node* result = member(doc, "result")) {
      if (const Node* tools = member(*result, "tools")) return each_or_one(*tools, out, envelope);
    }
  }
  each_or_one(doc, out, envelope);
}

std::optional<CompressorOutput> compress_annotations(std::string_view input,
                                                     std::string_view /*query*/) {
  std::optional<Node> doc = json::parse(input);
  if (!doc) return std::nullopt;
  Ranges ranges;
  document(*doc, ranges);
  std::string out =
      ranges.empty() ? std::string(input) : json::erase_ranges(input, std::move(ranges));
  if (!json::is_valid(out)) return std::nullopt;
  return CompressorOutput{std::move(out), "toolschema-annotations", std::nullopt, {}};
}

}  // namespace

std::unique_ptr<Compressor> make_toolschema_annotations_compressor() {
  return make_compressor("toolschema-annotations", compress_annotations);
}

}  // namespace caveman::compress
