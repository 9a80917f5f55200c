// Content-type detection (docs/spec/detect.md#order): the first rule that fires wins.
#include <algorithm>
#include <array>
#include <unordered_map>
#include <vector>

#include "caveman/base/text.h"
#include "caveman/engine.h"
#include "compress/config/config_parse.h"
#include "compress/diagnostics/diagnostics.h"
#include "compress/markup/markup.h"
#include "compress/records/stanzas.h"
#include "compress/tabular/aligned_parse.h"
#include "compress/tabular/columns.h"
#include "compress/tabular/table_parse.h"
#include "core/detect_rules.h"
#include "core/wrappers.h"
#include "json/json.h"
#include "text/lines.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman {
namespace core {
namespace {

using base::is_ascii_digit;

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) {
  return s.find(p) != std::string_view::npos;
}

// Number of elements split_all(s, '\n') would return.
std::size_t line_count(std::string_view s) {
  return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')) + 1;
}

std::size_t count_of(std::string_view s, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t p = s.find(needle); p != std::string_view::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

// "dd:dd:dd" at position i.
bool clock_at(std::string_view s, std::size_t i) {
  return i + 8 <= s.size() && is_ascii_digit(s[i]) && is_ascii_digit(s[i + 1]) && s[i + 2] == ':' &&
         is_ascii_digit(s[i + 3]) && is_ascii_digit(s[i + 4]) && s[i + 5] == ':' &&
         is_ascii_digit(s[i + 6]) && is_ascii_digit(s[i + 7]);
}

bool has_timestamp(std::string_view line) {
  for (std::size_t i = 0; i + 19 <= line.size(); ++i) {
    if (is_ascii_digit(line[i]) && is_ascii_digit(line[i + 1]) && is_ascii_digit(line[i + 2]) &&
        is_ascii_digit(line[i + 3]) && line[i + 4] == '-' && is_ascii_digit(line[i + 5]) &&
        is_ascii_digit(line[i + 6]) && line[i + 7] == '-' && is_ascii_digit(line[i + 8]) &&
        is_ascii_digit(line[i + 9]) && (line[i + 10] == ' ' || line[i + 10] == 'T') &&
        clock_at(line, i + 11)) {
      return true;
    }
  }
  return false;
}

bool has_word_clock(std::string_view line) {
  for (std::size_t i = 0; i + 8 <= line.size(); ++i) {
    if (!clock_at(line, i)) continue;
    bool left = i == 0 || !text::is_word_byte(line[i - 1]);
    bool right = i + 8 == line.size() || !text::is_word_byte(line[i + 8]);
    if (left && right) return true;
  }
  return false;
}

bool bracket_tag_start(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
  if (i >= line.size() || line[i] != '[') return false;
  std::size_t j = i + 1;
  while (j < line.size() && is_alpha(line[j])) ++j;
  return j > i + 1 && j < line.size() && line[j] == ']';
}

}  // namespace

bool has_ansi_csi(std::string_view s) {
  for (std::size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] != '\x1b' || s[i + 1] != '[') continue;
    std::size_t j = i + 2;
    while (j < s.size() && (is_ascii_digit(s[j]) || s[j] == ';' || s[j] == '?')) ++j;
    while (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x20 &&
           static_cast<unsigned char>(s[j]) <= 0x2F) {
      ++j;
    }
    if (j < s.size() && static_cast<unsigned char>(s[j]) >= 0x40 &&
        static_cast<unsigned char>(s[j]) <= 0x7E) {
      return true;
    }
  }
  return false;
}

bool looks_terminal(std::string_view s) {
  if (has_ansi_csi(s)) return true;
  std::size_t cr = count_of(s, "\r"), crlf = count_of(s, "\r\n");
  return cr - crlf >= 3;
}

