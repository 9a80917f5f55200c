#include "compress/terminal/terminal.h"

#include <string>
#include <unordered_set>
#include <vector>

#include "caveman/base/text.h"
#include "compress/common/elide_lines.h"
#include "compress/common/keep_policy.h"
#include "compress/common/redundancy.h"
#include "compress/common/selector.h"
#include "compress/compressors.h"
#include "compress/terminal/terminal_clean.h"
#include "text/lines.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

// The query is ignored: terminal output has no relevance ranking.
constexpr KeepPolicy kTerminalKeep{.min_units = 4, .head = 3, .tail = 3, .query_limit = 0};
constexpr std::string_view kTerminalMarkerWhat = "lines";

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_space(char c) { return c == ' ' || c == '\t'; }

// A letter run ending in "error" or "exception": AssertionError, IOError, RuntimeException.
bool has_error_identifier(std::string_view line) {
  for (std::size_t i = 0; i < line.size();) {
    if (!is_alpha(line[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < line.size() && is_alpha(line[j])) ++j;
    std::string_view run = line.substr(i, j - i);
    if (base::iends_with_ascii(run, "error") || base::iends_with_ascii(run, "exception")) return true;
    i = j;
  }
  return false;
}

// `:12:34:` — a compiler diagnostic position.
bool has_line_col(std::string_view line) {
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] != ':') continue;
    std::size_t j = i + 1;
    while (j < line.size() && base::is_ascii_digit(line[j])) ++j;
    if (j == i + 1 || j >= line.size() || line[j] != ':') continue;
    std::size_t k = j + 1;
    while (k < line.size() && base::is_ascii_digit(line[k])) ++k;
    if (k > j + 1 && k < line.size() && line[k] == ':') return true;
  }
  return false;
}

bool has_stack_frame(std::string_view line) {
  std::size_t ws = 0;
  while (ws < line.size() && is_space(line[ws])) ++ws;
  std::string_view rest = line.substr(ws);
  if (ws > 0 && (rest.substr(0, 3) == "at " || rest.substr(0, 6) == "File \"")) return true;
  if (rest.substr(0, 4) == "--->") return true;
  for (std::size_t p = line.find(".go:"); p != std::string_view::npos;
       p = line.find(".go:", p + 1)) {
    if (p + 4 < line.size() && base::is_ascii_digit(line[p + 4])) return true;
  }
  return text::contains_ci(line, "caused by");
}

bool has_failed_exit(std::string_view line) {
  for (std::size_t p = line.find("exit status "); p != std::string_view::npos;
       p = line.find("exit status ", p + 1)) {
    char c = p + 12 < line.size() ? line[p + 12] : '\0';
    if (c >= '1' && c <= '9') return true;
  }
  return false;
}

}  // namespace

bool is_diffstat_line(std::string_view line) {
  // Drop a `git log --graph` prefix ("| | ", "|/ ", "* ").
  std::size_t i = 0;
  while (i < line.size() && (line[i] == '|' || line[i] == '/' || line[i] == '\\' ||
                             line[i] == '*' || is_space(line[i]))) {
    ++i;
  }
  std::string_view rest = line.substr(i);
  if (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
  std::size_t bar = rest.find(" | ");
  if (bar == 0 || bar == std::string_view::npos) return false;
  std::string_view stat = rest.substr(bar + 3);
  while (!stat.empty() && is_space(stat.front())) stat.remove_prefix(1);
  if (stat.substr(0, 4) == "Bin ") return true;
  std::size_t d = 0;
  while (d < stat.size() && base::is_ascii_digit(stat[d])) ++d;
  if (d == 0 || d + 1 >= stat.size() || stat[d] != ' ') return false;
  for (char c : stat.substr(d + 1)) {
    if (c != '+' && c != '-') return false;
  }
  return true;
}

bool is_terminal_problem_line(std::string_view line) {
  return text::contains_word_ci(line, {"error", "err", "fatal", "panic", "exception",
                                       "traceback", "fail", "failed", "failure", "warn",
                                       "warning"}) ||
         has_error_identifier(line) || has_stack_frame(line) || has_line_col(line) ||
         has_failed_exit(line);
}

namespace {

std::optional<CompressorOutput> compress_terminal(std::string_view input, std::string_view) {
  if (input.empty() || !text::is_valid_utf8(input)) return std::nullopt;
  // Our own output (markers, no escape sequences) is final: a second pass could elide more.
  if (has_count_marker(input, kTerminalMarkerWhat) &&
      input.find('\x1b') == std::string_view::npos) {
    return std::nullopt;
  }
  text::Lines split = text::split_lines(input);
  std::vector<std::string> cleaned;
  cleaned.reserve(split.lines.size());
  for (std::string_view l : split.lines) cleaned.push_back(clean_terminal_line(l));
  std::vector<std::string_view> lines(cleaned.begin(), cleaned.end());
  const std::size_t n = lines.size();

  std::vector<bool> keep(n, true);
  if (n >= kTerminalKeep.min_units) {
    // A problem line is force-kept once; byte-identical repeats (the same warning from
    // every translation unit) are left to the redundancy gate like any other line.
    std::unordered_set<std::string_view> problems_seen;
    for (std::size_t i = 0; i < n; ++i) {
      std::string_view l = lines[i];
      bool k = kTerminalKeep.at_ends(i, n) || is_diffstat_line(l) ||
               has_count_marker(l, kTerminalMarkerWhat);
      if (!k && is_terminal_problem_line(l)) k = problems_seen.insert(l).second;
      keep[i] = k;
    }
    keep_non_redundant(lines, keep);
  }
  ElidedLines out = elide_runs(lines, keep, split.trailing_newline, split.crlf_majority,
                               [](std::size_t, std::size_t run, std::string_view selector) {
                                 return selector_marker(run, kTerminalMarkerWhat, selector);
                               });
  if (out.text == input) return std::nullopt;
  return output_of(std::move(out.text));
}

}  // namespace

std::unique_ptr<Compressor> make_terminal_compressor() {
  return make_compressor("terminal", compress_terminal);
}

}  // namespace caveman::compress
