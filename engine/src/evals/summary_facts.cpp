#include "evals/summary_facts.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>

#include "compress/common/go_float.h"
#include "text/utf8.h"

namespace caveman::evals {
namespace {

constexpr std::string_view kTimes = "\xC3\x97";  // ×

class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool done() const { return pos_ >= s_.size(); }
  std::string_view rest() const { return s_.substr(pos_); }
  bool eat(std::string_view lit) {
    if (!rest().starts_with(lit)) return false;
    pos_ += lit.size();
    return true;
  }
  // A JSON-quoted token, or a bare one ending before the first of `stops` (or the end).
  std::optional<std::string> token(std::initializer_list<std::string_view> stops) {
    if (!done() && s_[pos_] == '"') {
      std::size_t i = pos_ + 1;
      while (i < s_.size() && s_[i] != '"') i += s_[i] == '\\' ? 2 : 1;
      if (i >= s_.size()) return std::nullopt;
      std::optional<json::Value> v = json::parse(s_.substr(pos_, i + 1 - pos_));
      if (!v || !v->is_string()) return std::nullopt;
      pos_ = i + 1;
      return v->text;
    }
    std::size_t end = s_.size();
    for (std::string_view stop : stops) {
      std::size_t p = s_.find(stop, pos_);
      if (p != std::string_view::npos) end = std::min(end, p);
    }
    if (end == pos_) return std::nullopt;
    std::string out(s_.substr(pos_, end - pos_));
    pos_ = end;
    return out;
  }
  std::optional<std::uint64_t> number() {
    std::size_t start = pos_;
    std::uint64_t v = 0;
    while (!done() && s_[pos_] >= '0' && s_[pos_] <= '9' && pos_ - start < 18) {
      v = v * 10 + static_cast<std::uint64_t>(s_[pos_++] - '0');
    }
    if (pos_ == start) return std::nullopt;
    return v;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

const std::string* find(const FieldUnit& u, const std::string& name) {
  auto it = u.find(name);
  return it == u.end() ? nullptr : &it->second;
}

std::string check_constant(const std::string& name, const std::string& value,
                           const std::vector<FieldUnit>& units) {
  for (std::size_t i = 0; i < units.size(); ++i) {
    const std::string* v = find(units[i], name);
    if (v == nullptr || *v != value) {
      return "constant " + name + "=" + value + " is false for elided unit " +
             std::to_string(i + 1) + " (" + (v ? *v : std::string("absent")) + ")";
    }
  }
  return "";
}

std::string check_range(const std::string& name, const std::string& lo, const std::string& hi,
                        const std::vector<FieldUnit>& units) {
  std::optional<double> lo_v = compress::parse_go_float(lo);
  std::optional<double> hi_v = compress::parse_go_float(hi);
  if (!lo_v || !hi_v) return "range " + name + " bounds are not numeric";
  bool lo_seen = false, hi_seen = false;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const std::string* v = find(units[i], name);
    if (v == nullptr)
      return "range " + name + ": elided unit " + std::to_string(i + 1) + " lacks it";
    std::optional<double> x = compress::parse_go_float(*v);
    if (!x || !(*x >= *lo_v && *x <= *hi_v)) {
      return "range " + name + "=" + lo + ".." + hi + " excludes " + *v;
    }
    lo_seen = lo_seen || *v == lo;
    hi_seen = hi_seen || *v == hi;
  }
  if (!lo_seen || !hi_seen)
    return "range " + name + "=" + lo + ".." + hi + ": a bound never occurs";
  return "";
}

std::pair<std::string, std::string> split_digits(const std::string& v) {
  std::size_t p = v.size();
  while (p > 0 && v[p - 1] >= '0' && v[p - 1] <= '9') --p;
  return {v.substr(0, p), v.substr(p)};
}

// One named entry (enumeration or coverage) at the cursor.
std::string check_entry(Cursor& c, const std::vector<FieldUnit>& units) {
  std::optional<std::string> name = c.token({": "});
  if (!name || !c.eat(": ")) return "malformed entry name";
  std::vector<const std::string*> values;
  std::size_t absent = 0;
  std::set<std::string> distinct;
  for (const FieldUnit& u : units) {
    const std::string* v = find(u, *name);
    values.push_back(v);
    if (v)
      distinct.insert(*v);
    else
      ++absent;
  }
  Cursor bounded = c;
  Cursor dense = c;
  std::optional<std::string> lo, hi;
  std::optional<std::uint64_t> count;
  if ((count = bounded.number()) && bounded.eat(" distinct, ") &&
      (lo = bounded.token({"..", " ", "; "})) && bounded.eat("..") &&
      (hi = bounded.token({", ", " ", "; "}))) {
    c = bounded;
    std::uint64_t stated_absent = 0;
    if (c.eat(", absent")) {
      std::optional<std::uint64_t> k = c.eat(kTimes) ? c.number() : std::nullopt;
      if (!k) return "malformed absent count of " + *name;
      stated_absent = *k;
    }
    if (*count != distinct.size()) {
      return "coverage of " + *name + " states " + std::to_string(*count) + " distinct, actual " +
             std::to_string(distinct.size());
    }
    if (distinct.empty() || *lo != *distinct.begin() || *hi != *distinct.rbegin()) {
      return "coverage bounds of " + *name + " are not the actual extremes";
    }
    if (stated_absent != absent) return "coverage absent count of " + *name + " is wrong";
    return "";
  }
  if ((lo = dense.token({"..", " ", "; "})) && dense.eat("..") && (hi = dense.token({" ", "; "})) &&
      dense.eat(" all ") && (count = dense.number()) && dense.eat(" present")) {
    c = dense;
    if (absent != 0) return "dense coverage of " + *name + " while some units lack it";
    auto [prefix, low_digits] = split_digits(*lo);
    auto [high_prefix, high_digits] = split_digits(*hi);
    if (prefix != high_prefix || low_digits.empty() || low_digits.size() != high_digits.size() ||
        low_digits.size() > 18) {
      return "dense coverage bounds of " + *name + " are malformed";
    }
    std::uint64_t a = std::stoull(low_digits), z = std::stoull(high_digits);
    std::set<std::string> expected;
    for (std::uint64_t x = a; x <= z && expected.size() <= units.size() + 1; ++x) {
      std::string digits = std::to_string(x);
      expected.insert(prefix + std::string(low_digits.size() - digits.size(), '0') + digits);
    }
    if (expected != distinct || *count != distinct.size()) {
      return "dense coverage of " + *name + " is not exact";
    }
    return "";
  }
  // An enumeration: every bucket's count exact, and together complete.
  std::size_t total = 0;
  bool saw_absent = false;
  do {
    std::optional<std::string> value = c.token({kTimes, " ", "; "});
    if (!value || !c.eat(kTimes)) return "malformed enumeration value of " + *name;
    std::optional<std::uint64_t> k = c.number();
    if (!k) return "malformed enumeration count of " + *name;
    std::size_t actual = 0;
    if (*value == "absent" && !saw_absent && (c.done() || c.rest().starts_with("; "))) {
      saw_absent = true;
      actual = absent;
    } else {
      for (const std::string* v : values) actual += (v && *v == *value) ? 1 : 0;
    }
    if (actual != *k) {
      return "enumeration " + *name + ": " + *value + " states " + std::to_string(*k) +
             ", actual " + std::to_string(actual);
    }
    total += actual;
  } while (c.eat(" "));
  if (total != units.size()) return "enumeration of " + *name + " is incomplete";
  if (!saw_absent && absent > 0) return "enumeration of " + *name + " omits absent units";
  return "";
}

}  // namespace

std::string check_summary_facts(std::string_view summary, const std::vector<FieldUnit>& units,
                                int* facts) {
  if (summary.empty()) return "";
  Cursor c(summary);
  auto fail = [&](const std::string& what) {
    return what + " (summary: " + std::string(summary) + ")";
  };
  while (!c.done()) {
    if (c.eat("all ")) {
      do {
        std::optional<std::string> name = c.token({"="});
        if (!name || !c.eat("=")) return fail("malformed constant");
        std::optional<std::string> value = c.token({" ", "; "});
        if (!value) return fail("malformed constant value");
        if (std::string e = check_constant(*name, *value, units); !e.empty()) return fail(e);
        if (facts) ++*facts;
      } while (c.eat(" "));
    } else if (c.eat("range ")) {
      do {
        std::optional<std::string> name = c.token({"="});
        if (!name || !c.eat("=")) return fail("malformed range");
        std::optional<std::string> lo = c.token({".."});
        if (!lo || !c.eat("..")) return fail("malformed range low bound");
        std::optional<std::string> hi = c.token({" ", "; "});
        if (!hi) return fail("malformed range high bound");
        if (std::string e = check_range(*name, *lo, *hi, units); !e.empty()) return fail(e);
        if (facts) ++*facts;
      } while (c.eat(" "));
    } else {
      if (std::string e = check_entry(c, units); !e.empty()) return fail(e);
      if (facts) ++*facts;
    }
    if (!c.done() && !c.eat("; ")) return fail("malformed section separator");
  }
  return "";
}

FieldUnit json_element_fields(const json::Value& v) {
  FieldUnit out;
  if (!v.is_object()) return out;
  for (const json::Member& m : v.members) {
    if (out.count(m.key)) continue;
    if (m.value.is_string() && !m.value.text.empty()) {
      out[m.key] = m.value.text;
    } else if (m.value.is_number()) {
      out[m.key] = m.value.text;
    } else if (m.value.is_bool()) {
      out[m.key] = m.value.boolean ? "true" : "false";
    }
  }
  return out;
}

FieldUnit log_line_fields(std::string_view line) {
  std::string_view t = text::trim_space(line);
  if (t.size() >= 2 && t.front() == '{' && t.back() == '}') {
    if (std::optional<json::Value> v = json::parse(t)) {
      FieldUnit f = json_element_fields(*v);
      if (!f.empty()) return f;
    }
  }
  FieldUnit out;
  auto key_start = [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  };
  auto key_char = [&](char c) {
    return key_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
  };
  auto boundary = [](char c) {
    return c == ' ' || c == '\t' || c == ',' || c == '[' || c == '{' || c == '(';
  };
  std::size_t i = 0;
  int pairs = 0;
  while (i < t.size() && pairs < 24) {
    if (!key_start(t[i]) || (i > 0 && !boundary(t[i - 1]))) {
      ++i;
      continue;
    }
    std::size_t k = i;
    while (k < t.size() && key_char(t[k])) ++k;
    if (k >= t.size() || t[k] != '=') {
      i = k;
      continue;
    }
    std::string key(t.substr(i, k - i));
    std::size_t v = k + 1;
    std::string value;
    if (v < t.size() && (t[v] == '"' || t[v] == '\'')) {
      std::size_t close = t.find(t[v], v + 1);
      if (close == std::string_view::npos) {
        i = v;
        continue;
      }
      value = std::string(t.substr(v + 1, close - v - 1));
      i = close + 1;
    } else {
      std::size_t e = v;
      while (e < t.size() && t[e] != ' ' && t[e] != '\t' && t[e] != ',' && t[e] != ']' &&
             t[e] != '}' && t[e] != ')') {
        ++e;
      }
      value = std::string(t.substr(v, e - v));
      i = e;
    }
    ++pairs;
    if (!value.empty() && !out.count(key)) out[key] = value;
  }
  return out;
}

}  // namespace caveman::evals
