// Property test: decode(encode(x)) == x for generated JSON documents (fixed seed, so every run
// checks the same 6,000 documents), under every delimiter, several indent sizes and, for
// documents without literal dotted keys, key folding paired with path expansion.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "caveman/toon.h"
#include "json/json.h"
#include "toon/number.h"

namespace caveman::toon {
namespace {

// splitmix64: fully specified, so the documents are identical on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }
  bool chance(int percent) { return below(100) < static_cast<std::size_t>(percent); }
  template <typename T>
  const T& pick(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  std::uint64_t state_;
};

// clang-format off
// Strings that exercise every quoting rule (§7.2) and escape (§7.1).
const std::vector<std::string> kTrickyStrings = {
    "", " ", "a", "hello world", "true", "false", "null", "42", "-3.14", "1e-6", "05", "-",
    "- item", "a,b", "a|b", "a\tb", "a:b", "x\"y", "back\\slash", "[5]", "{k}", "line\nbreak",
    "cr\rx", " lead", "trail ", "caf\xC3\xA9", "\xF0\x9F\x9A\x80 go", "\001ctl",
    "nbsp\xC2\xA0", "\xC2\xA0x", "\xE2\x80\xA8sep", "#hash", "Ada_99", "[]", "{}", "x]", "'",
    "1.5e+10", "Infinity", "NaN", "+1", ".5", "1.", "--", "a.b", "\357\273\277bom", "0",
    "-0", "1E5", "007", "\x7F", "\xE4\xB8\x96\xE7\x95\x8C"};
const std::vector<std::string> kKeys = {
    "id", "name", "a", "b", "c", "x_y", "user.name", "full name", "order:id", "", "-lead",
    "a,b", "a|b", "tab\tkey", "k\"q", "[i]", "{b}", "\xC3\xA9", "_p", "A1", "data", "meta",
    "items", "123", "true", " sp", "a.b.c", "nl\nk"};
const std::vector<std::string> kAlphabet = {
    "a", "b", "z", "Q", "0", "7", " ", ",", "|", "\t", ":", "\"", "\\", "-", "[", "]", "{", "}",
    "\n", "\r", "\x02", ".", "#", "\xC3\xA9", "\xE4\xB8\x96", "\xF0\x9F\x9A\x80", "\xC2\xA0"};
// clang-format on

class DocGen {
 public:
  DocGen(Rng& rng, bool allow_dotted_keys) : rng_(rng), dotted_(allow_dotted_keys) {}

  std::string document() {
    std::string out;
    value(0, out);
    return out;
  }

 private:
  std::string random_text(std::size_t max_len) {
    std::string s;
    std::size_t n = rng_.below(max_len + 1);
    for (std::size_t i = 0; i < n; ++i) s += rng_.pick(kAlphabet);
    return s;
  }

  std::string string_value() {
    return rng_.chance(60) ? rng_.pick(kTrickyStrings) : random_text(8);
  }

  std::string key() {
    std::string k;
    do {
      k = rng_.chance(70) ? rng_.pick(kKeys) : random_text(5);
    } while (!dotted_ && k.find('.') != std::string::npos);
    return k;
  }

  // JSON string literal; sometimes spells non-ASCII as \u escapes (pairs for astral).
  void json_string(const std::string& s, std::string& out) {
    if (!rng_.chance(25)) {
      json::write_string(s, out);
      return;
    }
    out.push_back('"');
    for (std::size_t i = 0; i < s.size();) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      char32_t cp = c;
      std::size_t len = 1;
      if (c >= 0xF0) {
        cp = ((c & 0x07) << 18) | ((s[i + 1] & 0x3F) << 12) | ((s[i + 2] & 0x3F) << 6) |
             (s[i + 3] & 0x3F);
        len = 4;
      } else if (c >= 0xE0) {
        cp = ((c & 0x0F) << 12) | ((s[i + 1] & 0x3F) << 6) | (s[i + 2] & 0x3F);
        len = 3;
      } else if (c >= 0xC0) {
        cp = ((c & 0x1F) << 6) | (s[i + 1] & 0x3F);
        len = 2;
      }
      char buf[16];
      if (cp >= 0x10000) {
        char32_t v = cp - 0x10000;
        std::snprintf(buf, sizeof buf, "\\u%04X\\u%04x", static_cast<unsigned>(0xD800 + (v >> 10)),
                      static_cast<unsigned>(0xDC00 + (v & 0x3FF)));
        out += buf;
      } else if (cp >= 0x80 || cp < 0x20 || cp == '"' || cp == '\\') {
        std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
        out += buf;
      } else {
        out.push_back(static_cast<char>(cp));
      }
      i += len;
    }
    out.push_back('"');
  }

