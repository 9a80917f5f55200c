#include "toon/json_reader.h"

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "caveman/base/text.h"
#include "text/utf8.h"
#include "toon/key_set.h"
#include "toon/number.h"
#include "toon/strings.h"

namespace caveman::toon {
namespace {

class JsonReader {
 public:
  JsonReader(std::string_view s, Document& doc) : s_(s), doc_(doc) {}

  Status run() {
    if (std::size_t bad = base::find_invalid_utf8(s_); bad != std::string_view::npos) {
      pos_ = bad;
      fail("invalid UTF-8");
      return error_;
    }
    doc_.nodes.clear();
    doc_.nodes.reserve(s_.size() / 12 + 1);
    skip_ws();
    if (at_end()) {
      fail("empty input");
      return error_;
    }
    if (!value(0, {})) return error_;
    skip_ws();
    if (!at_end()) {
      fail("trailing data after the JSON value");
      return error_;
    }
    return Status::Ok();
  }

 private:
  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return at_end() ? '\0' : s_[pos_]; }
  void skip_ws() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
      ++pos_;
    }
  }

  bool fail(std::string_view reason) {
    std::size_t at = pos_ < s_.size() ? pos_ : s_.size();
    std::size_t line = 1, line_start = 0;
    for (std::size_t i = 0; i < at; ++i) {
      if (s_[i] == '\n') {
        ++line;
        line_start = i + 1;
      }
    }
    std::size_t column = text::rune_count(s_.substr(line_start, at - line_start)) + 1;
    error_ = Status::InvalidArgument("cave_invalid_json", "line " + std::to_string(line) +
                                                              ", column " + std::to_string(column) +
                                                              ": " + std::string(reason));
    return false;
  }

  std::uint32_t push(NodeKind kind, std::string_view key, std::string_view text = {}) {
    Node n;
    n.kind = kind;
    n.key = key;
    n.text = text;
    doc_.nodes.push_back(n);
    auto index = static_cast<std::uint32_t>(doc_.nodes.size() - 1);
    doc_.nodes[index].end = index + 1;
    return index;
  }

  // Deque: references stay valid while deeper levels are added.
  KeySet& keys_at(int depth) {
    while (static_cast<std::size_t>(depth) >= key_sets_.size()) key_sets_.emplace_back();
    return key_sets_[static_cast<std::size_t>(depth)];
  }

  bool value(int depth, std::string_view key) {
    skip_ws();
    char c = peek();
    if (at_end()) return fail("unexpected end of input");
    switch (c) {
      case '{':
        return object(depth, key);
      case '[':
        return array(depth, key);
      case '"': {
        std::string_view str;
        if (!string(&str)) return false;
        push(NodeKind::kString, key, str);
        return true;
      }
      case 't':
        return literal("true", NodeKind::kTrue, key);
      case 'f':
        return literal("false", NodeKind::kFalse, key);
      case 'n':
        return literal("null", NodeKind::kNull, key);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return number(key);
        return fail("unexpected character");
    }
  }

  bool literal(std::string_view word, NodeKind kind, std::string_view key) {
    if (s_.substr(pos_, word.size()) != word) return fail("invalid literal");
    pos_ += word.size();
    push(kind, key);
    return true;
  }

  bool number(std::string_view key) {
    std::size_t start = pos_;
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (!((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E')) {
        break;
      }
      ++pos_;
    }
    std::string_view literal = s_.substr(start, pos_ - start);
    if (is_canonical_number(literal)) {
      push(NodeKind::kNumber, key, literal);
      return true;
    }
    switch (canonical_number(literal, scratch_)) {
      case NumberForm::kNotNumber:
        pos_ = start;
        return fail("invalid number");
      case NumberForm::kOutOfDomain:
        pos_ = start;
        return fail("number exponent out of range (|exponent| > 10^15)");
      case NumberForm::kNumber:
        break;
    }
    push(NodeKind::kNumber, key, doc_.arena.copy(scratch_));
    return true;
  }

  bool object(int depth, std::string_view key) {
    if (depth >= kMaxNesting) return fail("nesting deeper than 512 levels");
    std::uint32_t index = push(NodeKind::kObject, key);
    ++pos_;
    skip_ws();
    std::uint32_t count = 0;
    if (peek() == '}' && !at_end()) {
      ++pos_;
    } else {
      KeySet& seen = keys_at(depth);
      seen.clear();
      while (true) {
        skip_ws();
        if (peek() != '"' || at_end()) return fail("expected a string key");
        std::size_t key_pos = pos_;
        std::string_view member;
        if (!string(&member)) return false;
        if (!seen.insert(member)) {
          pos_ = key_pos;
          return fail("duplicate key (TOON objects need unique keys)");
        }
        skip_ws();
        if (peek() != ':' || at_end()) return fail("expected ':' after the key");
        ++pos_;
        if (!value(depth + 1, member)) return false;
        ++count;
        skip_ws();
        if (at_end()) return fail("unexpected end of input in object");
        if (s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (s_[pos_] == '}') {
          ++pos_;
          break;
        }
        return fail("expected ',' or '}'");
      }
    }
    Node& n = doc_.nodes[index];
    n.size = count;
    n.end = static_cast<std::uint32_t>(doc_.nodes.size());
    return true;
  }

  bool array(int depth, std::string_view key) {
    if (depth >= kMaxNesting) return fail("nesting deeper than 512 levels");
    std::uint32_t index = push(NodeKind::kArray, key);
    ++pos_;
    skip_ws();
    std::uint32_t count = 0;
    if (peek() == ']' && !at_end()) {
      ++pos_;
    } else {
      while (true) {
        if (!value(depth + 1, {})) return false;
        ++count;
        skip_ws();
        if (at_end()) return fail("unexpected end of input in array");
        if (s_[pos_] == ',') {
          ++pos_;
          continue;
        }
        if (s_[pos_] == ']') {
          ++pos_;
          break;
        }
        return fail("expected ',' or ']'");
      }
    }
    Node& n = doc_.nodes[index];
    n.size = count;
    n.end = static_cast<std::uint32_t>(doc_.nodes.size());
    return true;
  }

  // Cursor on the opening quote. Unescaped strings are views into the input.
  bool string(std::string_view* out) {
    std::size_t start = ++pos_;
    while (pos_ < s_.size()) {
      unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        *out = s_.substr(start, pos_ - start);
        ++pos_;
        return true;
      }
      if (c == '\\' || c < 0x20) break;
      ++pos_;
    }
    scratch_.assign(s_.data() + start, pos_ - start);
    while (true) {
      if (at_end()) return fail("unterminated string");
      unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        *out = doc_.arena.copy(scratch_);
        return true;
      }
      if (c < 0x20) return fail("control character in string");
      if (c != '\\') {
        scratch_.push_back(static_cast<char>(c));
        ++pos_;
        continue;
      }
      if (pos_ + 1 >= s_.size()) return fail("unterminated string");
      char e = s_[pos_ + 1];
      pos_ += 2;
      switch (e) {
        case '"':
          scratch_.push_back('"');
          break;
        case '\\':
          scratch_.push_back('\\');
          break;
        case '/':
          scratch_.push_back('/');
          break;
        case 'b':
          scratch_.push_back('\b');
          break;
        case 'f':
          scratch_.push_back('\f');
          break;
        case 'n':
          scratch_.push_back('\n');
          break;
        case 'r':
          scratch_.push_back('\r');
          break;
        case 't':
          scratch_.push_back('\t');
          break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(&cp)) return fail("invalid \\u escape");
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            std::uint32_t low = 0;
            if (s_.substr(pos_, 2) != "\\u" || (pos_ += 2, !hex4(&low)) || low < 0xDC00 ||
                low > 0xDFFF) {
              return fail("lone UTF-16 surrogate escape (TOON cannot represent it)");
            }
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            return fail("lone UTF-16 surrogate escape (TOON cannot represent it)");
          }
          text::append_utf8(scratch_, cp);
          break;
        }
        default:
          pos_ -= 2;
          return fail("invalid escape");
      }
    }
  }

  bool hex4(std::uint32_t* cp) {
    if (pos_ + 4 > s_.size()) return false;
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_ + i];
      v <<= 4;
      if (c >= '0' && c <= '9')
        v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f')
        v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else
        return false;
    }
    pos_ += 4;
    *cp = v;
    return true;
  }

  std::string_view s_;
  Document& doc_;
  std::size_t pos_ = 0;
  std::string scratch_;
  std::deque<KeySet> key_sets_;  // one per depth, reused
  Status error_;
};

}  // namespace

Status read_json(std::string_view json, Document& doc) { return JsonReader(json, doc).run(); }

}  // namespace caveman::toon
