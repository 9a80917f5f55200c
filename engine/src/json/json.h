// The one JSON document type: member order as written, duplicate keys (Go-style validity),
// number literals exactly as written ("1.0", "1e5"), and each parsed value's byte range, so
// edits can splice the input instead of re-serializing it. Parsing is base::JsonScanner
// (iterative, depth-capped); writing recurses at most to that cap. Values are plain data.
#ifndef CAVEMAN_JSON_JSON_H_
#define CAVEMAN_JSON_JSON_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace caveman::json {

enum class Kind : unsigned char { kNull, kBool, kNumber, kString, kArray, kObject };

struct Member;

struct Value {
  Kind kind = Kind::kNull;
  bool boolean = false;
  std::string text;             // number literal, or decoded string (UTF-8 as given)
  std::vector<Value> items;     // kArray
  std::vector<Member> members;  // kObject, in input order
  std::size_t begin = 0;        // parsed values: the first byte in the input ('"' for strings)
  std::size_t end = 0;          // one past the last byte; built values keep 0, 0

  // Special members are defined in json.cpp, where Member is complete (clang requires it).
  Value();
  ~Value();
  Value(const Value&);
  Value(Value&&) noexcept;
  Value& operator=(const Value&);
  Value& operator=(Value&&) noexcept;

  static Value null() { return Value{}; }
  static Value from_bool(bool b);
  static Value number(std::string literal);
  static Value string(std::string s);
  static Value array();
  static Value object();

  bool is_null() const { return kind == Kind::kNull; }
  bool is_bool() const { return kind == Kind::kBool; }
  bool is_number() const { return kind == Kind::kNumber; }
  bool is_string() const { return kind == Kind::kString; }
  bool is_array() const { return kind == Kind::kArray; }
  bool is_object() const { return kind == Kind::kObject; }
  bool is_scalar() const { return kind != Kind::kArray && kind != Kind::kObject; }

  // First member named `key`, or nullptr.
  const Value* find(std::string_view key) const;
  Value* find(std::string_view key);
  void add(std::string key, Value v);
};

struct Member {
  std::string key;
  Value value;
  std::size_t key_begin = 0;  // parsed members: the key's opening quote
};

inline constexpr int kDefaultMaxDepth = 512;

// Parses exactly one JSON value (surrounding whitespace allowed). nullopt on a syntax error,
// trailing data, or nesting deeper than max_depth.
std::optional<Value> parse(std::string_view text, int max_depth = kDefaultMaxDepth);

// True when `text` is exactly one syntactically valid JSON value (any depth up to 10 000,
// duplicate keys allowed, invalid UTF-8 inside strings tolerated) — Go's json.Valid.
bool is_valid(std::string_view text);

// Compact serialization: no whitespace, members in stored order, numbers as literals.
void write_compact(const Value& v, std::string& out);
std::string to_compact(const Value& v);
// 2-space indented form with ": " separators (retrieval views, reports).
std::string to_indented(const Value& v, int indent = 2);
// Appends `s` as a JSON string literal: base::append_json_string.
void write_string(std::string_view s, std::string& out);
std::string quote(std::string_view s);
// `text` without the byte ranges [first, second) (span edits). Ranges may overlap or touch.
std::string erase_ranges(std::string_view text,
                         std::vector<std::pair<std::size_t, std::size_t>> ranges);
// A float in Go's encoding/json form: shortest round-trip digits, plain decimal notation
// unless |f| < 1e-6 or ≥ 1e21 (then "1e-07" style without leading exponent zeros).
std::string format_float(double f);

}  // namespace caveman::json

#endif  // CAVEMAN_JSON_JSON_H_