bool looks_diff(std::string_view s) {
  int matches = 0;
  std::size_t start = 0;
  while (start <= s.size() && matches < 4) {
    std::size_t nl = s.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? s.size() : nl;
    std::string_view line = s.substr(start, end - start);
    if (starts_with(line, "diff --git ") || starts_with(line, "@@ ") || starts_with(line, "--- ") ||
        starts_with(line, "+++ ")) {
      ++matches;
    } else if (!line.empty() && (line[0] == '+' || line[0] == '-')) {
      // The byte after the sign may be the newline itself, but must exist.
      if (line.size() >= 2 ? (line[1] != '+' && line[1] != '-') : nl != std::string_view::npos) {
        ++matches;
      }
    }
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  if (matches < 4) return false;
  return contains(s, "\n@@ ") || contains(s, "diff --git ") ||
         (contains(s, "\n--- ") && contains(s, "\n+++ "));
}

bool has_code_structure(std::string_view s) {
  std::string_view t = text::trim_space(s);
  if (contains(s, "=>") || contains(s, "className=") || contains(s, "});")) return true;
  for (std::string_view p : {"import ", "export ", "package ", "func ", "def ", "const ",
                             "#include", "#!", "//", "/*"}) {
    if (starts_with(t, p)) return true;
  }
  for (std::string_view p :
       {"\nimport ", "\nexport ", "\npackage ", "\nfunc ", "\ndef ", "\nclass ", "\nconst "}) {
    if (contains(s, p)) return true;
  }
  return false;
}

namespace {

// Markdown's own structure: ATX headings or code fences at the start of a line.
bool has_markdown_structure(std::string_view s) {
  std::size_t marks = 0;
  for (std::string_view line : text::split_all(s, '\n')) {
    if (starts_with(line, "# ") || starts_with(line, "## ") || starts_with(line, "### ") ||
        starts_with(line, "```")) {
      if (++marks >= 2) return true;
    }
  }
  return false;
}

}  // namespace

bool looks_html(std::string_view s) {
  compress::markup::MarkupStats st = compress::markup::scan(s);
  if (compress::markup::classify(st) != compress::markup::Kind::kHtml) return false;
  // Markdown that embeds HTML blocks (a README's centred logo) and JSX are no HTML pages.
  return compress::markup::declared(st) || (!has_code_structure(s) && !has_markdown_structure(s));
}

bool looks_xml(std::string_view s) {
  compress::markup::MarkupStats st = compress::markup::scan(s);
  if (compress::markup::classify(st) != compress::markup::Kind::kXml) return false;
  return compress::markup::declared(st) || !has_code_structure(s);
}

bool looks_log(std::string_view s) {
  std::vector<std::string_view> lines = text::split_all(s, '\n');
  if (lines.size() < 4) return false;
  std::size_t matches = 0;
  for (std::string_view line : lines) {
    if (text::contains_word_ci(
            line, {"trace", "debug", "info", "warn", "warning", "error", "fatal", "panic"}) ||
        bracket_tag_start(line) || has_timestamp(line) || has_word_clock(line)) {
      ++matches;
    }
  }
  return matches >= 3 && matches * 2 >= lines.size();
}

bool looks_code(std::string_view s) { return !looks_log(s) && code_rule(s); }

// The code rule (docs/spec/detect.md#code-rule) without its "not a log" precondition.
bool code_rule(std::string_view s) {
  if (starts_with(text::trim_space(s), "#!")) return true;
  static constexpr std::array<std::string_view, 25> kKeywords = {
      "func",  "package", "import",    "def",       "class",   "function",  "return",
      "const", "let",     "var",       "public",    "private", "protected", "static",
      "void",  "struct",  "interface", "namespace", "module",  "fn",        "impl",
      "trait", "export",  "async",     "await"};
  std::size_t keywords = 0;
  for (std::size_t i = 0; i < s.size() && keywords < 3; ++i) {
    if (!is_alpha(s[i]) || (i > 0 && text::is_word_byte(s[i - 1]))) continue;
    std::size_t j = i;
    while (j < s.size() && text::is_word_byte(s[j])) ++j;
    std::string_view word = s.substr(i, j - i);
    // `package.json`, `module.exports`: a name with a member or extension, no keyword use.
    if (j < s.size() && s[j] == '.') {
      i = j;
      continue;
    }
    for (std::string_view k : kKeywords) {
      if (word == k) {
        ++keywords;
        break;
      }
    }
    i = j;
  }
  if (keywords < 3) return false;
  if (contains(s, "=>") || contains(s, "::") || contains(s, "->") || contains(s, "){") ||
      contains(s, ") {") || contains(s, ";\n") || contains(s, "{")) {
    return true;
  }
  std::string_view lead = s;
  while (!lead.empty() && (lead[0] == ' ' || lead[0] == '\t')) lead.remove_prefix(1);
  if (starts_with(lead, "#include")) return true;
  if (starts_with(s, "from ")) {
    std::size_t nl = s.find('\n');
    if (contains(s.substr(0, nl), " import ")) return true;
  }
  return (contains(s, "def ") && contains(s, ":")) || contains(s, "\n    ");
}

bool looks_search_result(std::string_view s) {
  std::vector<std::string_view> lines = text::split_all(s, '\n');
  if (lines.size() < 6) return false;
  std::size_t matches = 0;
  for (std::string_view line : lines) {
    if (starts_with(line, "http://") || starts_with(line, "https://")) {
      std::size_t p = line.find("//") + 2;
      if (p < line.size() && line[p] != ' ' && line[p] != '\t') {
        ++matches;
        continue;
      }
    }
    if (line.empty()) continue;
    char c = line[0];
    bool pathish = c == '.' || c == '/' || c == '~' || c == '_' || c == '-' || is_alpha(c) ||
                   is_ascii_digit(c);
    if (!pathish) continue;
    std::size_t colon = line.find(':', 1);
    if (colon == std::string_view::npos || colon - 1 > 240) continue;
    std::size_t j = colon + 1;
    std::size_t d = j;
    while (j < line.size() && is_ascii_digit(line[j])) ++j;
    if (j == d || j >= line.size() || line[j] != ':') continue;
    ++matches;
  }
  return matches >= 4 && matches * 3 >= lines.size();
}

namespace {

bool is_space_or_tab(char c) { return c == ' ' || c == '\t'; }

std::string_view rtrim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}
std::string_view ltrim(std::string_view s) {
  while (!s.empty() && is_space_or_tab(s.front())) s.remove_prefix(1);
  return s;
}

bool log_level_word(std::string_view line) {
  return text::contains_word_ci(
      line, {"trace", "debug", "info", "notice", "warn", "warning", "error", "err", "fatal",
             "panic", "critical", "crit", "verbose", "silly", "severe"});
}

bool loose_timestamp(std::string_view line) {
  if (has_timestamp(line) || has_word_clock(line)) return true;
  // "2025-06-24  14:36:25" (apt history) and "Jun 24 14:36" (syslog).
  for (std::size_t i = 0; i + 10 < line.size(); ++i) {
    if (is_ascii_digit(line[i]) && is_ascii_digit(line[i + 3]) && line[i + 4] == '-' &&
        line[i + 7] == '-' && is_ascii_digit(line[i + 9])) {
      std::size_t j = i + 10;
      while (j < line.size() && line[j] == ' ') ++j;
      if (j + 5 <= line.size() && is_ascii_digit(line[j]) && is_ascii_digit(line[j + 1]) &&
          line[j + 2] == ':')
        return true;
    }
  }
  return line.size() >= 12 && is_alpha(line[0]) && line[3] == ' ' &&
         (is_ascii_digit(line[5]) || line[4] == ' ') && line[6] == ' ' && is_ascii_digit(line[7]) &&
         is_ascii_digit(line[8]) && line[9] == ':';
}

bool leading_bracket_tag(std::string_view line) {
  std::string_view t = ltrim(line);
  if (t.empty() || t[0] != '[') return false;
  std::size_t close = t.find(']');
  return close != std::string_view::npos && close >= 2 && close <= 25 &&
         t.substr(0, close).find('\n') == std::string_view::npos;
}

// "12 verbose cli …" (npm debug logs)
bool counter_word(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && is_ascii_digit(line[i])) ++i;
  if (i == 0 || i >= line.size() || line[i] != ' ') return false;
  std::size_t j = i + 1;
  while (j < line.size() && line[j] >= 'a' && line[j] <= 'z') ++j;
  return j > i + 1 && j < line.size() && line[j] == ' ';
}

