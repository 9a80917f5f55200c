// A read-only JSON document that remembers where every value sits in the request bytes.
//
// The proxy never re-serializes a request body: it rewrites chosen string values in place
// (byte splicing), so every byte it does not replace reaches the provider unchanged. Parsing
// is base::JsonScanner (iterative, depth-capped); strings are decoded for reading.
// A Document borrows nothing: spans are offsets into the text it was parsed from, which the
// caller keeps. Parse failures are reported as nullopt (malformed bodies are forwarded
// untouched by the caller). Pure functions; thread-compatible values.
#ifndef CAVEMAN_PROXY_JSON_SPANS_H_
#define CAVEMAN_PROXY_JSON_SPANS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace caveman::proxy {

enum class JsonKind : std::uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = 0xFFFFFFFFu;

struct JsonNode {
  JsonKind kind = JsonKind::kNull;
  bool boolean = false;
  std::size_t begin = 0;  // first byte of the value (the opening quote for strings)
  std::size_t end = 0;    // one past the last byte
  std::string text;       // decoded string value, or the number literal
  std::vector<std::pair<std::string, NodeId>> members;  // objects, in input order
  std::vector<NodeId> items;                            // arrays
};

class JsonDoc {
 public:
  static constexpr int kMaxDepth = 256;  // nested containers; a deeper body is not parsed

  // Exactly one JSON value with optional surrounding white space; nullopt otherwise.
  static std::optional<JsonDoc> parse(std::string_view text);

  NodeId root() const { return 0; }
  const JsonNode& node(NodeId id) const { return nodes_[id]; }
  std::size_t size() const { return nodes_.size(); }

  // Member `key` of object `id` (first occurrence), or kNoNode (also for non-objects).
  NodeId get(NodeId id, std::string_view key) const;
  // The string value of member `key`, or "" when absent or not a string.
  std::string_view get_string(NodeId id, std::string_view key) const;
  bool is(NodeId id, JsonKind kind) const { return id != kNoNode && nodes_[id].kind == kind; }

 private:
  std::vector<JsonNode> nodes_;
};

// `s` as a JSON string literal (base::append_json_string).
std::string json_quote(std::string_view s);

// One replacement of the byte range [begin, end) of a body.
struct Splice {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string bytes;
};

// Applies non-overlapping splices (any order) to `text`; all other bytes are copied.
std::string apply_splices(std::string_view text, std::vector<Splice> splices);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_JSON_SPANS_H_
