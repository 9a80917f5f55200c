#include "compress/common/selector.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <unordered_map>

#include "caveman/base/text.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

using base::is_ascii_digit;

constexpr std::size_t kMaxLineBytes = 4096;  // a longer line is never hidden behind a selector
constexpr std::size_t kMaxElements = 512;
constexpr std::size_t kMinLiteralBytes = 4;  // a selector states at least this much text
constexpr std::size_t kMinOutlierGroup = 5;
constexpr double kOutlierFactor = 5.0;
constexpr double kOutlierMinExcessMs = 25.0;

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_alnum(char c) { return is_ascii_digit(c) || is_alpha(c); }
bool is_word_char(char c) { return is_alnum(c) || c == '_'; }

// Python's str.isspace() (the grader's `\S` and strip()), by code point.
bool py_space(char32_t cp) {
  return cp == ' ' || (cp >= '\t' && cp <= '\r') || (cp >= 0x1c && cp <= 0x1f) || cp == 0x85 ||
         cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 ||
         cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000;
}

// The code point at s[i] and its length (an invalid byte reads as itself, length 1).
std::pair<char32_t, std::size_t> cp_at(std::string_view s, std::size_t i) {
  auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) return {b, 1};
  std::size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1;
  if (len == 1 || i + len > s.size()) return {b, 1};
  char32_t cp = b & (0xFF >> (len + 1));
  for (std::size_t k = 1; k < len; ++k) {
    auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return {b, 1};
    cp = (cp << 6) | (c & 0x3F);
  }
  return {cp, len};
}

std::string_view py_strip(std::string_view s) {
  while (!s.empty()) {
    auto [cp, len] = cp_at(s, 0);
    if (!py_space(cp)) break;
    s.remove_prefix(len);
  }
  while (!s.empty()) {
    std::size_t i = s.size() - 1;
    while (i > 0 && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) --i;
    auto [cp, len] = cp_at(s, i);
    if (i + len != s.size() || !py_space(cp)) break;
    s.remove_suffix(len);
  }
  return s;
}

bool is_ascii_gap(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'; }

// Words and the gaps between them, alternating, of a stripped line: word, gap, word, …
// nullopt when the line is too long, holds non-ASCII whitespace or too many words.
std::optional<std::vector<std::string_view>> elements(std::string_view line) {
  if (line.size() > kMaxLineBytes) return std::nullopt;
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    std::size_t j = i;
    const bool gap = is_ascii_gap(line[i]);
    while (j < line.size() && is_ascii_gap(line[j]) == gap) {
      auto b = static_cast<unsigned char>(line[j]);
      if (b >= 0x80 || (b >= 0x1c && b <= 0x1f)) {
        auto [cp, len] = cp_at(line, j);
        if (py_space(cp)) return std::nullopt;
        j += len;
      } else {
        ++j;
      }
    }
    out.push_back(line.substr(i, j - i));
    if (out.size() > kMaxElements) return std::nullopt;
    i = j;
  }
  return out;
}

std::string strip_punct(std::string_view w) {
  std::size_t b = 0, e = w.size();
  while (b < e && !is_alnum(w[b])) ++b;
  while (e > b && !is_alnum(w[e - 1])) --e;
  return std::string(w.substr(b, e - b));
}

bool is_level_word(std::string_view w) {
  std::string s = strip_punct(w);
  for (char& c : s) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  for (std::string_view l : {"TRACE", "DEBUG", "INFO", "NOTICE", "WARN", "WARNING", "ERROR", "ERR",
                             "FATAL", "CRITICAL", "CRIT", "ALERT", "EMERG", "SEVERE", "PANIC"}) {
    if (s == l) return true;
  }
  return false;
}

bool three_digit_status(std::string_view w) {
  return w.size() == 3 && w[0] >= '1' && w[0] <= '5' && is_ascii_digit(w[1]) &&
         is_ascii_digit(w[2]);
}

