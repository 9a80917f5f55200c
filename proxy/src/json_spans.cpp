#include "json_spans.h"

#include <algorithm>

#include "caveman/base/json_scan.h"
#include "caveman/base/text.h"

namespace caveman::proxy {
namespace {

using base::JsonToken;

JsonKind kind_of(JsonToken t) {
  switch (t) {
    case JsonToken::kBeginObject: return JsonKind::kObject;
    case JsonToken::kBeginArray: return JsonKind::kArray;
    case JsonToken::kString: return JsonKind::kString;
    case JsonToken::kNumber: return JsonKind::kNumber;
    case JsonToken::kTrue:
    case JsonToken::kFalse: return JsonKind::kBool;
    default: return JsonKind::kNull;
  }
}

}  // namespace

// A node per value in document order (root first) from base::JsonScanner's tokens.
std::optional<JsonDoc> JsonDoc::parse(std::string_view text) {
  JsonDoc doc;
  base::JsonScanner sc(text, {.max_depth = kMaxDepth});
  std::vector<NodeId> open;
  std::string key;
  while (true) {
    JsonToken t = sc.next();
    switch (t) {
      case JsonToken::kEnd: return doc;
      case JsonToken::kError: return std::nullopt;
      case JsonToken::kKey: key.assign(sc.text()); continue;
      case JsonToken::kEndObject:
      case JsonToken::kEndArray:
        doc.nodes_[open.back()].end = sc.end();
        open.pop_back();
        continue;
      default: break;
    }
    auto id = static_cast<NodeId>(doc.nodes_.size());
    if (!open.empty()) {
      JsonNode& parent = doc.nodes_[open.back()];
      if (parent.kind == JsonKind::kObject) {
        parent.members.emplace_back(std::move(key), id);
      } else {
        parent.items.push_back(id);
      }
    }
    JsonNode& n = doc.nodes_.emplace_back();
    n.kind = kind_of(t);
    n.boolean = t == JsonToken::kTrue;
    n.begin = sc.begin();
    n.end = sc.end();
    if (t == JsonToken::kString || t == JsonToken::kNumber) n.text = sc.text();
    if (t == JsonToken::kBeginObject || t == JsonToken::kBeginArray) open.push_back(id);
  }
}

NodeId JsonDoc::get(NodeId id, std::string_view key) const {
  if (id == kNoNode || nodes_[id].kind != JsonKind::kObject) return kNoNode;
  for (const auto& [k, child] : nodes_[id].members) {
    if (k == key) return child;
  }
  return kNoNode;
}

std::string_view JsonDoc::get_string(NodeId id, std::string_view key) const {
  NodeId child = get(id, key);
  if (!is(child, JsonKind::kString)) return {};
  return nodes_[child].text;
}

std::string json_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 16);
  base::append_json_string(s, out);
  return out;
}

std::string apply_splices(std::string_view text, std::vector<Splice> splices) {
  std::sort(splices.begin(), splices.end(),
            [](const Splice& a, const Splice& b) { return a.begin < b.begin; });
  std::string out;
  std::size_t grow = 0;
  for (const Splice& s : splices) grow += s.bytes.size();
  out.reserve(text.size() + grow);
  std::size_t at = 0;
  for (const Splice& s : splices) {
    out.append(text.substr(at, s.begin - at));
    out.append(s.bytes);
    at = s.end;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace caveman::proxy
