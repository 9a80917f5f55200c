#include "compress/diagnostics/diagnostics.h"

#include <vector>

#include "caveman/base/text.h"
#include "text/lines.h"

namespace caveman::compress::diagnostics {
namespace {

constexpr std::size_t kNpos = std::string_view::npos;

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_blank(char c) { return c == ' ' || c == '\t'; }
bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool ends_with(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

std::string_view trim_left(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  return s;
}

std::size_t digits_from(std::string_view s, std::size_t i) {
  while (i < s.size() && base::is_ascii_digit(s[i])) ++i;
  return i;
}

// `path:LINE`, `path:LINE:COL` or `path(LINE,COL)` at the start of `l` (the path has no
// blanks): the index just past the numbers, or npos.
std::size_t location(std::string_view l) {
  for (std::size_t i = 1; i < l.size() && !is_blank(l[i]); ++i) {
    if (l[i] == ':' && i + 1 < l.size() && base::is_ascii_digit(l[i + 1])) {
      std::size_t j = digits_from(l, i + 1);
      if (j + 1 < l.size() && l[j] == ':' && base::is_ascii_digit(l[j + 1]))
        j = digits_from(l, j + 1);
      return j;
    }
    if (l[i] == '(' && i + 1 < l.size() && base::is_ascii_digit(l[i + 1])) {
      std::size_t j = digits_from(l, i + 1);
      if (j < l.size() && l[j] == ',') j = digits_from(l, j + 1);
      return j < l.size() && l[j] == ')' ? j + 1 : kNpos;
    }
  }
  return kNpos;
}

bool severity(std::string_view s) {
  for (std::string_view k : {"error", "warning", "note", "fatal error", "runtime error", "remark",
                             "Error", "Warning", "Note"}) {
    if (starts_with(s, k) && (s.size() == k.size() || !is_alpha(s[k.size()]))) return true;
  }
  return false;
}

// `path:12:5: error: …`, `path:12: error: …` (javac), `path:12:5:   required from here`
// (gcc's instantiation chain), `path(12,5): error TS…` and `path:12:5 - error TS…` (tsc).
bool located_diagnostic(std::string_view l) {
  std::size_t j = location(l);
  if (j == kNpos || j >= l.size()) return false;
  std::string_view rest = l.substr(j);
  if (starts_with(rest, " - ")) return severity(rest.substr(3));
  if (!starts_with(rest, ":")) return false;
  rest.remove_prefix(1);
  std::string_view t = trim_left(rest);
  if (t.size() == rest.size()) return false;
  return severity(t) || starts_with(t, "required from") || starts_with(t, "required by") ||
         starts_with(t, "in ") || starts_with(t, "In ");
}

// `path: In function 'f':`, `path: At global scope:` (gcc's context lines).
bool context_header(std::string_view l) {
  if (!ends_with(l, ":")) return false;
  for (std::size_t i = 1; i + 5 < l.size() && !is_blank(l[i]); ++i) {
    if (l[i] == ':' && (l.substr(i, 5) == ": In " || l.substr(i, 5) == ": At ")) return true;
  }
  return false;
}

// `obj.c:(.text+0x1e): undefined reference …` (the linker).
bool section_location(std::string_view l) {
  for (std::size_t i = 1; i + 1 < l.size() && !is_blank(l[i]); ++i) {
    if (l[i] == ':' && l[i + 1] == '(') {
      std::size_t close = l.find("): ", i);
      return close != kNpos && l.substr(i, close - i).find(' ') == kNpos;
    }
  }
  return false;
}

// `==1234==` (sanitizers, valgrind) or `--1234--` (valgrind) at the start: the index after it.
std::size_t pid_prefix(std::string_view l) {
  for (std::string_view fence : {"==", "--"}) {
    if (!starts_with(l, fence)) continue;
    std::size_t j = digits_from(l, 2);
    if (j > 2 && l.substr(j, 2) == fence) return j + 2;
  }
  return kNpos;
}

// `TypeError: …`, `ValueError`, `java.lang.IllegalStateException: …`, `Uncaught Error: …`.
bool exception_line(std::string_view l) {
  if (starts_with(l, "Uncaught ")) l.remove_prefix(9);
  std::size_t i = 0;
  if (i >= l.size() || !(is_alpha(l[i]) || l[i] == '_')) return false;
  while (i < l.size() && (is_alpha(l[i]) || base::is_ascii_digit(l[i]) || l[i] == '_' ||
                          l[i] == '.' || l[i] == '$'))
    ++i;
  std::string_view name = l.substr(0, i);
  bool named = false;
  for (std::string_view k :
       {"Error", "Exception", "Warning", "Exit", "Interrupt", "Failure", "Fault"}) {
    if (ends_with(name, k)) named = true;
  }
  if (!named) return false;
  return i == l.size() || l[i] == ':' || (l[i] == ' ' && i + 1 < l.size() && l[i + 1] == '[');
}

}  // namespace

bool is_header(std::string_view l) {
  if (located_diagnostic(l) || context_header(l) || section_location(l) || exception_line(l))
    return true;
  for (std::string_view p :
       {"Traceback (most recent call last):", "During handling of the above exception",
        "The above exception was the direct cause", "In file included from ", "make: ***",
        "ninja: build stopped", "FAILED: ", "collect2: error:", "/usr/bin/ld: ", "ld: ", "error[E",
        "error: ", "warning: ", "fatal error: ", "SUMMARY: ", "Node.js v", "AddressSanitizer",
        "UndefinedBehaviorSanitizer"}) {
    if (starts_with(l, p)) return true;
  }
  if (starts_with(l, "make[")) {
    std::size_t close = l.find("]: ***");
    if (close != kNpos) return true;
  }
  std::size_t pid = pid_prefix(l);
  if (pid != kNpos) {
    std::string_view rest = l.substr(pid);
    return starts_with(rest, "ERROR:") || starts_with(rest, " Invalid ") ||
           starts_with(rest, " ERROR SUMMARY:") || starts_with(rest, " Memcheck") ||
           starts_with(rest, " Conditional jump") || starts_with(rest, " Use of uninitialised") ||
           rest.find(" lost in loss record ") != kNpos;
  }
  // `file:///app/x.mjs:17` alone: node names the line it shows the excerpt of.
  std::size_t j = location(l);
  return j == l.size() && l.find('/') != kNpos;
}

bool is_build_step(std::string_view l) {
  if (starts_with(l, "[")) {
    std::size_t j = digits_from(l, 1);
    if (j > 1 && j < l.size() && l[j] == '/') {
      std::size_t k = digits_from(l, j + 1);
      if (k > j + 1 && l.substr(k, 2) == "] ") return true;
    }
  }
  std::size_t end = 0;
  while (end < l.size() && !is_blank(l[end])) ++end;
  if (end == l.size()) return false;
  std::string_view program = l.substr(0, end);
  std::size_t slash = program.rfind('/');
  if (slash != kNpos) program.remove_prefix(slash + 1);
  for (std::string_view p : {"cc", "gcc", "g++", "c++", "clang", "clang++", "cpp", "ld", "ld.lld",
                             "ld.gold", "ar", "as", "ranlib", "javac", "rustc", "tsc", "nvcc"}) {
    if (program == p) return true;
  }
  // Versioned and cross drivers: gcc-12, x86_64-linux-gnu-g++-12, clang++-16.
  for (std::string_view p : {"gcc-", "g++-", "clang-", "clang++-", "-gcc", "-g++"}) {
    if (program.find(p) != kNpos) return true;
  }
  return false;
}

namespace {

// Lines that belong to the diagnostic above them by their own shape.
bool attached_shape(std::string_view l) {
  std::string_view t = trim_left(l);
  if (starts_with(t, "at ") && t.size() < l.size()) return true;
  if (starts_with(t, "File \"") && t.find("\", line ") != kNpos) return true;
  if (starts_with(t, "--> ") || starts_with(t, "= note:") || starts_with(t, "= help:")) return true;
  if (starts_with(t, "from ") && location(t.substr(5)) != kNpos) return true;
  if (starts_with(t, "#") && t.find(" 0x") != kNpos && t.size() < l.size()) return true;
  if (pid_prefix(l) != kNpos) return true;
  // gcc's and rustc's excerpt gutter: `   12 | code`, `      |    ^~~~`.
  std::size_t d = digits_from(t, 0);
  std::string_view after = trim_left(t.substr(d));
  if (starts_with(after, "|") && (d > 0 || t.size() < l.size())) return true;
  // `N errors generated.`, `compilation terminated.`
  if ((d > 0 && ends_with(t, "generated.")) || t == "compilation terminated.") return true;
  return false;
}

// A caret line under an excerpt: only '^', '~', '+', '-', '|' and blanks, with a '^' or '~'.
bool caret_line(std::string_view l) {
  bool mark = false;
  for (char c : l) {
    if (c == '^' || c == '~')
      mark = true;
    else if (!(c == ' ' || c == '\t' || c == '+' || c == '-' || c == '|'))
      return false;
  }
  return mark;
}

// A rule of '=', '-', '_' or '*' (unittest's and sanitizers' separators): no line of its own.
bool separator(std::string_view l) {
  std::string_view t = trim_left(l);
  if (t.size() < 3) return false;
  for (char c : t) {
    if (c != t[0]) return false;
  }
  return t[0] == '=' || t[0] == '-' || t[0] == '_' || t[0] == '*';
}

}  // namespace

DiagnosticStats scan(std::string_view text) {
  DiagnosticStats st;
  std::vector<std::string_view> lines = text::split_all(text, '\n');
  for (std::string_view& l : lines) {
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  }
  bool open = false;    // the lines above belong to a diagnostic
  bool report = false;  // inside a sanitizer report (==PID==ERROR … ==PID==ABORTING)
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string_view l = lines[i];
    if (trim_left(l).empty()) {
      open = open && report;
      continue;
    }
    if (separator(l)) continue;
    ++st.lines;
    bool is_header = diagnostics::is_header(l);
    if (is_header) {
      ++st.headers;
      ++st.diagnostic;
      open = true;
      std::size_t pid = pid_prefix(l);
      if (pid != kNpos && starts_with(l.substr(pid), "ERROR:")) report = true;
      continue;
    }
    bool excerpt = i + 1 < lines.size() && caret_line(lines[i + 1]);
    bool indented = is_blank(l[0]);
    if (report || attached_shape(l) || caret_line(l) || (open && (indented || excerpt))) {
      ++st.diagnostic;
      std::size_t pid = pid_prefix(l);
      if (pid != kNpos && starts_with(l.substr(pid), "ABORTING")) report = false;
      continue;
    }
    open = false;
  }
  return st;
}

bool is_diagnostics(std::string_view text) {
  DiagnosticStats st = scan(text);
  return st.headers >= 1 && st.diagnostic * 2 >= st.lines;
}

}  // namespace caveman::compress::diagnostics