// A word whose value is a category an answer may turn on: a log level, an HTTP status (after
// the quoted request line), or a status/level/code/exit field.
bool categorical(std::string_view word, std::string_view prev_word) {
  if (is_level_word(word)) return true;
  if (three_digit_status(word) && !prev_word.empty() && prev_word.back() == '"') return true;
  for (std::string_view key : {"status", "level", "code", "exit", "severity"}) {
    if (text::contains_ci(word, key)) return true;
    if (text::contains_ci(prev_word, key)) return true;
  }
  return false;
}

bool is_sep(char c) {
  switch (c) {
    case ' ':
    case '\t':
    case '/':
    case ':':
    case '=':
    case ',':
    case ';':
    case '@':
    case '-':
    case '.':
    case '(':
    case ')':
    case '[':
    case ']':
    case '"':
    case '\'':
    case '<':
    case '>':
    case '{':
    case '}':
    case '|':
    case '#':
    case '&':
    case '?':
    case '+':
      return true;
    default:
      return false;
  }
}

// One element position of a stretch's template.
struct Slot {
  bool gap = false;
  std::string_view ref;
  bool constant = true;
  bool category = false;  // must stay constant
  std::size_t pre = 0, suf = 0;
};

class Shape {
 public:
  bool start(const std::vector<std::string_view>& lines, std::size_t i) {
    std::optional<std::vector<std::string_view>> el = elements(py_strip(lines[i]));
    if (!el || el->empty()) return false;
    slots_.clear();
    for (std::size_t k = 0; k < el->size(); ++k) {
      Slot s;
      s.gap = k % 2 == 1;
      s.ref = (*el)[k];
      s.category = !s.gap && categorical(s.ref, k >= 2 ? (*el)[k - 2] : std::string_view{});
      s.pre = s.suf = s.ref.size();
      slots_.push_back(s);
    }
    return true;
  }

  // Adds line i when the template stays usable; leaves the shape unchanged otherwise.
  bool add(const std::vector<std::string_view>& lines, std::size_t i) {
    std::optional<std::vector<std::string_view>> el = elements(py_strip(lines[i]));
    if (!el || el->size() != slots_.size()) return false;
    std::vector<Slot> next = slots_;
    for (std::size_t k = 0; k < el->size(); ++k) {
      Slot& s = next[k];
      std::string_view v = (*el)[k];
      if (v == s.ref) continue;
      if (s.category) return false;
      if (!s.gap && categorical(v, k >= 2 ? (*el)[k - 2] : std::string_view{})) return false;
      s.constant = false;
      s.pre = std::min(s.pre, text::common_prefix(s.ref, v));
      s.suf = std::min(s.suf, text::common_suffix(s.ref, v));
    }
    std::size_t regions = 0, literal = 0;
    for (std::size_t k = 0; k < next.size(); ++k) {
      if (!next[k].constant && (k == 0 || next[k - 1].constant)) ++regions;
      if (next[k].constant && !next[k].gap) literal += next[k].ref.size();
    }
    if (regions > kMaxSelectorPlaceholders || literal < kMinLiteralBytes) return false;
    slots_ = std::move(next);
    return true;
  }

  const std::vector<Slot>& slots() const { return slots_; }

 private:
  std::vector<Slot> slots_;
};

}  // namespace

bool is_field_cut(std::string_view s, std::size_t k) {
  if (k == 0 || k >= s.size()) return true;
  const char a = s[k - 1], b = s[k];
  if (!is_sep(a) && !is_sep(b)) return false;  // inside a word or a number
  // Not inside a number: `1.|5`, `1|.5`, `1,|000`.
  if ((a == '.' || a == ',') && k >= 2 && is_ascii_digit(s[k - 2]) && is_ascii_digit(b))
    return false;
  if ((b == '.' || b == ',') && k + 1 < s.size() && is_ascii_digit(a) && is_ascii_digit(s[k + 1])) {
    return false;
  }
  // Not between a number's sign and its digits.
  if ((a == '-' || a == '+') && is_ascii_digit(b) && (k == 1 || !is_alnum(s[k - 2]))) return false;
  return true;
}