  std::string digits(std::size_t n, bool leading_nonzero) {
    std::string d;
    for (std::size_t i = 0; i < n; ++i) {
      d.push_back(static_cast<char>(
          '0' + (i == 0 && leading_nonzero ? 1 + rng_.below(9) : rng_.below(10))));
    }
    return d;
  }

  // Number literals in many spellings: trailing zeros, exponents, -0, huge and tiny.
  std::string number() {
    std::string lit = rng_.chance(30) ? "-" : "";
    std::size_t form = rng_.below(6);
    if (form == 0) return lit + "0";
    std::string int_part =
        rng_.chance(30) ? "0" : digits(1 + rng_.below(rng_.chance(10) ? 30 : 6), true);
    lit += int_part;
    if (form >= 2) lit += "." + digits(1 + rng_.below(rng_.chance(10) ? 25 : 5), false);
    if (form >= 4) {
      lit += rng_.chance(50) ? "e" : "E";
      if (rng_.chance(60)) lit += rng_.chance(50) ? "-" : "+";
      lit += std::to_string(rng_.below(rng_.chance(20) ? 400 : 30));
    }
    return lit;
  }

  void primitive(std::string& out) {
    std::size_t k = rng_.below(10);
    if (k < 4) {
      json_string(string_value(), out);
    } else if (k < 8) {
      out += number();
    } else if (k == 8) {
      out += rng_.chance(50) ? "true" : "false";
    } else {
      out += "null";
    }
  }

  void object(int depth, std::string& out, std::size_t max_members) {
    std::size_t n = rng_.below(max_members + 1);
    std::vector<std::string> used;
    out.push_back('{');
    for (std::size_t i = 0; i < n; ++i) {
      std::string k = key();
      bool dup = false;
      for (const std::string& u : used) dup = dup || u == k;
      if (dup) continue;
      if (!used.empty()) out.push_back(',');
      used.push_back(k);
      json_string(k, out);
      out.push_back(':');
      value(depth + 1, out);
    }
    out.push_back('}');
  }

  void array_of(int depth, std::string& out, std::size_t n, int kind) {
    out.push_back('[');
    std::vector<std::string> fields;
    if (kind == 2) {
      for (std::size_t f = 0, m = 1 + rng_.below(4); f < m; ++f) {
        std::string k = key();
        bool dup = false;
        for (const std::string& u : fields) dup = dup || u == k;
        if (!dup) fields.push_back(k);
      }
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (i > 0) out.push_back(',');
      switch (kind) {
        case 0:
          primitive(out);
          break;
        case 1:
          array_of(depth + 1, out, rng_.below(4), 0);
          break;
        case 2: {  // uniform rows (tabular), sometimes reordered or with a nested cell
          out.push_back('{');
          std::vector<std::string> order = fields;
          if (rng_.chance(15) && order.size() > 1) std::swap(order[0], order[1]);
          for (std::size_t f = 0; f < order.size(); ++f) {
            if (f > 0) out.push_back(',');
            json_string(order[f], out);
            out.push_back(':');
            if (rng_.chance(5)) {
              value(depth + 2, out);
            } else {
              primitive(out);
            }
          }
          out.push_back('}');
          break;
        }
        default:
          value(depth + 1, out);
          break;
      }
    }
    out.push_back(']');
  }

  void value(int depth, std::string& out) {
    if (depth >= 5) {
      primitive(out);
      return;
    }
    std::size_t k = rng_.below(20);
    if (k < 6) {
      primitive(out);
    } else if (k < 11) {
      object(depth, out, 4);
    } else if (k < 13) {
      array_of(depth, out, rng_.below(5), 0);
    } else if (k < 15) {
      array_of(depth, out, 1 + rng_.below(4), 2);
    } else if (k < 16) {
      array_of(depth, out, rng_.below(4), 1);
    } else if (k < 17) {
      out += rng_.chance(50) ? "{}" : "[]";
    } else {
      array_of(depth, out, rng_.below(5), 3);
    }
  }

