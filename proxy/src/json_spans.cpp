#include "json_spans.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace caveman::proxy {
namespace {

// End of the run of string bytes starting at `from` that need no attention: not '"', not
// '\\', not a control byte. Tests 8 bytes per step (every request body is parsed once on
// the hot path, and it is mostly long strings); the byte loop then finds the exact stop.
std::size_t plain_run_end(std::string_view s, std::size_t from) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  constexpr std::uint64_t kHighs = 0x8080808080808080ULL;
  std::size_t i = from;
  while (i + 8 <= s.size()) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    std::uint64_t quote = w ^ (kOnes * '"');
    std::uint64_t slash = w ^ (kOnes * '\\');
    // (v - 0x01…) & ~v & 0x80… is non-zero iff some byte of v is zero; with 0x20 instead of
    // 0x01, iff some byte is below 0x20.
    std::uint64_t hits = ((quote - kOnes) & ~quote) | ((slash - kOnes) & ~slash) |
                         ((w - kOnes * 0x20) & ~w);
    if ((hits & kHighs) != 0) break;
    i += 8;
  }
  while (i < s.size() && s[i] != '"' && s[i] != '\\' && static_cast<unsigned char>(s[i]) >= 0x20) ++i;
  return i;
}

}  // namespace

// Recursive descent; the depth cap (JsonDoc::kMaxDepth) bounds the recursion, so hostile
// nesting fails the parse instead of the stack.
class JsonSpanParser {
 public:
  JsonSpanParser(std::string_view text, JsonDoc* doc) : s_(text), doc_(doc) {}

  bool run() {
    skip_ws();
    if (parse_value(0) == kNoNode) return false;
    skip_ws();
    return pos_ == s_.size();
  }

 private:
  void skip_ws() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      ++pos_;
    }
  }

  NodeId add(JsonKind kind, std::size_t begin) {
    JsonNode n;
    n.kind = kind;
    n.begin = begin;
    doc_->nodes_.push_back(std::move(n));
    return static_cast<NodeId>(doc_->nodes_.size() - 1);
  }

  bool literal(std::string_view word) {
    if (s_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  NodeId parse_value(int depth) {
    if (depth > JsonDoc::kMaxDepth || pos_ >= s_.size()) return kNoNode;
    std::size_t begin = pos_;
    char c = s_[pos_];
    NodeId id = kNoNode;
    switch (c) {
      case '{':
        return parse_object(depth);
      case '[':
        return parse_array(depth);
      case '"': {
        std::string value;
        if (!parse_string(&value)) return kNoNode;
        id = add(JsonKind::kString, begin);
        doc_->nodes_[id].text = std::move(value);
        break;
      }
      case 't':
      case 'f': {
        bool v = c == 't';
        if (!literal(v ? "true" : "false")) return kNoNode;
        id = add(JsonKind::kBool, begin);
        doc_->nodes_[id].boolean = v;
        break;
      }
      case 'n':
        if (!literal("null")) return kNoNode;
        id = add(JsonKind::kNull, begin);
        break;
      default:
        if (!parse_number()) return kNoNode;
        id = add(JsonKind::kNumber, begin);
        doc_->nodes_[id].text = std::string(s_.substr(begin, pos_ - begin));
        break;
    }
    doc_->nodes_[id].end = pos_;
    return id;
  }

  bool parse_number() {
    std::size_t start = pos_;
    if (pos_ < s_.size() && s_[pos_] == '-') ++pos_;
    if (pos_ >= s_.size()) return false;
    if (s_[pos_] == '0') {
      ++pos_;
    } else if (s_[pos_] >= '1' && s_[pos_] <= '9') {
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
    } else {
      return false;
    }
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      std::size_t digits = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      if (pos_ == digits) return false;
    }
    if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
      ++pos_;
      if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
      std::size_t digits = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
      if (pos_ == digits) return false;
    }
    return pos_ > start;
  }

  static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool read_hex4(unsigned* out) {
    if (pos_ + 4 > s_.size()) return false;
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      int h = hex_value(s_[pos_ + i]);
      if (h < 0) return false;
      v = (v << 4) | static_cast<unsigned>(h);
    }
    pos_ += 4;
    *out = v;
    return true;
  }

  static void append_utf8(unsigned cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  // At the opening quote; leaves pos_ after the closing quote.
  bool parse_string(std::string* out) {
    ++pos_;
    while (true) {
      // Copy the run of plain bytes in one go.
      std::size_t run = plain_run_end(s_, pos_);
      out->append(s_.data() + pos_, run - pos_);
      pos_ = run;
      if (pos_ >= s_.size()) return false;
      char c = s_[pos_];
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (c != '\\') return false;  // raw control character
      if (++pos_ >= s_.size()) return false;
      char e = s_[pos_++];
      switch (e) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u': {
          unsigned cp = 0;
          if (!read_hex4(&cp)) return false;
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            // A high surrogate needs its low half; a lone one decodes as U+FFFD.
            unsigned lo = 0;
            std::size_t save = pos_;
            if (pos_ + 1 < s_.size() && s_[pos_] == '\\' && s_[pos_ + 1] == 'u') {
              pos_ += 2;
              if (read_hex4(&lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
              } else {
                pos_ = save;
                cp = 0xFFFD;
              }
            } else {
              cp = 0xFFFD;
            }
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            cp = 0xFFFD;
          }
          append_utf8(cp, out);
          break;
        }
        default:
          return false;
      }
    }
  }

  NodeId parse_object(int depth) {
    NodeId id = add(JsonKind::kObject, pos_);
    ++pos_;
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == '}') {
      ++pos_;
      doc_->nodes_[id].end = pos_;
      return id;
    }
    while (true) {
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != '"') return kNoNode;
      std::string key;
      if (!parse_string(&key)) return kNoNode;
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != ':') return kNoNode;
      ++pos_;
      skip_ws();
      NodeId child = parse_value(depth + 1);
      if (child == kNoNode) return kNoNode;
      doc_->nodes_[id].members.emplace_back(std::move(key), child);
      skip_ws();
      if (pos_ >= s_.size()) return kNoNode;
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] != '}') return kNoNode;
      ++pos_;
      doc_->nodes_[id].end = pos_;
      return id;
    }
  }

  NodeId parse_array(int depth) {
    NodeId id = add(JsonKind::kArray, pos_);
    ++pos_;
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == ']') {
      ++pos_;
      doc_->nodes_[id].end = pos_;
      return id;
    }
    while (true) {
      skip_ws();
      NodeId child = parse_value(depth + 1);
      if (child == kNoNode) return kNoNode;
      doc_->nodes_[id].items.push_back(child);
      skip_ws();
      if (pos_ >= s_.size()) return kNoNode;
      if (s_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (s_[pos_] != ']') return kNoNode;
      ++pos_;
      doc_->nodes_[id].end = pos_;
      return id;
    }
  }

  std::string_view s_;
  JsonDoc* doc_;
  std::size_t pos_ = 0;
};

std::optional<JsonDoc> JsonDoc::parse(std::string_view text) {
  JsonDoc doc;
  JsonSpanParser parser(text, &doc);
  if (!parser.run()) return std::nullopt;
  return doc;
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
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(s.size() + 16);
  out.push_back('"');
  for (char ch : s) {
    auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
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