bool is_failure_signal(std::string_view line) {
  if (text::contains_word_ci(line, {"error", "errors", "fatal", "panic", "exception", "traceback",
                                    "fail", "failed", "failure", "warn", "warning", "abort",
                                    "aborted", "segfault", "denied", "critical"})) {
    return true;
  }
  if (text::contains_ci(line, "segmentation fault") || text::contains_ci(line, "not ok") ||
      text::contains_ci(line, "undefined reference") || text::contains_ci(line, "sanitizer")) {
    return true;
  }
  const std::size_t n = line.size();
  for (std::size_t i = 0; i < n; ++i) {
    const bool word_start = i == 0 || !is_word_char(line[i - 1]);
    // An errno name: E and three or more capitals, a whole word (ENOENT, EACCES).
    if (word_start && line[i] == 'E') {
      std::size_t j = i + 1;
      while (j < n && line[j] >= 'A' && line[j] <= 'Z') ++j;
      if (j - i >= 4 && (j == n || !is_word_char(line[j]))) return true;
    }
    // An HTTP status ≥ 400 after a quoted request or an HTTP version: `" 404 `, `HTTP/1.1 500`.
    if (line[i] == '4' || line[i] == '5') {
      if (i + 3 <= n && three_digit_status(line.substr(i, 3)) &&
          (i + 3 == n || !is_alnum(line[i + 3]))) {
        std::string_view before = line.substr(0, i);
        if (before.ends_with("\" ") ||
            (before.size() >= 8 && before.ends_with(" ") &&
             before.substr(0, before.size() - 1).rfind("HTTP/") != std::string_view::npos &&
             before.size() - before.rfind("HTTP/") <= 10)) {
          return true;
        }
        std::string lower;
        for (std::size_t k = i >= 12 ? i - 12 : 0; k < i; ++k) {
          lower.push_back(
              static_cast<char>(line[k] >= 'A' && line[k] <= 'Z' ? line[k] + 32 : line[k]));
        }
        if (lower.find("status") != std::string::npos) return true;
      }
    }
    // A non-zero exit: `exit 2`, `exited with 1`, `exit code 127`, `exit status 1`.
    if (word_start && (line[i] == 'e' || line[i] == 'E') && i + 4 <= n &&
        text::contains_ci(line.substr(i, 4), "exit")) {
      std::size_t j = i + 4;
      if (line.substr(j).starts_with("ed")) j += 2;
      for (std::string_view opt : {" with", " code", " status"}) {
        if (line.substr(j).starts_with(opt)) j += opt.size();
      }
      if (j + 1 < n && line[j] == ' ' && line[j + 1] >= '1' && line[j + 1] <= '9') return true;
    }
    // A sanitizer or valgrind report line: `==1234== Invalid read`.
    if (i == 0 && line.starts_with("==")) {
      std::size_t j = 2;
      while (j < n && is_ascii_digit(line[j])) ++j;
      if (j > 2 && line.substr(j).starts_with("==")) {
        for (std::string_view w : {"Invalid", "Conditional", "Mismatched", "SUMMARY", "lost",
                                   "ERROR", "WARNING", "uninitialised"}) {
          if (line.find(w) != std::string_view::npos) return true;
        }
      }
    }
  }
  return false;
}

namespace {

// A hash of the line's template: digits masked and long hex runs masked (the shape of its
// kind). A hash, not the template, so a million-line input costs no copy of itself.
std::uint64_t template_hash(std::string_view line) {
  std::string_view s = py_strip(line);
  std::uint64_t h = 1469598103934665603ull;
  auto mix = [&h](char c) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  };
  for (std::size_t i = 0; i < s.size();) {
    const bool word_start = i == 0 || !is_word_char(s[i - 1]);
    if (word_start && std::isxdigit(static_cast<unsigned char>(s[i]))) {
      std::size_t j = i;
      while (j < s.size() && std::isxdigit(static_cast<unsigned char>(s[j]))) ++j;
      if (j - i >= 8 && (j == s.size() || !is_word_char(s[j]))) {
        mix('\x01');
        i = j;
        continue;
      }
    }
    if (is_ascii_digit(s[i])) {
      while (i < s.size() && is_ascii_digit(s[i])) ++i;
      mix('\x02');
      continue;
    }
    mix(s[i++]);
  }
  return h;
}