bool diagnostic(std::string_view line) {
  for (std::string_view p : {"FAILED:", "ninja:", "make:", "make[", "gmake:", "npm ERR!",
                             "npm WARN", "error:", "warning:", "note:", "-- "}) {
    if (starts_with(line, p)) return true;
  }
  return compress::diagnostics::is_header(line) || compress::diagnostics::is_build_step(line);
}

bool digits_to_end(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), is_ascii_digit);
}

// A test runner's result line: TAP (`ok 3 - name`, `not ok 4 - name`, `# Subtest: name`,
// `1..12`, `# pass 11`) or Python unittest's verbose form (`test_x (m.T.test_x) ... ok`,
// `Ran 15 tests in 0.002s`, `FAILED (failures=4)`).
bool test_result(std::string_view line) {
  std::string_view l = rtrim(line);
  std::string_view t = starts_with(l, "not ok ") ? l.substr(7)
                       : starts_with(l, "ok ")   ? l.substr(3)
                                                 : "";
  if (!t.empty()) {
    std::size_t d = 0;
    while (d < t.size() && is_ascii_digit(t[d])) ++d;
    if (d > 0 && (d == t.size() || t[d] == ' ')) return true;
  }
  if (starts_with(l, "1..") && digits_to_end(l.substr(3))) return true;
  if (starts_with(l, "TAP version ") || starts_with(l, "# Subtest: ")) return true;
  for (std::string_view k :
       {"# tests ", "# suites ", "# pass ", "# fail ", "# cancelled ", "# skipped ", "# todo "}) {
    if (starts_with(l, k) && digits_to_end(l.substr(k.size()))) return true;
  }
  std::size_t dots = l.find(" ... ");
  if (dots != std::string_view::npos) {
    std::string_view verdict = l.substr(dots + 5);
    for (std::string_view v :
         {"ok", "FAIL", "ERROR", "skipped", "expected failure", "unexpected success"}) {
      if (starts_with(verdict, v)) return true;
    }
  }
  if (starts_with(l, "FAIL: ") || starts_with(l, "ERROR: ") || starts_with(l, "FAILED (") ||
      l == "OK" || starts_with(l, "OK (")) {
    return true;
  }
  return starts_with(l, "Ran ") && l.find(" test") != std::string_view::npos &&
         l.find(" in ") != std::string_view::npos;
}

