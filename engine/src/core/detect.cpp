// Content-type detection (ENGINE.md §2): the first rule that fires wins.
#include <array>

#include "caveman/engine.h"
#include "compress/config_parse.h"
#include "compress/table_parse.h"
#include "core/detect_rules.h"
#include "core/wrappers.h"
#include "json/json.h"
#include "text/lines.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman {
namespace core {
namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool contains(std::string_view s, std::string_view p) { return s.find(p) != std::string_view::npos; }

std::size_t count_of(std::string_view s, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t p = s.find(needle); p != std::string_view::npos; p = s.find(needle, p + 1)) ++n;
  return n;
}

// "dd:dd:dd" at position i.
bool clock_at(std::string_view s, std::size_t i) {
  return i + 8 <= s.size() && is_digit(s[i]) && is_digit(s[i + 1]) && s[i + 2] == ':' &&
         is_digit(s[i + 3]) && is_digit(s[i + 4]) && s[i + 5] == ':' && is_digit(s[i + 6]) &&
         is_digit(s[i + 7]);
}

bool has_timestamp(std::string_view line) {
  for (std::size_t i = 0; i + 19 <= line.size(); ++i) {
    if (is_digit(line[i]) && is_digit(line[i + 1]) && is_digit(line[i + 2]) &&
        is_digit(line[i + 3]) && line[i + 4] == '-' && is_digit(line[i + 5]) &&
        is_digit(line[i + 6]) && line[i + 7] == '-' && is_digit(line[i + 8]) &&
        is_digit(line[i + 9]) && (line[i + 10] == ' ' || line[i + 10] == 'T') &&
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
    while (j < s.size() && (is_digit(s[j]) || s[j] == ';' || s[j] == '?')) ++j;
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
    if (starts_with(line, "diff --git ") || starts_with(line, "@@ ") ||
        starts_with(line, "--- ") || starts_with(line, "+++ ")) {
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
  for (std::string_view p : {"\nimport ", "\nexport ", "\npackage ", "\nfunc ", "\ndef ",
                             "\nclass ", "\nconst "}) {
    if (contains(s, p)) return true;
  }
  return false;
}

bool looks_html(std::string_view s) {
  std::string lower = text::ascii_lower(text::trim_space(s));
  if (starts_with(lower, "<!doctype html") || starts_with(lower, "<html")) return true;
  if (has_code_structure(s)) return false;
  bool container = contains(lower, "<body") || contains(lower, "<article") ||
                   contains(lower, "<main") || contains(lower, "<div") ||
                   contains(lower, "<p>") || contains(lower, "<p ");
  return container && count_of(s, "<") >= 6;
}

bool looks_log(std::string_view s) {
  std::vector<std::string_view> lines = text::split_all(s, '\n');
  if (lines.size() < 4) return false;
  std::size_t matches = 0;
  for (std::string_view line : lines) {
    if (text::contains_word_ci(line, {"trace", "debug", "info", "warn", "warning", "error",
                                      "fatal", "panic"}) ||
        bracket_tag_start(line) || has_timestamp(line) || has_word_clock(line)) {
      ++matches;
    }
  }
  return matches >= 3 && matches * 2 >= lines.size();
}

bool looks_code(std::string_view s) {
  if (looks_log(s)) return false;
  if (starts_with(text::trim_space(s), "#!")) return true;
  static constexpr std::array<std::string_view, 25> kKeywords = {
      "func", "package", "import", "def", "class", "function", "return", "const", "let",
      "var", "public", "private", "protected", "static", "void", "struct", "interface",
      "namespace", "module", "fn", "impl", "trait", "export", "async", "await"};
  std::size_t keywords = 0;
  for (std::size_t i = 0; i < s.size() && keywords < 3; ++i) {
    if (!is_alpha(s[i]) || (i > 0 && text::is_word_byte(s[i - 1]))) continue;
    std::size_t j = i;
    while (j < s.size() && text::is_word_byte(s[j])) ++j;
    std::string_view word = s.substr(i, j - i);
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
                   is_digit(c);
    if (!pathish) continue;
    std::size_t colon = line.find(':', 1);
    if (colon == std::string_view::npos || colon - 1 > 240) continue;
    std::size_t j = colon + 1;
    std::size_t d = j;
    while (j < line.size() && is_digit(line[j])) ++j;
    if (j == d || j >= line.size() || line[j] != ':') continue;
    ++matches;
  }
  return matches >= 4 && matches * 3 >= lines.size();
}

bool looks_tabular(std::string_view s) {
  std::optional<compress::Table> t = compress::parse_table(s);
  return t && t->rows.size() >= 8;
}

bool looks_config(std::string_view s) {
  if (!compress::classify_config(s)) return false;
  return text::split_all(s, '\n').size() >= 12;
}

std::string detect_body(std::string_view body) {
  std::string_view t = text::trim_space(body);
  if (t.empty()) return "text";
  if ((t[0] == '{' || t[0] == '[') && json::is_valid(t)) return "json";
  if (looks_terminal(body)) return "terminal";
  if (looks_diff(body)) return "diff";
  if (looks_html(body)) return "html";
  if (looks_tabular(body)) return "tabular";
  if (looks_code(body)) return "code";
  if (looks_log(body)) return "log";
  if (looks_search_result(body)) return "search-result";
  if (looks_config(body)) return "config";
  return "text";
}

}  // namespace core

std::string detect(std::string_view input) {
  core::Unwrapped u = core::unwrap_input(input);
  return core::detect_body(u.body);
}

}  // namespace caveman
