#include "compress/common/summary.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "compress/common/go_float.h"
#include "json/json.h"
#include "text/unicode.h"
#include "text/utf8.h"

namespace caveman::compress {
namespace {

constexpr std::size_t kMaxFieldsPerUnit = 24;
// Extractors return one field more than summarize reads: a 25th field tells it the unit
// had fields it does not see, so "absent" can no longer be claimed for that run.
constexpr std::size_t kFieldsCollected = kMaxFieldsPerUnit + 1;
constexpr std::size_t kMaxNames = 48;
constexpr std::size_t kMaxValueBytes = 40;
constexpr std::size_t kMaxNameBytes = 32;
constexpr std::size_t kMaxEnumBuckets = 5;  // including the `absent` bucket
constexpr std::size_t kMaxEnumValueBytes = 24;
constexpr std::size_t kMaxCoverage = 4096;
constexpr std::size_t kMaxDenseDigits = 18;
constexpr std::size_t kMaxCoverageEntries = 2;
constexpr std::int64_t kBudgetMax = 160;
constexpr std::int64_t kBudgetFloor = 96;
constexpr std::string_view kAbsent = "absent";

// ---------------------------------------------------------------------------------------
// Field extraction (docs/spec/markers.md#fields)

bool is_key_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_key_char(char c) {
  return is_key_start(c) || (c >= '0' && c <= '9') || c == '.' || c == '-';
}
bool is_re2_space(char c) {  // RE2 \s
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}
bool is_pair_prefix(char c) {
  return is_re2_space(c) || c == ',' || c == '[' || c == '{' || c == '(';
}
bool is_bare_value_char(char c) {
  return !is_re2_space(c) && c != ',' && c != ']' && c != '}' && c != ')';
}

// Tries `key=value` with the key starting at k. On success sets the pair and the end.
bool pair_at(std::string_view s, std::size_t k, std::string_view* key, std::string_view* value,
             std::size_t* end) {
  if (k >= s.size() || !is_key_start(s[k])) return false;
  std::size_t i = k + 1;
  while (i < s.size() && is_key_char(s[i])) ++i;
  if (i >= s.size() || s[i] != '=') return false;
  *key = s.substr(k, i - k);
  std::size_t v = i + 1;
  if (v >= s.size()) return false;
  char q = s[v];
  if (q == '"' || q == '\'') {
    std::size_t close = s.find(q, v + 1);
    if (close != std::string_view::npos) {
      *value = s.substr(v + 1, close - v - 1);
      *end = close + 1;
      return true;
    }
  }
  std::size_t j = v;
  while (j < s.size() && is_bare_value_char(s[j])) ++j;
  if (j == v) return false;
  *value = s.substr(v, j - v);
  *end = j;
  return true;
}

// logfmt pairs as a leftmost-first scan of
// (?:^|[\s,\[{(])([A-Za-z_][A-Za-z0-9_.-]*)=("[^"]*"|'[^']*'|[^\s,\]})]+).
Fields logfmt_fields(std::string_view s) {
  Fields out;
  std::size_t pos = 0;
  while (pos < s.size() && out.size() < kFieldsCollected) {
    std::string_view key, value;
    std::size_t end = 0;
    bool found = false;
    for (std::size_t start = pos; start < s.size(); ++start) {
      if (start == 0 && pair_at(s, 0, &key, &value, &end)) {
        found = true;
        break;
      }
      if (is_pair_prefix(s[start]) && pair_at(s, start + 1, &key, &value, &end)) {
        found = true;
        break;
      }
    }
    if (!found) break;
    if (!value.empty()) out.emplace_back(std::string(key), std::string(value));
    pos = end;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Summary (docs/spec/markers.md#summary)

bool usable_value(std::string_view v) {
  if (v.empty() || v.size() > kMaxValueBytes) return false;
  if (v.find("caveman") != std::string_view::npos) return false;
  if (v.find("\xE2\x80\xA6") != std::string_view::npos) return false;  // …
  for (std::size_t i = 0; i < v.size();) {
    text::Decoded d = text::decode_utf8(v, i);
    if (!d.valid || text::is_control(d.cp)) return false;
    i += d.len;
  }
  return true;
}

bool enum_usable(std::string_view v) {
  return usable_value(v) && v.size() <= kMaxEnumValueBytes &&
         v.find_first_of(" \t") == std::string_view::npos;
}

bool credential_name(std::string_view name) {
  std::string n = text::ascii_lower(name);
  for (std::string_view bad : {"secret", "passw", "token", "authoriz", "credential", "cookie",
                               "session", "apikey", "api_key", "api-key"}) {
    if (n.find(bad) != std::string::npos) return true;
  }
  return false;
}

// Rendering keeps every summary parseable: a name or value that could be confused with the
// separators ("name=value", "name: …", "; ", "MIN..MAX", "value×N", ", absent×K") is written
// as a JSON string instead of bare.
bool has_space(std::string_view v) {
  for (std::size_t i = 0; i < v.size();) {
    text::Decoded d = text::decode_utf8(v, i);
    if (text::is_white_space(d.cp)) return true;
    i += d.len;
  }
  return false;
}

std::string render_name(std::string_view name) {
  bool bare = !has_space(name) && name.find_first_of("=:;,\"") == std::string_view::npos &&
              name.find("\xC3\x97") == std::string_view::npos;
  return bare ? std::string(name) : json::quote(name);
}

std::string render_value(std::string_view v) {
  bool bare = !has_space(v) && v.front() != '"' && v.back() != ';' && v.back() != ',' &&
              v.find("\xC3\x97") == std::string_view::npos;
  return bare ? std::string(v) : json::quote(v);
}

// A bound of "MIN..MAX" additionally must not contain ".." or begin/end with '.'.
std::string render_bound(std::string_view v) {
  bool bare = v.find("..") == std::string_view::npos && v.front() != '.' && v.back() != '.';
  return bare ? render_value(v) : json::quote(v);
}

// Per-name facts of one run. Values are views into the caller's Fields, which outlive it.
struct Aggregate {
  std::string_view name;
  std::size_t count = 0;
  std::string_view first;
  bool constant = true;
  bool numeric = true;
  double min_v = 0, max_v = 0;
  std::string_view min_s, max_s;
  bool too_wide = false;
  bool enum_values_ok = true;  // every value enum-usable and not literally "absent"
  std::vector<std::pair<std::string_view, std::size_t>> buckets;  // first-appearance order
  bool coverage_ok = true;
  std::unordered_set<std::string_view> coverage;
  std::string_view coverage_min, coverage_max;  // byte-wise extremes

  void add(std::string_view v) {
    if (count == 0) {
      first = v;
    } else if (v != first) {
      constant = false;
    }
    if (numeric) {
      std::optional<double> f = parse_go_float(v);
      // NaN never orders, so a range could not contain it: such a field is not numeric.
      if (!f || *f != *f) {
        numeric = false;
      } else if (count == 0) {
        min_v = max_v = *f;
        min_s = max_s = v;
      } else {
        if (*f < min_v) min_v = *f, min_s = v;
        if (*f > max_v) max_v = *f, max_s = v;
      }
    }
    ++count;
    bool eu = (enum_values_ok || coverage_ok) && enum_usable(v) && v != kAbsent;
    if (!eu) enum_values_ok = false;
    if (!too_wide) {
      auto it =
          std::find_if(buckets.begin(), buckets.end(), [&](const auto& b) { return b.first == v; });
      if (it != buckets.end()) {
        ++it->second;
      } else if (buckets.size() >= kMaxEnumBuckets) {
        too_wide = true;
        buckets.clear();
      } else {
        buckets.emplace_back(v, 1);
      }
    }
    if (coverage_ok) {
      if (!eu || coverage.size() >= kMaxCoverage) {
        coverage_ok = false;
        coverage.clear();
      } else if (coverage.insert(v).second) {
        if (coverage.size() == 1 || v < coverage_min) coverage_min = v;
        if (coverage.size() == 1 || v > coverage_max) coverage_max = v;
      }
    }
  }
};

enum class EntryKind { kConstant, kRange, kEnum, kWeakEnum, kBoundedCoverage, kDenseCoverage };

struct Entry {
  EntryKind kind;
  std::string text;
};

// All distinct values = one prefix + same-width trailing ASCII digits whose integer span
// equals the distinct count. Sets LOW/HIGH to the extreme strings.
bool dense(const std::unordered_set<std::string_view>& values, std::string_view* low,
           std::string_view* high) {
  std::string_view prefix;
  std::size_t width = 0;
  std::uint64_t lo = 0, hi = 0;
  bool first = true;
  for (std::string_view v : values) {  // order-independent: only extremes are kept
    std::size_t d = v.size();
    while (d > 0 && v[d - 1] >= '0' && v[d - 1] <= '9') --d;
    std::size_t w = v.size() - d;
    if (w == 0 || w > kMaxDenseDigits) return false;
    std::string_view p(v.data(), d);
    std::uint64_t n = 0;
    for (std::size_t i = d; i < v.size(); ++i) n = n * 10 + static_cast<std::uint64_t>(v[i] - '0');
    if (first) {
      prefix = p;
      width = w;
      lo = hi = n;
      *low = *high = v;
      first = false;
      continue;
    }
    if (p != prefix || w != width) return false;
    if (n < lo) lo = n, *low = v;
    if (n > hi) hi = n, *high = v;
  }
  return !first && hi - lo + 1 == values.size();
}

std::string render(const std::vector<Entry>& entries) {
  std::string constants, ranges, out;
  std::vector<std::string> sections;
  for (const Entry& e : entries) {
    if (e.kind == EntryKind::kConstant) {
      constants += constants.empty() ? "all " : " ";
      constants += e.text;
    } else if (e.kind == EntryKind::kRange) {
      ranges += ranges.empty() ? "range " : " ";
      ranges += e.text;
    }
  }
  if (!constants.empty()) sections.push_back(std::move(constants));
  for (const Entry& e : entries) {
    if (e.kind != EntryKind::kConstant && e.kind != EntryKind::kRange) sections.push_back(e.text);
  }
  if (!ranges.empty()) sections.push_back(std::move(ranges));
  for (std::size_t i = 0; i < sections.size(); ++i) {
    if (i > 0) out += "; ";
    out += sections[i];
  }
  return out;
}

std::int64_t budget_for(std::int64_t elided_bytes) {
  if (elided_bytes <= 0) return kBudgetMax;
  std::int64_t b = std::max(elided_bytes / 4, kBudgetFloor);
  b = std::min(b, elided_bytes / 2);
  return std::min(b, kBudgetMax);
}

// Removes the latest entry of the first kind present in the drop order of
// docs/spec/markers.md#summary.
void drop_one(std::vector<Entry>& entries) {
  for (EntryKind kind : {EntryKind::kWeakEnum, EntryKind::kRange, EntryKind::kBoundedCoverage,
                         EntryKind::kConstant, EntryKind::kDenseCoverage, EntryKind::kEnum}) {
    for (std::size_t i = entries.size(); i-- > 0;) {
      if (entries[i].kind == kind) {
        entries.erase(entries.begin() + static_cast<std::ptrdiff_t>(i));
        return;
      }
    }
  }
}

}  // namespace

Fields log_line_fields(std::string_view line) {
  std::string_view t = text::trim_space(line);
  if (t.size() >= 2 && t.front() == '{' && t.back() == '}') {
    // Shallow cap: only top-level scalars are read, deep documents are not log lines.
    if (std::optional<json::Value> v = json::parse(t, 64); v && v->is_object()) {
      Fields f = json_element_fields(*v);
      if (!f.empty()) return f;
    }
  }
  return logfmt_fields(line);
}

Fields table_row_fields(const std::vector<std::string>& header,
                        const std::vector<std::string>& row) {
  Fields out;
  // The first 24 columns only; their names differ from later columns' (no truncation signal).
  for (std::size_t i = 0; i < header.size() && i < row.size() && i < kMaxFieldsPerUnit; ++i) {
    std::string_view name = text::trim_space(header[i]);
    std::string_view value = text::trim_space(row[i]);
    if (name.empty() || value.empty()) continue;
    out.emplace_back(std::string(name), std::string(value));
  }
  return out;
}

Fields json_element_fields(const json::Value& element) {
  Fields out;
  if (!element.is_object()) return out;
  // Members in the input's order (this project never reorders keys).
  for (const json::Member& m : element.members) {
    if (out.size() >= kFieldsCollected) break;
    const json::Value& v = m.value;
    switch (v.kind) {
      case json::Kind::kString:
        if (!v.text.empty()) out.emplace_back(m.key, v.text);
        break;
      case json::Kind::kNumber:
        out.emplace_back(m.key, v.text);
        break;
      case json::Kind::kBool:
        out.emplace_back(m.key, v.boolean ? "true" : "false");
        break;
      default:
        break;
    }
  }
  return out;
}

std::string summarize_log_lines(const std::vector<std::string_view>& lines, std::size_t begin,
                                std::size_t end, std::int64_t elided_bytes) {
  if (end - begin > kMaxSummaryUnits) return {};
  std::vector<Fields> fields;
  fields.reserve(end - begin);
  for (std::size_t k = begin; k < end; ++k) fields.push_back(log_line_fields(lines[k]));
  return summarize(fields, elided_bytes);
}

std::string summarize(const std::vector<Fields>& units, std::int64_t elided_bytes) {
  if (units.size() < 2) return {};
  for (const Fields& u : units) {
    if (u.empty()) return {};
  }
  std::vector<Aggregate> aggs;
  std::unordered_map<std::string_view, std::size_t> index;  // lookup only, never iterated
  std::vector<std::size_t> seen_in_unit;                    // unit serial per aggregate
  for (std::size_t u = 0; u < units.size(); ++u) {
    const Fields& fields = units[u];
    for (std::size_t f = 0; f < fields.size() && f < kMaxFieldsPerUnit; ++f) {
      const auto& [name, value] = fields[f];
      auto it = index.find(name);
      std::size_t a;
      if (it == index.end()) {
        if (aggs.size() >= kMaxNames) continue;
        a = aggs.size();
        index.emplace(name, a);
        aggs.emplace_back();
        aggs.back().name = name;
        seen_in_unit.push_back(u + 1);
      } else {
        a = it->second;
        if (seen_in_unit[a] == u + 1) continue;  // only a name's first occurrence counts
        seen_in_unit[a] = u + 1;
      }
      aggs[a].add(value);
    }
  }

  const std::size_t n = units.size();
  // A unit with more fields than are read may hold any name later: never claim "absent".
  const bool truncated = std::any_of(units.begin(), units.end(),
                                     [](const Fields& u) { return u.size() > kMaxFieldsPerUnit; });
  std::vector<Entry> entries;
  std::size_t coverage_entries = 0;
  for (const Aggregate& a : aggs) {
    if (a.name.size() > kMaxNameBytes || !usable_value(a.name) || credential_name(a.name)) {
      continue;
    }
    const std::string name = render_name(a.name);
    const bool everywhere = a.count == n;
    if (everywhere && a.constant) {
      if (usable_value(a.first)) {
        entries.push_back({EntryKind::kConstant, name + "=" + render_value(a.first)});
      }
      continue;
    }
    if (everywhere && a.numeric && a.min_s != a.max_s) {
      if (usable_value(a.min_s) && usable_value(a.max_s)) {
        entries.push_back(
            {EntryKind::kRange, name + "=" + render_bound(a.min_s) + ".." + render_bound(a.max_s)});
      }
      continue;
    }
    const std::size_t absent = n - a.count;
    if (absent > 0 && truncated) continue;
    if (!a.too_wide && a.enum_values_ok &&
        a.buckets.size() + (absent > 0 ? 1 : 0) <= kMaxEnumBuckets) {
      auto buckets = a.buckets;
      std::stable_sort(buckets.begin(), buckets.end(),
                       [](const auto& x, const auto& y) { return x.second > y.second; });
      if (absent > 0) buckets.emplace_back(kAbsent, absent);
      bool all_single =
          std::all_of(buckets.begin(), buckets.end(), [](const auto& b) { return b.second == 1; });
      if (!all_single) {
        std::string t = name + ":";
        for (std::size_t b = 0; b < buckets.size(); ++b) {
          const auto& [value, count] = buckets[b];
          bool absent_bucket = absent > 0 && b + 1 == buckets.size();
          t += " ";
          t += absent_bucket ? std::string(value) : render_value(value);
          t += "\xC3\x97" + std::to_string(count);  // ×
        }
        bool weak = 2 * buckets.size() >= n;
        entries.push_back({weak ? EntryKind::kWeakEnum : EntryKind::kEnum, std::move(t)});
        continue;
      }
    }
    if (a.coverage_ok && coverage_entries < kMaxCoverageEntries && a.coverage.size() >= 2) {
      std::string_view low, high;
      if (absent == 0 && dense(a.coverage, &low, &high)) {
        entries.push_back({EntryKind::kDenseCoverage,
                           name + ": " + render_bound(low) + ".." + render_bound(high) + " all " +
                               std::to_string(a.coverage.size()) + " present"});
      } else {
        std::string t = name + ": " + std::to_string(a.coverage.size()) + " distinct, " +
                        render_bound(a.coverage_min) + ".." + render_bound(a.coverage_max);
        if (absent > 0) t += ", absent\xC3\x97" + std::to_string(absent);
        entries.push_back({EntryKind::kBoundedCoverage, std::move(t)});
      }
      ++coverage_entries;
    }
  }

  const auto budget = static_cast<std::size_t>(budget_for(elided_bytes));
  std::string out = render(entries);
  while (!entries.empty() && out.size() > budget) {
    drop_one(entries);
    out = render(entries);
  }
  return out;
}

bool worth_eliding(std::size_t run_units, std::string_view summary, std::size_t marker_bytes,
                   std::size_t run_bytes) {
  if (run_units >= 3) return true;
  return !summary.empty() && 2 * marker_bytes <= run_bytes;
}

std::string elision_note(std::string_view unit) {
  std::string out(kNotePrefix);
  out += unit;
  out +=
      " are not in this view, only the facts their markers state; one broad caveman_retrieve "
      "returns the exact original …";
  return out;
}

}  // namespace caveman::compress