// strace: `openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY) = 3`, `[pid 12] read(…) = 5`,
// `brk(NULL)   = 0x55…`, `exit_group(0)  = ?`, `+++ exited with 0 +++`, `--- SIGCHLD {…} ---`.
bool syscall_line(std::string_view line) {
  std::string_view l = rtrim(line);
  if ((starts_with(l, "+++ ") && l.ends_with(" +++")) ||
      (starts_with(l, "--- SIG") && l.ends_with(" ---")))
    return true;
  if (starts_with(l, "[pid ")) {
    std::size_t close = l.find("] ");
    if (close == std::string_view::npos) return false;
    l.remove_prefix(close + 2);
  }
  std::size_t i = 0;
  while (i < l.size() && (is_alpha(l[i]) || is_ascii_digit(l[i]) || l[i] == '_')) ++i;
  if (i == 0 || !is_alpha(l[0]) || i >= l.size() || l[i] != '(') return false;
  std::size_t eq = l.rfind(") = ");
  if (eq == std::string_view::npos) {
    std::size_t spaced = l.rfind(" = ");
    if (spaced == std::string_view::npos) return l.ends_with("<unfinished ...>");
    std::string_view before = rtrim(l.substr(0, spaced));
    return !before.empty() && before.back() == ')';
  }
  return true;
}

bool log_signal(std::string_view line) {
  return log_level_word(line) || loose_timestamp(line) || leading_bracket_tag(line) ||
         counter_word(line) || diagnostic(line) || test_result(line) || syscall_line(line);
}

bool only_punctuation(std::string_view t) {
  for (char c : t) {
    if (!(c == '}' || c == ')' || c == ']' || c == ';' || c == ',' || c == ' ' || c == '\t' ||
          c == '\r' || c == '{' || c == '(' || c == '=' || c == '-')) {
      return false;
    }
  }
  return true;
}