// Durations in a line, in milliseconds, in order: `12ms`, `1.5s`, `3.2 ms`, `250us`.
std::vector<double> durations_ms(std::string_view line) {
  std::vector<double> out;
  const std::size_t n = line.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (!is_ascii_digit(line[i]) || (i > 0 && (is_alnum(line[i - 1]) || line[i - 1] == '.')))
      continue;
    std::size_t j = i;
    while (j < n && (is_ascii_digit(line[j]) || line[j] == '.')) ++j;
    std::size_t u = j;
    if (u < n && line[u] == ' ') ++u;
    std::size_t e = u;
    while (e < n && (is_alpha(line[e]) || static_cast<unsigned char>(line[e]) >= 0x80)) ++e;
    std::string_view unit = line.substr(u, e - u);
    double scale = 0;
    if (unit == "ms" || unit == "msec")
      scale = 1;
    else if (unit == "s" || unit == "sec" || unit == "secs")
      scale = 1000;
    else if (unit == "us" || unit == "\xC2\xB5s")
      scale = 0.001;
    if (scale > 0 && (e == n || !is_alnum(line[e]))) {
      out.push_back(std::strtod(std::string(line.substr(i, j - i)).c_str(), nullptr) * scale);
    }
    i = j;
  }
  return out;
}

}  // namespace

std::vector<bool> needle_lines(const std::vector<std::string_view>& lines) {
  const std::size_t n = lines.size();
  std::vector<bool> pin(n, false);
  constexpr std::uint32_t kBlank = UINT32_MAX;
  std::vector<std::uint32_t> group_of(n, kBlank);
  std::vector<std::uint32_t> group_size;
  {
    std::unordered_map<std::uint64_t, std::uint32_t> group;  // lookup only, never iterated
    for (std::size_t i = 0; i < n; ++i) {
      if (py_strip(lines[i]).empty()) continue;
      if (is_failure_signal(lines[i])) pin[i] = true;
      auto [it, fresh] =
          group.emplace(template_hash(lines[i]), static_cast<std::uint32_t>(group_size.size()));
      if (fresh) group_size.push_back(0);
      group_of[i] = it->second;
      ++group_size[it->second];
    }
  }
  if (n <= 1) return pin;
  // Durations of the lines of frequent templates, by group and position: the outlier rule.
  struct Duration {
    std::uint32_t line, group, k;
    double ms;
  };
  std::vector<Duration> durs;
  for (std::size_t i = 0; i < n; ++i) {
    if (group_of[i] == kBlank) continue;
    const std::uint32_t g = group_of[i];
    if (group_size[g] == 1) {
      pin[i] = true;  // a rare line
      continue;
    }
    if (group_size[g] < kMinOutlierGroup) continue;
    std::vector<double> d = durations_ms(lines[i]);
    for (std::size_t k = 0; k < d.size(); ++k) {
      durs.push_back({static_cast<std::uint32_t>(i), g, static_cast<std::uint32_t>(k), d[k]});
    }
  }
  std::stable_sort(durs.begin(), durs.end(), [](const Duration& a, const Duration& b) {
    return a.group != b.group ? a.group < b.group : a.k < b.k;
  });
  for (std::size_t a = 0; a < durs.size();) {
    std::size_t b = a;
    while (b < durs.size() && durs[b].group == durs[a].group && durs[b].k == durs[a].k) ++b;
    std::vector<double> v;
    v.reserve(b - a);
    for (std::size_t x = a; x < b; ++x) v.push_back(durs[x].ms);
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    const double m = v[v.size() / 2];
    for (std::size_t x = a; x < b; ++x) {
      if (durs[x].ms >= kOutlierFactor * m && durs[x].ms - m >= kOutlierMinExcessMs) {
        pin[durs[x].line] = true;
      }
    }
    a = b;
  }
  return pin;
}