  Rng& rng_;
  bool dotted_;
};

// x with canonical numbers, compact: what decode(encode(x)) must return.
void canonicalize(json::Value& v) {
  if (v.is_number()) {
    std::string canonical;
    ASSERT_EQ(canonical_number(v.text, canonical), NumberForm::kNumber) << v.text;
    v.text = canonical;
  }
  for (json::Value& item : v.items) canonicalize(item);
  for (json::Member& m : v.members) canonicalize(m.value);
}

// §9.3 lets tabular rows hold their keys in any order and writes them in the first row's
// order, so decoding returns every row in that order. Arrays that are list items never use the
// tabular form. (Objects are unordered in JSON; this is the one place order is not kept.)
void normalize_tabular_rows(json::Value& v, bool list_item) {
  if (v.is_array() && !list_item && !v.items.empty()) {
    const json::Value& first = v.items[0];
    bool tabular = first.is_object() && !first.members.empty();
    for (const json::Value& row : v.items) {
      tabular = tabular && row.is_object() && row.members.size() == first.members.size();
      for (const json::Member& m : tabular ? row.members : std::vector<json::Member>{}) {
        tabular = tabular && m.value.is_scalar() && first.find(m.key) != nullptr;
      }
    }
    if (tabular) {
      for (json::Value& row : v.items) {
        std::vector<json::Member> ordered;
        for (const json::Member& f : first.members) {
          ordered.push_back(json::Member{f.key, *row.find(f.key)});
        }
        row.members = std::move(ordered);
      }
      return;
    }
  }
  for (json::Value& item : v.items) normalize_tabular_rows(item, true);
  for (json::Member& m : v.members) normalize_tabular_rows(m.value, false);
}

std::string expected_json(const std::string& doc) {
  std::optional<json::Value> v = json::parse(doc);
  if (!v) return "<generator produced invalid JSON>";
  canonicalize(*v);
  normalize_tabular_rows(*v, false);
  return json::to_compact(*v);
}

void check_layout(const std::string& toon, const std::string& doc) {
  ASSERT_TRUE(toon.empty() || toon.back() != '\n') << doc;
  std::size_t start = 0;
  while (start <= toon.size()) {
    std::size_t nl = toon.find('\n', start);
    std::string_view line(toon.data() + start,
                          (nl == std::string::npos ? toon.size() : nl) - start);
    ASSERT_TRUE(line.empty() || line.back() != ' ') << "trailing space in: " << line;
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
}

constexpr int kDocuments = 6000;

TEST(ToonRoundTrip, GeneratedDocumentsSurviveEncodeDecode) {
  Rng rng(0x70070E5EEDULL);
  const char kDelimiters[] = {',', '\t', '|'};
  int checked = 0;
  for (int i = 0; i < kDocuments; ++i) {
    bool folding = i % 3 == 2;  // folding documents avoid literal dotted keys
    DocGen gen(rng, !folding);
    std::string doc = gen.document();
    std::string expected = expected_json(doc);
    ASSERT_NE(expected, "<generator produced invalid JSON>") << doc;

    EncodeOptions encode;
    encode.delimiter = kDelimiters[i % 3];
    encode.indent = 2 + (i / 3) % 3;
    DecodeOptions decode;
    decode.indent = encode.indent;
    if (folding) {
      encode.key_folding = KeyFolding::kSafe;
      encode.flatten_depth = i % 5 == 0 ? kUnlimitedFlattenDepth : static_cast<int>(rng.below(5));
      decode.expand_paths = ExpandPaths::kSafe;
    }
    Result<std::string> toon = toon_encode(doc, encode);
    ASSERT_TRUE(toon.ok()) << toon.status().ToString() << "\n" << doc;
    check_layout(toon.value(), doc);
    Result<std::string> back = toon_decode(toon.value(), decode);
    ASSERT_TRUE(back.ok()) << back.status().ToString() << "\njson: " << doc << "\ntoon:\n"
                           << toon.value();
    ASSERT_EQ(back.value(), expected) << "json: " << doc << "\ntoon:\n" << toon.value();

    // Default options too, and non-strict decoding must agree with strict on valid input.
    Result<std::string> plain = toon_encode(doc);
    ASSERT_TRUE(plain.ok());
    DecodeOptions lenient;
    lenient.strict = false;
    Result<std::string> plain_back = toon_decode(plain.value(), lenient);
    ASSERT_TRUE(plain_back.ok()) << plain_back.status().ToString() << "\n" << plain.value();
    ASSERT_EQ(plain_back.value(), expected) << "json: " << doc << "\ntoon:\n" << plain.value();
    ++checked;
  }
  EXPECT_EQ(checked, kDocuments);
}

}  // namespace
}  // namespace caveman::toon