// "path:12:" (no whitespace in the path) or "12:" followed by a non-digit (grep on one file).
bool search_hit(std::string_view line) {
  if (line.empty()) return false;
  char c = line[0];
  if (is_ascii_digit(c)) {
    std::size_t i = 0;
    while (i < line.size() && is_ascii_digit(line[i])) ++i;
    if (i < line.size() && line[i] == ':' && (i + 1 >= line.size() || !is_ascii_digit(line[i + 1])))
      return true;
  }
  if (!(c == '.' || c == '/' || c == '~' || c == '_' || c == '-' || is_alpha(c) ||
        is_ascii_digit(c)))
    return false;
  // The path has no whitespace or '=', contains '.' or '/', and does not end in a digit —
  // which keeps "ts=2026-01-01T00:00:10Z" and "10:00:01" out.
  std::size_t colon = 0;
  bool dot_or_slash = false;
  while (colon < line.size() && colon <= 241 && line[colon] != ':' && line[colon] != ' ' &&
         line[colon] != '\t') {
    if (line[colon] == '=') return false;
    dot_or_slash = dot_or_slash || line[colon] == '.' || line[colon] == '/';
    ++colon;
  }
  if (colon >= line.size() || line[colon] != ':' || !dot_or_slash ||
      is_ascii_digit(line[colon - 1]))
    return false;
  std::size_t j = colon + 1, d = j;
  while (j < line.size() && is_ascii_digit(line[j])) ++j;
  return j > d && j < line.size() && line[j] == ':';
}

// grep -C context line "path-12-…" or "12-…", or the "--" group separator.
bool search_context(std::string_view line) {
  if (rtrim(line) == "--") return true;
  std::size_t i = 0;
  while (i < line.size() && is_ascii_digit(line[i])) ++i;
  if (i > 0 && i < line.size() && line[i] == '-' &&
      (i + 1 >= line.size() || !is_ascii_digit(line[i + 1])))
    return true;  // "12-" context line of grep on a single file
  i = 0;
  while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != ':') {
    if (line[i] == '-' && i + 1 < line.size() && is_ascii_digit(line[i + 1])) {
      std::size_t j = i + 1;
      while (j < line.size() && is_ascii_digit(line[j])) ++j;
      if (j < line.size() && line[j] == '-') return true;
    }
    ++i;
  }
  return false;
}

bool comment_line(std::string_view t) {
  if (starts_with(t, "*") || starts_with(t, "/*") || starts_with(t, "//") || starts_with(t, "--") ||
      starts_with(t, "<!--")) {
    return true;
  }
  if (!starts_with(t, "#")) return false;
  for (std::string_view d :
       {"#include", "#define", "#if", "#endif", "#else", "#elif", "#pragma", "#undef"}) {
    if (starts_with(t, d)) return false;
  }
  return true;
}

// Starts with a code keyword (or `self.`, `this.`, a brace/bracket or a decorator).
bool keyword_start(std::string_view t) {
  static constexpr std::string_view kStarts[] = {
      "def",     "class",   "if",        "elif",      "else",     "for",    "while",
      "return",  "import",  "from",      "const",     "let",      "var",    "function",
      "public",  "private", "protected", "static",    "void",     "struct", "#include",
      "#define", "#if",     "#endif",    "func",      "package",  "type",   "try",
      "except",  "catch",   "finally",   "with",      "async",    "await",  "export",
      "switch",  "case",    "break",     "continue",  "yield",    "raise",  "throw",
      "new",     "enum",    "interface", "namespace", "template", "using",  "typedef"};
  if (t.empty()) return false;
  // Called for every line of every detected payload: compare only the keywords that share
  // the line's first byte (most lines share none).
  for (std::string_view k : kStarts) {
    if (k[0] != t[0]) continue;
    if (starts_with(t, k) && (t.size() == k.size() || !text::is_word_byte(t[k.size()])))
      return true;
  }
  if (starts_with(t, "self.") || starts_with(t, "this.")) return true;
  return !t.empty() && (t[0] == '}' || t[0] == '{' || t[0] == ')' || t[0] == ']' || t[0] == '@');
}

bool code_line(std::string_view t) {
  if (keyword_start(t)) return true;
  std::string_view r = rtrim(t);
  if (r.empty()) return false;
  char last = r.back();
  if (last == ';' || last == '{' || last == '}' || last == '(' || last == '[' || last == ',' ||
      last == ':' || last == ')' || last == '\\') {
    return true;
  }
  return r.size() >= 2 && (r.substr(r.size() - 2) == "=>" || r.substr(r.size() - 2) == "*/");
}

