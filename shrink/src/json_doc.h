// caveman-shrink's JSON document: an order-preserving DOM over nlohmann's SAX parser.
//
// Tool catalogs are rewritten, not re-sorted: members keep the order they were written in,
// duplicate keys survive, and floating-point literals keep their exact text ("1.50", "1e5").
// Parsing never throws and never recurses (nesting is capped at kMaxDepth); writing recurses
// at most kMaxDepth deep. Values are plain data, safe to copy and to share read-only.
#ifndef CAVEMAN_SHRINK_JSON_DOC_H_
#define CAVEMAN_SHRINK_JSON_DOC_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::shrink {

inline constexpr int kMaxDepth = 512;

enum class JsonKind : unsigned char { kNull, kBool, kNumber, kString, kArray, kObject };

struct JsonMember;

struct JsonValue {
  JsonKind kind = JsonKind::kNull;
  bool boolean = false;
  std::string text;                  // number literal or decoded string
  std::vector<JsonValue> items;      // kArray
  std::vector<JsonMember> members;   // kObject, in input order

  static JsonValue null();
  static JsonValue boolean_value(bool b);
  static JsonValue number(std::string literal);
  static JsonValue string(std::string s);
  static JsonValue array();
  static JsonValue object();

  bool is_null() const { return kind == JsonKind::kNull; }
  bool is_bool() const { return kind == JsonKind::kBool; }
  bool is_number() const { return kind == JsonKind::kNumber; }
  bool is_string() const { return kind == JsonKind::kString; }
  bool is_array() const { return kind == JsonKind::kArray; }
  bool is_object() const { return kind == JsonKind::kObject; }

  // First member named `key`, or nullptr.
  const JsonValue* find(std::string_view key) const;
  JsonValue* find(std::string_view key);
  // Removes every member named `key`; returns how many were removed.
  std::size_t erase(std::string_view key);
  void add(std::string key, JsonValue v);

  bool operator==(const JsonValue& other) const;
};

struct JsonMember {
  std::string key;
  JsonValue value;
  bool operator==(const JsonMember& other) const = default;
};

// Defined once JsonMember is complete: returning a JsonValue needs its destructor, which
// clang instantiates eagerly inside the class (libstdc++ rejects the incomplete member type).
inline JsonValue JsonValue::null() { return {}; }

// Exactly one JSON value (RFC 8259, strings must be valid UTF-8), surrounding whitespace
// allowed. nullopt on a syntax error, trailing data or nesting deeper than kMaxDepth.
std::optional<JsonValue> parse_json(std::string_view text);

// Compact form: no whitespace, members in stored order, numbers as their literals, strings
// escaped minimally ('"', '\\', control characters) with UTF-8 kept as is — the same bytes
// JavaScript's JSON.stringify writes for a compact document.
std::string to_json(const JsonValue& v);
void append_json(const JsonValue& v, std::string& out);
void append_json_string(std::string_view s, std::string& out);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_JSON_DOC_H_
