// Marker truth checker shared by the compressor property tests: parses an invariant summary
// ("all a=b; k: x×2 absent×1; id: 3 distinct, a..c; range n=1..9") and checks every stated
// fact against ground truth taken from the ORIGINAL units (never from the compressor's own
// field extraction). To add a unit kind (e.g. CSV rows), build one Unit per elided unit —
// the first value of each field name — and call check_summary.
#ifndef CAVEMAN_TESTS_UNIT_ENGINE_COMPRESS_COMMON_MARKER_TRUTH_H_
#define CAVEMAN_TESTS_UNIT_ENGINE_COMPRESS_COMMON_MARKER_TRUTH_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compress/common/go_float.h"
#include "json/json.h"

namespace caveman::testing::marker_truth {

// Ground truth of one elided unit: field name → the unit's first value for it.
using Unit = std::map<std::string, std::string>;

struct Stats {
  int summaries = 0;  // non-empty summaries checked
  int facts = 0;      // individual entries verified
};

namespace detail {

inline constexpr std::string_view kTimes = "\xC3\x97";  // ×

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
  // A JSON-quoted token, or a bare one ending before any of `stops` (strings) or the end.
  std::optional<std::string> token(const std::vector<std::string_view>& stops) {
    if (!done() && s_[pos_] == '"') {
      std::size_t i = pos_ + 1;
      while (i < s_.size() && s_[i] != '"') i += s_[i] == '\\' ? 2 : 1;
      if (i >= s_.size()) return std::nullopt;
      auto v = json::parse(s_.substr(pos_, i + 1 - pos_));
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
    while (!done() && s_[pos_] >= '0' && s_[pos_] <= '9') v = v * 10 + (s_[pos_++] - '0');
    if (pos_ == start) return std::nullopt;
    return v;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
};

inline const std::string* find(const Unit& u, const std::string& name) {
  auto it = u.find(name);
  return it == u.end() ? nullptr : &it->second;
}

inline ::testing::AssertionResult fail(std::string_view what, std::string_view summary) {
  return ::testing::AssertionFailure() << what << " in summary: " << summary;
}

inline ::testing::AssertionResult check_constant(const std::string& name, const std::string& value,
                                                 const std::vector<Unit>& units) {
  for (std::size_t i = 0; i < units.size(); ++i) {
    const std::string* v = find(units[i], name);
    if (v == nullptr || *v != value) {
      return ::testing::AssertionFailure()
             << "constant " << name << "=" << value << " false for unit " << i << " ("
             << (v ? *v : std::string("absent")) << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult check_range(const std::string& name, const std::string& lo,
                                              const std::string& hi,
                                              const std::vector<Unit>& units) {
  auto lo_v = compress::parse_go_float(lo), hi_v = compress::parse_go_float(hi);
  if (!lo_v || !hi_v) return ::testing::AssertionFailure() << "range bounds not numeric";
  bool lo_seen = false, hi_seen = false;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const std::string* v = find(units[i], name);
    if (v == nullptr)
      return ::testing::AssertionFailure() << "range " << name << ": unit " << i << " lacks it";
    auto x = compress::parse_go_float(*v);
    if (!x || !(*x >= *lo_v && *x <= *hi_v)) {
      return ::testing::AssertionFailure()
             << "range " << name << "=" << lo << ".." << hi << " excludes " << *v;
    }
    lo_seen = lo_seen || *v == lo;
    hi_seen = hi_seen || *v == hi;
  }
  if (!lo_seen || !hi_seen) return ::testing::AssertionFailure() << "range bound does not occur";
  return ::testing::AssertionSuccess();
}

}  // namespace detail

// Checks every fact of `summary` against `units`. Empty summaries are trivially true.
inline ::testing::AssertionResult check_summary(std::string_view summary,
                                                const std::vector<Unit>& units,
                                                Stats* stats = nullptr) {
  using detail::fail;
  using detail::kTimes;
  if (summary.empty()) return ::testing::AssertionSuccess();
  if (stats) ++stats->summaries;
  detail::Cursor c(summary);
  const std::size_t n = units.size();
  while (!c.done()) {
    if (c.eat("all ")) {
      do {
        auto name = c.token({"="});
        if (!name || !c.eat("=")) return fail("bad constant", summary);
        auto value = c.token({" ", "; "});
        if (!value) return fail("bad constant value", summary);
        auto r = detail::check_constant(*name, *value, units);
        if (!r) return r << " in summary: " << summary;
        if (stats) ++stats->facts;
      } while (c.eat(" "));
    } else if (c.eat("range ")) {
      do {
        auto name = c.token({"="});
        if (!name || !c.eat("=")) return fail("bad range", summary);
        auto lo = c.token({".."});
        if (!lo || !c.eat("..")) return fail("bad range low", summary);
        auto hi = c.token({" ", "; "});
        if (!hi) return fail("bad range high", summary);
        auto r = detail::check_range(*name, *lo, *hi, units);
        if (!r) return r << " in summary: " << summary;
        if (stats) ++stats->facts;
      } while (c.eat(" "));
    } else {
      auto name = c.token({": "});
      if (!name || !c.eat(": ")) return fail("bad entry name", summary);
      std::vector<const std::string*> values;
      std::size_t absent = 0;
      std::set<std::string> distinct;
      for (const auto& u : units) {
        const std::string* v = detail::find(u, *name);
        values.push_back(v);
        if (v)
          distinct.insert(*v);
        else
          ++absent;
      }
      // Bounded coverage "N distinct, MIN..MAX[, absent×K]", dense coverage
      // "LOW..HIGH all N present", else an enumeration "v×c …[ absent×K]".
      detail::Cursor b = c;
      detail::Cursor d = c;
      std::optional<std::string> lo, hi;
      std::optional<std::uint64_t> count;
      if ((count = b.number()) && b.eat(" distinct, ") && (lo = b.token({"..", " ", "; "})) &&
          b.eat("..") && (hi = b.token({", ", " ", "; "}))) {
        c = b;
        std::size_t stated_absent = 0;
        if (c.eat(", absent")) {
          auto k = c.eat(kTimes) ? c.number() : std::nullopt;
          if (!k) return fail("bad absent count", summary);
          stated_absent = *k;
        }
        if (*count != distinct.size()) return fail("coverage distinct count of " + *name, summary);
        if (distinct.empty() || *lo != *distinct.begin() || *hi != *distinct.rbegin()) {
          return fail("coverage bounds of " + *name, summary);
        }
        if (stated_absent != absent) return fail("coverage absent count of " + *name, summary);
      } else if ((lo = d.token({"..", " ", "; "})) && d.eat("..") && (hi = d.token({" ", "; "})) &&
                 d.eat(" all ") && (count = d.number()) && d.eat(" present")) {
        c = d;
        if (absent != 0) return fail("dense coverage with absent units", summary);
        // Every value = one prefix + same-width digits, covering LOW..HIGH exactly.
        auto split = [](const std::string& v) {
          std::size_t p = v.size();
          while (p > 0 && v[p - 1] >= '0' && v[p - 1] <= '9') --p;
          return std::make_pair(v.substr(0, p), v.substr(p));
        };
        auto [prefix, low_digits] = split(*lo);
        auto [hprefix, high_digits] = split(*hi);
        if (prefix != hprefix || low_digits.empty() || low_digits.size() != high_digits.size() ||
            low_digits.size() > 18) {
          return fail("dense bounds malformed", summary);
        }
        std::uint64_t a = std::stoull(low_digits), z = std::stoull(high_digits);
        std::set<std::string> expected;
        for (std::uint64_t x = a; x <= z && expected.size() <= n + 1; ++x) {
          std::string digits = std::to_string(x);
          expected.insert(prefix + std::string(low_digits.size() - digits.size(), '0') + digits);
        }
        if (expected != distinct || *count != distinct.size()) {
          return fail("dense coverage of " + *name + " is not exact", summary);
        }
      } else {  // enumeration: complete and exact
        std::size_t total = 0;
        bool saw_absent = false;
        do {
          auto value = c.token({kTimes, " ", "; "});
          if (!value || !c.eat(kTimes)) return fail("bad enum value", summary);
          auto k = c.number();
          if (!k) return fail("bad enum count", summary);
          std::size_t actual = 0;
          if (*value == "absent" && !saw_absent && (c.done() || c.rest().starts_with("; "))) {
            saw_absent = true;
            actual = absent;
          } else {
            for (const std::string* v : values) actual += v && *v == *value;
          }
          if (actual != *k) {
            return fail("enum count " + *name + ":" + *value + " states " + std::to_string(*k) +
                            ", actual " + std::to_string(actual),
                        summary);
          }
          total += actual;
        } while (c.eat(" "));
        if (total != n) return fail("enumeration of " + *name + " is incomplete", summary);
        if (!saw_absent && absent > 0) return fail("absent units not stated", summary);
      }
      if (stats) ++stats->facts;
    }
    if (!c.done() && !c.eat("; ")) return fail("bad section separator", summary);
  }
  return ::testing::AssertionSuccess();
}

}  // namespace caveman::testing::marker_truth

#endif  // CAVEMAN_TESTS_UNIT_ENGINE_COMPRESS_COMMON_MARKER_TRUTH_H_