bool prose_line(std::string_view t) {
  if (t.empty()) return false;
  char c = t[0];
  if (!(is_alpha(c) || c == '(' || c == '"' || c == '\'' || c == '`' || c == '*')) return false;
  for (char ch : t) {
    if (ch == ';' || ch == '{' || ch == '}' || ch == '=' || ch == '<' || ch == '>') return false;
  }
  int words = 0;
  bool in_word = false;
  for (char ch : t) {
    bool sp = ch == ' ' || ch == '\t';
    if (!sp && !in_word) ++words;
    in_word = !sp;
  }
  return words >= 5 && !code_line(t);
}

}  // namespace

LineStats line_stats(std::string_view s) {
  constexpr std::size_t kMaxLines = 3000;
  LineStats st;
  std::vector<std::string_view> unindented;
  std::size_t non_comment = 0, search_like = 0;
  std::size_t start = 0;
  while (start < s.size() && st.lines < kMaxLines) {
    std::size_t nl = s.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? s.size() : nl;
    std::string_view line = rtrim(s.substr(start, end - start));
    start = end + 1;
    std::string_view t = ltrim(line);
    if (t.empty()) continue;
    ++st.lines;
    if (search_hit(line)) {
      ++st.search_hits;
      ++search_like;
    } else if (search_context(line)) {
      ++search_like;
    }
    if (t.size() >= 2 && t[0] == '#') {
      std::size_t h = 0;
      while (h < t.size() && h < 7 && t[h] == '#') ++h;
      if (h <= 6 && h < t.size() && t[h] == ' ' && line[0] == '#') ++st.md_headings;
    }
    if (line.size() - t.size() <= 3 && (starts_with(t, "```") || starts_with(t, "~~~")))
      ++st.md_fences;
    if (!comment_line(t)) {
      ++non_comment;
      if (code_line(t))
        ++st.code_lines;
      else if (prose_line(t))
        ++st.prose_lines;
    }
    if (!is_space_or_tab(line[0]) && !only_punctuation(t)) unindented.push_back(t);
  }
  // Log evidence among unindented lines: a log signal, or a template line (digits masked)
  // that repeats ≥ 3 times — test runners and build tools print the same skeleton over and
  // over, while code's top-level lines are mostly unique.
  // Only counts are looked up (nothing iterates the map into output), so a hash map is
  // deterministic here. A line without digits is its own template: no copy.
  std::unordered_map<std::string_view, int> templates;
  templates.reserve(unindented.size());
  std::vector<std::string> storage;
  storage.reserve(unindented.size());  // never reallocates: the views below stay valid
  std::vector<std::string_view> masked(unindented.size());
  for (std::size_t i = 0; i < unindented.size(); ++i) {
    std::string_view line = unindented[i];
    if (std::none_of(line.begin(), line.end(), is_ascii_digit)) {
      masked[i] = line;
    } else {
      // Written through a pointer: push_back's capacity check per byte was most of the work.
      std::string m(line.size(), '\0');
      char* out = m.data();
      bool in_digits = false;
      for (char c : line) {
        if (is_ascii_digit(c)) {
          if (!in_digits) *out++ = '#';
          in_digits = true;
        } else {
          *out++ = c;
          in_digits = false;
        }
      }
      m.resize(static_cast<std::size_t>(out - m.data()));
      storage.push_back(std::move(m));
      masked[i] = storage.back();
    }
    ++templates[masked[i]];
  }
  st.unindented = unindented.size();
  for (std::size_t i = 0; i < unindented.size(); ++i) {
    // Repeated comments or keyword-led code lines are code's own regularity, not a log's.
    bool template_line =
        templates[masked[i]] >= 3 && !comment_line(unindented[i]) && !keyword_start(unindented[i]);
    if (log_signal(unindented[i]) || template_line) ++st.unindented_log;
  }
  st.non_comment = non_comment;
  st.search_like = search_like;
  return st;
}

bool strongly_log(const LineStats& st) {
  return st.unindented >= 8 && st.unindented_log * 5 >= st.unindented * 4;
}
bool strongly_search(const LineStats& st) {
  return st.search_hits >= 4 && st.search_like * 5 >= st.lines * 3;
}
bool markdown_document(const LineStats& st) { return st.md_headings >= 2 && st.md_fences >= 2; }
bool markdown_prose(const LineStats& st) {
  return st.md_headings >= 3 && st.prose_lines >= st.md_headings && !code_dense(st);
}
bool code_dense(const LineStats& st) {
  return st.code_lines * 5 >= st.non_comment * 2 && st.code_lines > st.prose_lines;
}

