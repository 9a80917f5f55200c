#include "json/json.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "caveman/base/json_scan.h"
#include "caveman/base/text.h"

namespace caveman::json {

Value::Value() = default;
Value::~Value() = default;
Value::Value(const Value&) = default;
Value::Value(Value&&) noexcept = default;
Value& Value::operator=(const Value&) = default;
Value& Value::operator=(Value&&) noexcept = default;

Value Value::from_bool(bool b) {
  Value v;
  v.kind = Kind::kBool;
  v.boolean = b;
  return v;
}
Value Value::number(std::string literal) {
  Value v;
  v.kind = Kind::kNumber;
  v.text = std::move(literal);
  return v;
}
Value Value::string(std::string s) {
  Value v;
  v.kind = Kind::kString;
  v.text = std::move(s);
  return v;
}
Value Value::array() {
  Value v;
  v.kind = Kind::kArray;
  return v;
}
Value Value::object() {
  Value v;
  v.kind = Kind::kObject;
  return v;
}

const Value* Value::find(std::string_view key) const {
  for (const Member& m : members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}
Value* Value::find(std::string_view key) {
  for (Member& m : members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}
void Value::add(std::string key, Value v) { members.push_back(Member{std::move(key), std::move(v)}); }

namespace {

using base::JsonToken;

// Where the next value goes: the root, an object's member made at its key, or a new item.
// Values are built in place; an open container's address is stable because only its own
// children are appended until it closes.
Value& slot(std::vector<Value*>& open, Value& root) {
  if (open.empty()) return root;
  Value& top = *open.back();
  if (top.is_object()) return top.members.back().value;
  return top.items.emplace_back();
}

void fill(Value& v, const base::JsonScanner& sc, JsonToken t) {
  v.begin = sc.begin();
  v.end = sc.end();
  switch (t) {
    case JsonToken::kBeginObject: v.kind = Kind::kObject; break;
    case JsonToken::kBeginArray: v.kind = Kind::kArray; break;
    case JsonToken::kString: v.kind = Kind::kString; v.text = sc.text(); break;
    case JsonToken::kNumber: v.kind = Kind::kNumber; v.text = sc.text(); break;
    case JsonToken::kTrue:
    case JsonToken::kFalse: v.kind = Kind::kBool; v.boolean = t == JsonToken::kTrue; break;
    default: break;
  }
}

void write_value(const Value& v, std::string& out, int indent, int depth);

void newline_indent(std::string& out, int indent, int depth) {
  out.push_back('\n');
  out.append(static_cast<std::size_t>(indent * depth), ' ');
}

void write_value(const Value& v, std::string& out, int indent, int depth) {
  switch (v.kind) {
    case Kind::kNull: out += "null"; return;
    case Kind::kBool: out += v.boolean ? "true" : "false"; return;
    case Kind::kNumber: out += v.text; return;
    case Kind::kString: write_string(v.text, out); return;
    case Kind::kArray:
      out.push_back('[');
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i > 0) out.push_back(',');
        if (indent > 0) newline_indent(out, indent, depth + 1);
        write_value(v.items[i], out, indent, depth + 1);
      }
      if (indent > 0 && !v.items.empty()) newline_indent(out, indent, depth);
      out.push_back(']');
      return;
    case Kind::kObject:
      out.push_back('{');
      for (std::size_t i = 0; i < v.members.size(); ++i) {
        if (i > 0) out.push_back(',');
        if (indent > 0) newline_indent(out, indent, depth + 1);
        write_string(v.members[i].key, out);
        out += indent > 0 ? ": " : ":";
        write_value(v.members[i].value, out, indent, depth + 1);
      }
      if (indent > 0 && !v.members.empty()) newline_indent(out, indent, depth);
      out.push_back('}');
      return;
  }
}

}  // namespace

std::optional<Value> parse(std::string_view text, int max_depth) {
  base::JsonScanner sc(text, {.max_depth = max_depth});
  std::vector<Value*> open;
  Value root;
  while (true) {
    JsonToken t = sc.next();
    switch (t) {
      case JsonToken::kEnd: return root;
      case JsonToken::kError: return std::nullopt;
      case JsonToken::kKey:
        open.back()->members.push_back(Member{std::string(sc.text()), Value{}, sc.begin()});
        continue;
      case JsonToken::kEndObject:
      case JsonToken::kEndArray:
        open.back()->end = sc.end();
        open.pop_back();
        continue;
      default: break;
    }
    Value& v = slot(open, root);
    fill(v, sc, t);
    if (t == JsonToken::kBeginObject || t == JsonToken::kBeginArray) open.push_back(&v);
  }
}

bool is_valid(std::string_view text) {
  base::JsonScanner sc(text, {.max_depth = 10000, .decode_strings = false});
  while (true) {
    JsonToken t = sc.next();
    if (t == JsonToken::kEnd) return true;
    if (t == JsonToken::kError) return false;
  }
}

void write_string(std::string_view s, std::string& out) { base::append_json_string(s, out); }

std::string quote(std::string_view s) {
  std::string out;
  write_string(s, out);
  return out;
}

std::string erase_ranges(std::string_view text,
                         std::vector<std::pair<std::size_t, std::size_t>> ranges) {
  std::sort(ranges.begin(), ranges.end());
  std::string out;
  out.reserve(text.size());
  std::size_t cursor = 0;
  for (const auto& [b, e] : ranges) {
    if (e <= cursor) continue;
    std::size_t from = std::max(b, cursor);
    out.append(text.substr(cursor, from - cursor));
    cursor = std::min(e, text.size());
  }
  out.append(text.substr(cursor));
  return out;
}

std::string format_float(double f) {
  if (!std::isfinite(f) || f == 0) return "0";
  char buf[64];
  double a = std::fabs(f);
  auto fmt = (a < 1e-6 || a >= 1e21) ? std::chars_format::scientific : std::chars_format::fixed;
  auto res = std::to_chars(buf, buf + sizeof buf, f, fmt);
  return std::string(buf, res.ptr);
}

void write_compact(const Value& v, std::string& out) { write_value(v, out, 0, 0); }

std::string to_compact(const Value& v) {
  std::string out;
  write_compact(v, out);
  return out;
}

std::string to_indented(const Value& v, int indent) {
  std::string out;
  write_value(v, out, indent, 0);
  return out;
}

}  // namespace caveman::json
