#include "json_doc.h"

#include <exception>
#include <nlohmann/json.hpp>
#include <utility>

namespace caveman::shrink {

JsonValue JsonValue::boolean_value(bool b) {
  JsonValue v;
  v.kind = JsonKind::kBool;
  v.boolean = b;
  return v;
}

JsonValue JsonValue::number(std::string literal) {
  JsonValue v;
  v.kind = JsonKind::kNumber;
  v.text = std::move(literal);
  return v;
}

JsonValue JsonValue::string(std::string s) {
  JsonValue v;
  v.kind = JsonKind::kString;
  v.text = std::move(s);
  return v;
}

JsonValue JsonValue::array() {
  JsonValue v;
  v.kind = JsonKind::kArray;
  return v;
}

JsonValue JsonValue::object() {
  JsonValue v;
  v.kind = JsonKind::kObject;
  return v;
}

const JsonValue* JsonValue::find(std::string_view key) const {
  for (const JsonMember& m : members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

JsonValue* JsonValue::find(std::string_view key) {
  for (JsonMember& m : members) {
    if (m.key == key) return &m.value;
  }
  return nullptr;
}

std::size_t JsonValue::erase(std::string_view key) {
  std::size_t before = members.size();
  std::erase_if(members, [&](const JsonMember& m) { return m.key == key; });
  return before - members.size();
}

void JsonValue::add(std::string key, JsonValue v) {
  members.push_back(JsonMember{std::move(key), std::move(v)});
}

bool JsonValue::operator==(const JsonValue& other) const {
  return kind == other.kind && boolean == other.boolean && text == other.text &&
         items == other.items && members == other.members;
}

namespace {

// Builds the DOM bottom-up on an explicit stack, so deep documents cannot overflow the
// C++ stack; nlohmann's own parser is iterative too.
class DomBuilder {
 public:
  using Json = nlohmann::json;

  bool null() { return attach(JsonValue::null()); }
  bool boolean(bool b) { return attach(JsonValue::boolean_value(b)); }
  bool number_integer(Json::number_integer_t v) {
    return attach(JsonValue::number(std::to_string(v)));
  }
  bool number_unsigned(Json::number_unsigned_t v) {
    return attach(JsonValue::number(std::to_string(v)));
  }
  // `literal` is the number exactly as written in the input.
  bool number_float(Json::number_float_t, const std::string& literal) {
    return attach(JsonValue::number(literal));
  }
  bool string(std::string& s) { return attach(JsonValue::string(std::move(s))); }
  bool binary(Json::binary_t&) { return false; }
  bool start_object(std::size_t) { return open(JsonValue::object()); }
  bool key(std::string& k) {
    keys_.back() = std::move(k);
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(JsonValue::array()); }
  bool end_array() { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) {
    return false;
  }

  std::optional<JsonValue> take() {
    if (!done_ || !stack_.empty()) return std::nullopt;
    return std::move(root_);
  }

 private:
  bool open(JsonValue v) {
    if (static_cast<int>(stack_.size()) >= kMaxDepth) return false;
    stack_.push_back(std::move(v));
    keys_.emplace_back();
    return true;
  }

  bool close() {
    JsonValue v = std::move(stack_.back());
    stack_.pop_back();
    keys_.pop_back();
    return attach(std::move(v));
  }

  bool attach(JsonValue v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      done_ = true;
      return true;
    }
    JsonValue& parent = stack_.back();
    if (parent.is_object()) {
      parent.add(std::move(keys_.back()), std::move(v));
    } else {
      parent.items.push_back(std::move(v));
    }
    return true;
  }

  std::vector<JsonValue> stack_;
  std::vector<std::string> keys_;
  JsonValue root_;
  bool done_ = false;
};

constexpr char kHex[] = "0123456789abcdef";

void append_value(const JsonValue& v, std::string& out) {
  switch (v.kind) {
    case JsonKind::kNull:
      out += "null";
      return;
    case JsonKind::kBool:
      out += v.boolean ? "true" : "false";
      return;
    case JsonKind::kNumber:
      out += v.text;
      return;
    case JsonKind::kString:
      append_json_string(v.text, out);
      return;
    case JsonKind::kArray: {
      out.push_back('[');
      bool first = true;
      for (const JsonValue& item : v.items) {
        if (!first) out.push_back(',');
        first = false;
        append_value(item, out);
      }
      out.push_back(']');
      return;
    }
    case JsonKind::kObject: {
      out.push_back('{');
      bool first = true;
      for (const JsonMember& m : v.members) {
        if (!first) out.push_back(',');
        first = false;
        append_json_string(m.key, out);
        out.push_back(':');
        append_value(m.value, out);
      }
      out.push_back('}');
      return;
    }
  }
}

}  // namespace

std::optional<JsonValue> parse_json(std::string_view text) {
  DomBuilder builder;
  try {
    if (!nlohmann::json::sax_parse(text.begin(), text.end(), &builder,
                                   nlohmann::json::input_format_t::json, /*strict=*/true)) {
      return std::nullopt;
    }
  } catch (const std::exception&) {
    return std::nullopt;  // nlohmann reports some input errors by throwing
  }
  return builder.take();
}

void append_json_string(std::string_view s, std::string& out) {
  out.push_back('"');
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (u < 0x20) {
          out += "\\u00";
          out.push_back(kHex[u >> 4]);
          out.push_back(kHex[u & 0xF]);
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

void append_json(const JsonValue& v, std::string& out) { append_value(v, out); }

std::string to_json(const JsonValue& v) {
  std::string out;
  append_value(v, out);
  return out;
}

}  // namespace caveman::shrink