bool selector_matches(std::string_view selector, std::string_view raw_line) {
  const std::string_view line = py_strip(raw_line);
  const std::size_t n = line.size();
  std::vector<char> reach(n + 1, 0), next(n + 1, 0);
  reach[0] = 1;
  std::size_t pos = 0;
  std::string literal;
  auto apply_literal = [&]() {
    if (literal.empty()) return;
    std::fill(next.begin(), next.end(), 0);
    for (std::size_t p = 0; p + literal.size() <= n; ++p) {
      if (reach[p] && line.compare(p, literal.size(), literal) == 0) next[p + literal.size()] = 1;
    }
    reach.swap(next);
    literal.clear();
  };
  while (pos < selector.size()) {
    if (selector[pos] == '{') {
      std::size_t q = pos + 1;
      while (q < selector.size() && (is_word_char(selector[q]))) ++q;
      bool any = q < selector.size() && selector[q] == '*';
      if (any) ++q;
      if (q < selector.size() && selector[q] == '}') {
        apply_literal();
        std::fill(next.begin(), next.end(), 0);
        bool active = false;
        for (std::size_t p = 0; p <= n;) {
          active = active || reach[p];
          if (any) next[p] = active;
          if (p == n) break;
          auto [cp, len] = cp_at(line, p);
          if (!any && py_space(cp)) active = false;
          p += len;
          if (!any && active) next[p] = 1;
        }
        reach.swap(next);
        pos = q + 1;
        continue;
      }
    }
    literal.push_back(selector[pos++]);
  }
  apply_literal();
  return reach[n] != 0;
}

