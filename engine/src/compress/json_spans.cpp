#include "compress/json_spans.h"

#include <algorithm>
#include <cstdint>

#include "text/utf8.h"

namespace caveman::compress::json_spans {
namespace {

class Parser {
 public:
  Parser(std::string_view s, int max_depth) : s_(s), max_depth_(max_depth) {}

  std::optional<Node> document() {
    Node n;
    skip_ws();
    if (!value(n, 0)) return std::nullopt;
    skip_ws();
    if (pos_ != s_.size()) return std::nullopt;
    return n;
  }

 private:
  void skip_ws() {
    while (pos_ < s_.size() &&
           (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }

  bool value(Node& n, int depth) {
    if (pos_ >= s_.size()) return false;
    n.begin = pos_;
    char c = s_[pos_];
    bool ok;
    if (c == '{') {
      ok = object(n, depth + 1);
    } else if (c == '[') {
      ok = array(n, depth + 1);
    } else if (c == '"') {
      n.kind = json::Kind::kString;
      ok = string(nullptr);
    } else if (c == 't' || c == 'f' || c == 'n') {
      n.kind = c == 'n' ? json::Kind::kNull : json::Kind::kBool;
      std::string_view word = c == 't' ? "true" : c == 'f' ? "false" : "null";
      ok = s_.substr(pos_, word.size()) == word;
      if (ok) pos_ += word.size();
    } else {
      n.kind = json::Kind::kNumber;
      ok = number();
    }
    n.end = pos_;
    return ok;
  }

  bool object(Node& n, int depth) {
    if (depth > max_depth_) return false;
    n.kind = json::Kind::kObject;
    ++pos_;  // '{'
    skip_ws();
    if (peek() == '}') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_ws();
      Member m;
      m.key_begin = pos_;
      if (peek() != '"' || !string(&m.key)) return false;
      skip_ws();
      if (peek() != ':') return false;
      ++pos_;
      skip_ws();
      if (!value(m.value, depth)) return false;
      n.members.push_back(std::move(m));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') {
        ++pos_;
        return true;
      }
      return false;
    }
  }

  bool array(Node& n, int depth) {
    if (depth > max_depth_) return false;
    n.kind = json::Kind::kArray;
    ++pos_;  // '['
    skip_ws();
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      skip_ws();
      Node item;
      if (!value(item, depth)) return false;
      n.items.push_back(std::move(item));
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      return false;
    }
  }

  bool hex4(std::uint32_t* cp) {
    if (pos_ + 4 > s_.size()) return false;
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = s_[pos_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else return false;
    }
    *cp = v;
    return true;
  }

  // Cursor on the opening quote. Decodes into `out` when non-null.
  bool string(std::string* out) {
    ++pos_;
    while (pos_ < s_.size()) {
      unsigned char c = static_cast<unsigned char>(s_[pos_]);
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c < 0x20) return false;
      if (c != '\\') {
        if (out) out->push_back(static_cast<char>(c));
        ++pos_;
        continue;
      }
      ++pos_;
      if (pos_ >= s_.size()) return false;
      char e = s_[pos_++];
      char plain = 0;
      switch (e) {
        case '"': plain = '"'; break;
        case '\\': plain = '\\'; break;
        case '/': plain = '/'; break;
        case 'b': plain = '\b'; break;
        case 'f': plain = '\f'; break;
        case 'n': plain = '\n'; break;
        case 'r': plain = '\r'; break;
        case 't': plain = '\t'; break;
        case 'u': {
          std::uint32_t cp = 0;
          if (!hex4(&cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF && s_.substr(pos_, 2) == "\\u") {
            std::size_t save = pos_;
            pos_ += 2;
            std::uint32_t lo = 0;
            if (hex4(&lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else {
              pos_ = save;
            }
          }
          if (cp >= 0xD800 && cp <= 0xDFFF) cp = text::kReplacementChar;
          if (out) text::append_utf8(*out, cp);
          continue;
        }
        default:
          return false;
      }
      if (out) out->push_back(plain);
    }
    return false;
  }

  bool digits() {
    std::size_t start = pos_;
    while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    return pos_ > start;
  }

  bool number() {
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
    } else if (!(peek() >= '1' && peek() <= '9') || !digits()) {
      return false;
    }
    if (peek() == '.') {
      ++pos_;
      if (!digits()) return false;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digits()) return false;
    }
    return true;
  }

  std::string_view s_;
  int max_depth_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<Node> parse(std::string_view text, int max_depth) {
  return Parser(text, max_depth).document();
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

}  // namespace caveman::compress::json_spans