bool looks_tabular(std::string_view s) {
  std::optional<compress::Table> t = compress::parse_table(s);
  if (t && t->rows.size() >= 8) return true;
  // psql / MySQL / SQLite output: an aligned table that is most of the text.
  std::optional<compress::AlignedTable> a = compress::find_aligned_table(s);
  if (a && a->rows >= 2 && a->table_lines * 5 >= a->nonblank_lines * 4) return true;
  // ps, df, dpkg -l, ls -l and box-drawn tables: columns aligned by position.
  return compress::is_column_table(s);
}

// `Name[de]=Chromium-Webbrowser`: a key, a bracketed qualifier, '=' (desktop entries).
bool localized_key(std::string_view t) {
  std::size_t i = 0;
  while (i < t.size() && (text::is_word_byte(t[i]) || t[i] == '-' || t[i] == '.')) ++i;
  if (i == 0 || !is_alpha(t[0]) || i >= t.size() || t[i] != '[') return false;
  std::size_t close = t.find(']', i);
  if (close == std::string_view::npos) return false;
  std::size_t eq = close + 1;
  while (eq < t.size() && t[eq] == ' ') ++eq;
  return eq < t.size() && t[eq] == '=';
}

// A settings file read line by line: section headers, `key = value` or `key: value` lines
// and comments, with at most one line in ten anything else (`include "x.conf"`). One section
// of assignments (`[mypy]`, a systemd drop-in whose settings are all commented out) is an INI
// file; without sections, at least four `key = value` lines (`key: value` lines without a
// section are YAML's, and the YAML reader decides those).
bool settings_lines(std::string_view s) {
  if (!text::is_valid_utf8(s)) return false;
  std::vector<std::string_view> lines = text::split_all(s, '\n');
  std::vector<compress::ConfigLineInfo> kinds = compress::classify_config_lines(lines);
  std::size_t sections = 0, settings = 0, assignments = 0, comments = 0, other = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    switch (kinds[i].kind) {
      case compress::ConfigLine::kSection:
        ++sections;
        break;
      case compress::ConfigLine::kAssignment:
      case compress::ConfigLine::kYamlKey: {
        // A setting is named: `2004:` (objdump) or `12 = 3` is no key.
        std::string_view t = ltrim(lines[i]);
        if (starts_with(t, "- ")) t = ltrim(t.substr(2));
        bool named = !t.empty() && (is_alpha(t[0]) || t[0] == '_' || t[0] == '"' || t[0] == '\'');
        ++(named ? settings : other);
        if (named && kinds[i].kind == compress::ConfigLine::kAssignment) ++assignments;
        break;
      }
      case compress::ConfigLine::kComment:
        ++comments;
        break;
      case compress::ConfigLine::kProse: {
        // INI names a section with any text between the brackets (`[mypy-a.*,b.*]`), and a
        // desktop entry a key's locale (`Name[de]=…`).
        std::string_view t = rtrim(ltrim(lines[i]));
        bool header = t.size() > 2 && t.front() == '[' && t.back() == ']' &&
                      t.find_first_of("[]", 1) == t.size() - 1;
        if (header) {
          ++sections;
        } else if (localized_key(t)) {
          ++settings;
          ++assignments;
        } else {
          ++other;
        }
        break;
      }
      default:
        break;
    }
  }
  if (other * 10 > sections + settings + other) return false;
  // Nothing but comments: a settings file whose every line is commented out.
  if (sections == 0 && settings == 0 && other == 0) return comments >= 8;
  if (sections >= 1) return settings >= 1 || comments >= 4;
  return assignments >= 4;
}

bool looks_config(std::string_view s) {
  if (!compress::classify_config(s)) return false;
  return line_count(s) >= 12;
}

