// The log compressor (docs/spec/compressors.md#log): keep the head, the tail, every line that
// carries an error word or a stack-frame shape, the line that ends a Python traceback,
// query-relevant lines and everything the redundancy gate finds new; the other lines are hidden
// needle-safely (selector.h): behind markers whose selector is true of every line they hide.
#include <cstring>
#include <string>
#include <vector>

#include "caveman/base/text.h"
#include "compress/common/elide_lines.h"
#include "compress/common/keep_policy.h"
#include "compress/common/problem_lines.h"
#include "compress/common/selector.h"
#include "compress/common/summary.h"
#include "compress/compressors.h"
#include "text/lines.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

constexpr KeepPolicy kLogKeep{.min_units = 4, .head = 2, .tail = 2, .query_limit = 16};
constexpr std::string_view kMarkerTag = "elided (caveman)";

bool is_indent(char c) { return c == ' ' || c == '\t'; }

bool starts_after_indent(std::string_view line, std::string_view what, bool need_indent) {
  std::size_t i = 0;
  while (i < line.size() && (is_indent(line[i]) || line[i] == '\v' || line[i] == '\f')) ++i;
  if (need_indent && i == 0) return false;
  return line.substr(i).starts_with(what);
}

// `.go:` followed by a digit (Go stack frames and compiler positions).
bool has_go_position(std::string_view line) {
  for (std::size_t p = line.find(".go:"); p != std::string_view::npos;
       p = line.find(".go:", p + 1)) {
    if (p + 4 < line.size() && line[p + 4] >= '0' && line[p + 4] <= '9') return true;
  }
  return false;
}

bool is_stack_frame(std::string_view line) {
  // Python frames are `  File "…", line N`; a doctest failure header is the same location
  // line without indentation, so indentation is optional for `File "` only.
  return starts_after_indent(line, "at ", true) || starts_after_indent(line, "File \"", false) ||
         starts_after_indent(line, "--->", true) || has_go_position(line) ||
         text::contains_ci(line, "caused by");
}

// At least kLogKeep.min_units lines (a trailing '\n' does not start one): checked with memchr
// before anything scans the whole input, so one huge line is declined cheaply.
bool has_min_lines(std::string_view s) {
  if (s.empty()) return false;
  std::size_t lines = 1;
  for (const char* p = s.data(); lines < kLogKeep.min_units + 1;) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(s.data() + s.size() - p));
    if (nl == nullptr) break;
    p = static_cast<const char*>(nl) + 1;
    if (p == s.data() + s.size()) break;  // trailing newline
    ++lines;
  }
  return lines >= kLogKeep.min_units;
}

std::optional<CompressorOutput> compress_log(std::string_view input, std::string_view query) {
  if (!has_min_lines(input) || !text::is_valid_utf8(input)) return std::nullopt;
  // Re-entry guard: our own output (markers, note) is not compressed again, which makes a
  // second pass a pass-through (idempotence) and keeps stated invariants first-hand.
  if (input.find(kMarkerTag) != std::string_view::npos ||
      input.find(kNotePrefix) != std::string_view::npos) {
    return std::nullopt;
  }
  text::Lines split = text::split_lines(input);
  const std::vector<std::string_view>& lines = split.lines;
  const std::size_t n = lines.size();
  if (n < kLogKeep.min_units) return std::nullopt;

  std::vector<bool> keep(n, false);
  std::size_t traceback_indent = std::string_view::npos;
  for (std::size_t i = 0; i < n; ++i) {
    std::string_view line = lines[i];
    if (kLogKeep.at_ends(i, n) || names_a_problem(line) || is_stack_frame(line)) keep[i] = true;
    // The first line back at (or left of) a traceback header's indentation is the
    // exception itself ("decimal.InvalidOperation: …"), whatever its class is called.
    if (traceback_indent != std::string_view::npos && !text::is_blank(line) &&
        base::leading_blanks(line) <= traceback_indent) {
      keep[i] = true;
      traceback_indent = std::string_view::npos;
    }
    if (line.find("Traceback (most recent call last):") != std::string_view::npos) {
      traceback_indent = base::leading_blanks(line);
    }
  }
  keep_relevant_and_novel(lines, query, kLogKeep, keep);

  ElidedLines out = elide_runs(lines, keep, split.trailing_newline, split.crlf_majority,
                               [](std::size_t, std::size_t run, std::string_view selector) {
                                 return selector_marker(run, "lines", selector);
                               });
  return output_of(std::move(out.text), "log");
}

}  // namespace

std::unique_ptr<Compressor> make_log_compressor() { return make_compressor("log", compress_log); }

}  // namespace caveman::compress