std::optional<std::string> selector_of(const std::vector<std::string_view>& lines,
                                       std::size_t begin, std::size_t end) {
  if (begin >= end) return std::nullopt;
  Shape shape;
  if (!shape.start(lines, begin)) return std::nullopt;
  for (std::size_t i = begin + 1; i < end; ++i) {
    if (!shape.add(lines, i)) return std::nullopt;
  }
  const std::vector<Slot>& slots = shape.slots();
  // The regions of varying elements, each rendered as one placeholder: its literal prefix (of
  // its first word) and suffix (of its last), cut at a field boundary in every line. Lines are
  // read again, one at a time, instead of held: a run may be a million lines long.
  struct Region {
    std::size_t first = 0, last = 0, pre = 0, suf = 0;
    std::size_t minlen_first = SIZE_MAX;
    bool digits = true, same_unit = true, any_alpha_unit = false;
    std::string unit;
  };
  std::vector<Region> regions;
  for (std::size_t k = 0; k < slots.size();) {
    if (slots[k].constant) {
      ++k;
      continue;
    }
    Region r;
    r.first = k;
    r.last = k;
    while (r.last + 1 < slots.size() && !slots[r.last + 1].constant) ++r.last;
    r.pre = slots[k].gap ? 0 : slots[k].pre;
    r.suf = slots[r.last].gap ? 0 : slots[r.last].suf;
    regions.push_back(r);
    k = r.last + 1;
  }
  auto for_each_line = [&](const auto& visit) {
    for (std::size_t i = begin; i < end; ++i) visit(*elements(py_strip(lines[i])));
  };
  for_each_line([&](const std::vector<std::string_view>& e) {
    for (Region& r : regions) r.minlen_first = std::min(r.minlen_first, e[r.first].size());
  });
  for (Region& r : regions) {
    if (r.first == r.last && r.pre + r.suf >= r.minlen_first) {
      r.suf = r.minlen_first > r.pre + 1 ? std::min(r.suf, r.minlen_first - r.pre - 1) : 0;
      if (r.pre + r.suf >= r.minlen_first) r.pre = r.minlen_first > 0 ? r.minlen_first - 1 : 0;
    }
  }
  // Cuts only shrink, so a few passes reach the cuts every line allows.
  for (bool changed = true; changed;) {
    changed = false;
    for_each_line([&](const std::vector<std::string_view>& e) {
      for (Region& r : regions) {
        while (r.pre > 0 && !is_field_cut(e[r.first], r.pre)) --r.pre, changed = true;
        std::string_view lw = e[r.last];
        while (r.suf > 0 && !is_field_cut(lw, lw.size() - r.suf)) --r.suf, changed = true;
      }
    });
  }
  // Placeholder names from the values, one line at a time.
  for_each_line([&](const std::vector<std::string_view>& e) {
    for (Region& r : regions) {
      if (r.first != r.last) continue;
      std::string_view v = e[r.first].substr(r.pre, e[r.first].size() - r.pre - r.suf);
      std::size_t i = 0;
      while (i < v.size() && (is_ascii_digit(v[i]) || v[i] == '.')) ++i;
      if (i == 0) {
        r.digits = false;
        r.same_unit = false;
        continue;
      }
      if (i < v.size()) r.digits = false;
      std::string_view u = v.substr(i);
      const bool alpha = !u.empty() && u.size() <= 3 &&
                         std::all_of(u.begin(), u.end(), [](char c) { return is_alpha(c); });
      if (!alpha || (r.any_alpha_unit && r.unit != u)) r.same_unit = false;
      if (alpha && !r.any_alpha_unit) {
        r.unit = std::string(u);
        r.any_alpha_unit = true;
      }
    }
  });
  auto name_of = [](const Region& r) -> std::string {
    if (r.digits) return "n";
    for (std::string_view u :
         {"ms", "s", "us", "ns", "m", "h", "B", "K", "KB", "kB", "M", "MB", "G", "GB"}) {
      if (r.same_unit && r.any_alpha_unit && r.unit == u) return r.unit;
    }
    return "x";
  };
  std::string out;
  std::size_t literal = 0;
  std::size_t next_region = 0;
  for (std::size_t k = 0; k < slots.size();) {
    if (slots[k].constant) {
      out += slots[k].ref;
      if (!slots[k].gap) literal += slots[k].ref.size();
      ++k;
      continue;
    }
    const Region& r = regions[next_region++];
    out += slots[r.first].ref.substr(0, r.pre);
    out += r.first == r.last ? "{" + name_of(r) + "}" : std::string("{*}");
    out += slots[r.last].ref.substr(slots[r.last].ref.size() - r.suf);
    literal += r.pre + r.suf;
    k = r.last + 1;
  }
  // A marker is one line: a record with a line break in it (a quoted CSV field) gets none.
  if (literal < kMinLiteralBytes || out.find_first_of("\\\n\r") != std::string::npos) {
    return std::nullopt;
  }
  for (std::size_t i = begin; i < end; ++i) {
    if (!selector_matches(out, lines[i])) return std::nullopt;
  }
  return out;
}

std::vector<Covered> cover_run(const std::vector<std::string_view>& lines, std::size_t begin,
                               std::size_t end, std::size_t min_lines) {
  std::vector<Covered> out;
  if (min_lines == 0) min_lines = 1;
  for (std::size_t s = begin; s < end;) {
    Shape shape;
    if (!shape.start(lines, s)) {
      ++s;
      continue;
    }
    std::size_t j = s + 1;
    while (j < end && shape.add(lines, j)) ++j;
    if (j - s >= min_lines) {
      if (std::optional<std::string> sel = selector_of(lines, s, j)) {
        out.push_back({s, j, std::move(*sel)});
      }
      s = j;  // a stretch no selector states stays whole (and is never scanned twice)
      continue;
    }
    ++s;
  }
  return out;
}

std::string selector_marker(std::size_t n, std::string_view what, std::string_view selector) {
  std::string out = "… " + std::to_string(n) + " ";
  out += what;
  out += " matching \"";
  for (char c : selector) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += "\" elided (caveman) …";
  return out;
}

}  // namespace caveman::compress