namespace {

// One line of pretty-printed JSON: a member ("key": …), a string/number/literal value, or a
// bracket line, each optionally followed by a comma.
bool json_fragment_line(std::string_view line) {
  std::string_view t = text::trim_space(line);
  if (!t.empty() && t.back() == ',') t.remove_suffix(1);
  if (t.empty()) return false;
  char c = t.front();
  if (c == '"')
    return t.size() >= 2 && (t.back() == '"' || t.find("\": ") != std::string_view::npos);
  if (c == '{' || c == '[') return t.size() == 1 || t == "{}" || t == "[]";
  if (c == '}' || c == ']') return t.size() == 1;
  if (t == "true" || t == "false" || t == "null") return true;
  return t.find_first_not_of("0123456789+-.eE") == std::string_view::npos;
}

// A structured log: one JSON object a line (pino, bunyan, zap, structlog, Docker's json-file),
// most of them naming a time, level or message. Such lines are records, not a document.
bool looks_json_lines_log(std::string_view s) {
  static constexpr std::array<std::string_view, 9> kLogKeys = {
      "\"level\":", "\"lvl\":",        "\"severity\":", "\"time\":",   "\"timestamp\":",
      "\"ts\":",    "\"@timestamp\":", "\"msg\":",      "\"message\":"};
  std::size_t lines = 0, objects = 0, logged = 0;
  for (std::string_view line : text::split_all(s)) {
    line = text::trim_space(line);
    if (line.empty()) continue;
    ++lines;
    if (line.front() != '{' || line.back() != '}' || !json::is_valid(line)) continue;
    ++objects;
    for (std::string_view k : kLogKeys) {
      if (line.find(k) != std::string_view::npos) {
        ++logged;
        break;
      }
    }
  }
  return lines >= 8 && objects * 10 >= lines * 9 && logged * 2 >= objects;
}

}  // namespace

bool looks_json_fragment(std::string_view s) {
  std::size_t lines = 0, json_lines = 0;
  for (std::string_view line : text::split_all(s)) {
    if (text::is_blank(line)) continue;
    ++lines;
    if (json_fragment_line(line)) ++json_lines;
  }
  return lines >= 8 && json_lines * 10 >= lines * 9;
}

std::string detect_body(std::string_view body) {
  std::string_view t = text::trim_space(body);
  if (t.empty()) return "text";
  if ((t[0] == '{' || t[0] == '[') && json::is_valid(t)) return "json";
  // Lines cut from pretty-printed JSON (a Read with offset/limit): JSON text, though no
  // document; the json compressor declines it and the pipeline drops only its gutter.
  if (looks_json_fragment(body)) return "json";
  if (looks_json_lines_log(body)) return "log";
  if (looks_terminal(body)) return "terminal";
  if (looks_diff(body)) return "diff";
  if (compress::diagnostics::is_diagnostics(body)) return "diagnostics";
  if (looks_xml(body)) return "xml";
  if (looks_html(body)) return "html";
  if (looks_tabular(body)) return "tabular";
  if (compress::is_records(body)) return "records";
  // Beyond the original order: strong line-shape evidence for logs and grep output, real
  // config files and Markdown documents are decided before the (permissive) code rule, and
  // code additionally needs a code-like line density.
  LineStats st = line_stats(body);
  std::optional<compress::ConfigShape> shape = compress::classify_config(body);
  bool config = shape && line_count(body) >= 12;
  bool flat = shape && shape->kind == compress::ConfigKind::kToml && shape->sections == 0;
  // Sectioned TOML/INI and YAML win over repeated-template evidence (manifests repeat lines);
  // a flat key=value file does not, because logfmt logs look exactly like one.
  if (config && !flat) return "config";
  // Prose under several Markdown headings (release notes, changelogs) repeats its line
  // templates like a log; it is a document when the lines are prose rather than code.
  if (markdown_prose(st)) return "text";
  if (strongly_search(st)) return "search-result";
  if (strongly_log(st)) return "log";
  if (config) return "config";
  if (markdown_document(st)) return "text";
  if (settings_lines(body) && !code_rule(body)) return "config";
  bool log = looks_log(body);
  if (starts_with(t, "#!") && !log) return "code";
  if (!log && code_rule(body) && code_dense(st)) return "code";
  if (log) return "log";
  if (looks_search_result(body)) return "search-result";
  return "text";
}

}  // namespace core

std::string detect(std::string_view input) { return detect(input, {}); }

std::string detect(std::string_view input, std::string_view source_path) {
  core::Unwrapped u = core::unwrap_input(input);
  return core::detect_body(u.body, source_path);
}

}  // namespace caveman
