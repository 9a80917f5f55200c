#include "json/json.h"

#include <charconv>
#include <cmath>
#include <cstdint>

#include "text/utf8.h"

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

bool is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class Scanner {
 public:
  explicit Scanner(std::string_view s) : s_(s) {}

  void skip_ws() {
    while (pos_ < s_.size() && is_ws(s_[pos_])) ++pos_;
  }
  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool consume(char c) {
    if (peek() != c || at_end()) return false;
    ++pos_;
    return true;
  }
  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  // JSON number grammar; returns the literal text.
  bool number(std::string_view* out) {
    std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (at_end()) return false;
    if (peek() == '0') {
      ++pos_;
    } else if (peek() >= '1' && peek() <= '9') {
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    } else {
      return false;
    }
    if (peek() == '.' && !at_end()) {
      ++pos_;
      if (!(peek() >= '0' && peek() <= '9') || at_end()) return false;
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    }
    if (!at_end() && (peek() == 'e' || peek() == 'E')) {
      ++pos_;
      if (!at_end() && (peek() == '+' || peek() == '-')) ++pos_;
      if (at_end() || !(peek() >= '0' && peek() <= '9')) return false;
      while (!at_end() && peek() >= '0' && peek() <= '9') ++pos_;
    }
    *out = s_.substr(start, pos_ - start);
    return true;
  }

  // Decodes a string literal (cursor on the opening quote). `out` may be null (validate).
  bool string(std::string* out) {
    if (!consume('"')) return false;
    while (true) {
      std::size_t run = pos_;
      while (pos_ < s_.size()) {
        unsigned char c = static_cast<unsigned char>(s_[pos_]);
        if (c == '"' || c == '\\' || c < 0x20) break;
        ++pos_;
      }
      if (out) out->append(s_.data() + run, pos_ - run);
      if (at_end()) return false;
      char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c != '\\') return false;  // raw control character
      ++pos_;
      if (at_end()) return false;
      char e = s_[pos_++];
      switch (e) {
        case '"': if (out) out->push_back('"'); break;
        case '\\': if (out) out->push_back('\\'); break;
        case '/': if (out) out->push_back('/'); break;
        case 'b': if (out) out->push_back('\b'); break;
        case 'f': if (out) out->push_back('\f'); break;
        case 'n': if (out) out->push_back('\n'); break;
        case 'r': if (out) out->push_back('\r'); break;
        case 't': if (out) out->push_back('\t'); break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(&cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            // A high surrogate pairs with a following \uDC00-\uDFFF; alone it is U+FFFD.
            std::size_t save = pos_;
            std::uint32_t lo = 0;
            if (pos_ + 1 < s_.size() && s_[pos_] == '\\' && s_[pos_ + 1] == 'u') {
              pos_ += 2;
              if (hex4(&lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              } else {
                pos_ = save;
                cp = text::kReplacementChar;
              }
            } else {
              cp = text::kReplacementChar;
            }
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            cp = text::kReplacementChar;
          }
          if (out) text::append_utf8(*out, cp);
          break;
        }
        default:
          return false;
      }
    }
  }

  std::size_t pos() const { return pos_; }

 private:
  bool hex4(std::uint32_t* cp) {
    if (pos_ + 4 > s_.size()) return false;
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else return false;
    }
    *cp = v;
    return true;
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

// Iterative parser: a stack of open containers. When `build` is false it only validates.
struct Frame {
  Value value;           // container being filled
  std::string key;       // pending key (objects)
  bool expect_value_after_comma = false;
};

template <bool kBuild>
bool parse_impl(std::string_view text, int max_depth, Value* result) {
  Scanner sc(text);
  std::vector<Frame> stack;
  std::vector<char> kinds;  // validation-only stack of '[' / '{'
  Value scalar;

  auto open_depth = [&]() { return kBuild ? stack.size() : kinds.size(); };

  sc.skip_ws();
  while (true) {
    // Expecting a value here.
    sc.skip_ws();
    char c = sc.peek();
    if (sc.at_end()) return false;
    bool have_scalar = true;
    if (c == '{' || c == '[') {
      if (static_cast<int>(open_depth()) >= max_depth) return false;
      sc.consume(c);
      if constexpr (kBuild) {
        stack.push_back(Frame{c == '{' ? Value::object() : Value::array(), {}, false});
      } else {
        kinds.push_back(c);
      }
      sc.skip_ws();
      if (c == '{') {
        if (sc.peek() == '}' && !sc.at_end()) {
          sc.consume('}');
        } else {
          std::string* key = kBuild ? &stack.back().key : nullptr;
          if (sc.peek() != '"' || !sc.string(key)) return false;
          sc.skip_ws();
          if (!sc.consume(':')) return false;
          continue;  // parse the member value
        }
      } else {
        if (sc.peek() == ']' && !sc.at_end()) {
          sc.consume(']');
        } else {
          continue;  // parse the first element
        }
      }
      // Empty container closed immediately: treat it as a finished value.
      if constexpr (kBuild) {
        scalar = std::move(stack.back().value);
        stack.pop_back();
      } else {
        kinds.pop_back();
      }
    } else if (c == '"') {
      std::string s;
      if (!sc.string(kBuild ? &s : nullptr)) return false;
      if constexpr (kBuild) scalar = Value::string(std::move(s));
    } else if (c == 't' || c == 'f' || c == 'n') {
      if (sc.literal("true")) {
        if constexpr (kBuild) scalar = Value::from_bool(true);
      } else if (sc.literal("false")) {
        if constexpr (kBuild) scalar = Value::from_bool(false);
      } else if (sc.literal("null")) {
        if constexpr (kBuild) scalar = Value::null();
      } else {
        return false;
      }
    } else {
      std::string_view lit;
      if (!sc.number(&lit)) return false;
      if constexpr (kBuild) scalar = Value::number(std::string(lit));
    }
    (void)have_scalar;

    // A complete value is in `scalar`; attach it and close containers as far as possible.
    while (true) {
      if (open_depth() == 0) {
        sc.skip_ws();
        if (!sc.at_end()) return false;
        if constexpr (kBuild) *result = std::move(scalar);
        return true;
      }
      bool is_object;
      if constexpr (kBuild) {
        Frame& top = stack.back();
        is_object = top.value.is_object();
        if (is_object) {
          top.value.members.push_back(Member{std::move(top.key), std::move(scalar)});
          top.key.clear();
        } else {
          top.value.items.push_back(std::move(scalar));
        }
      } else {
        is_object = kinds.back() == '{';
      }
      sc.skip_ws();
      if (sc.consume(',')) {
        if (is_object) {
          sc.skip_ws();
          std::string* key = kBuild ? &stack.back().key : nullptr;
          if (sc.peek() != '"' || !sc.string(key)) return false;
          sc.skip_ws();
          if (!sc.consume(':')) return false;
        }
        break;  // parse the next value
      }
      if (sc.consume(is_object ? '}' : ']')) {
        if constexpr (kBuild) {
          scalar = std::move(stack.back().value);
          stack.pop_back();
        } else {
          kinds.pop_back();
        }
        continue;  // the container is now a finished value
      }
      return false;
    }
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
  Value v;
  if (!parse_impl<true>(text, max_depth, &v)) return std::nullopt;
  return v;
}

bool is_valid(std::string_view text) { return parse_impl<false>(text, 10000, nullptr); }

void write_string(std::string_view s, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        out += "\\u00";
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 0xF]);
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

std::string quote(std::string_view s) {
  std::string out;
  write_string(s, out);
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
