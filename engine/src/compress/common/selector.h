// Needle-safe elision (docs/formats.md#markers): a run of lines is hidden only behind a marker
// whose selector — the literal text of every hidden line, `{name}` standing for one field (a
// run without spaces) and `{*}` for any text — is true of every line it hides, with their
// exact count. Lines an answer may depend on are never hidden: rare lines (their template,
// digits masked, occurs once), failure signals (problem words, HTTP statuses ≥ 400, non-zero
// exits, sanitizer reports) and field outliers (a duration far above its template's median).
// Everything here is deterministic and never allocates in proportion to more than the input.
#ifndef CAVEMAN_COMPRESS_COMMON_SELECTOR_H_
#define CAVEMAN_COMPRESS_COMMON_SELECTOR_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::compress {

// At most this many placeholders in one selector or template: a handful a reader can follow.
inline constexpr std::size_t kMaxSelectorPlaceholders = 5;

// Whether a line carries a failure signal: a problem word (error, warning, fail, panic, denied,
// abort, segfault, `not ok`, an errno name such as ENOENT, …), an HTTP status ≥ 400, a
// non-zero exit or a sanitizer/valgrind report header.
bool is_failure_signal(std::string_view line);

// The lines of `lines` no marker may hide: failure signals, rare lines and field outliers.
std::vector<bool> needle_lines(const std::vector<std::string_view>& lines);

// Whether `selector` (a template as written between the marker's quotes, unescaped) is true of
// `line`: the whole line, its surrounding whitespace aside, is the template's literal text with
// each `{name}` one or more non-space characters and each `{*}` any text.
bool selector_matches(std::string_view selector, std::string_view line);

// A selector true of every line of [begin, end), with literal text a reader can use and at
// most kMaxSelectorPlaceholders placeholders cut at field boundaries; nullopt when none is.
std::optional<std::string> selector_of(const std::vector<std::string_view>& lines,
                                       std::size_t begin, std::size_t end);

// One stretch of a run that a single selector covers.
struct Covered {
  std::size_t begin = 0, end = 0;
  std::string selector;
};

// Splits the run [begin, end) into the longest stretches, in order, that one selector each
// covers and that hold at least `min_lines` lines; the lines of no stretch must be kept.
// A field whose values are categories (an HTTP status, a log level, an exit code) never varies
// within one stretch.
std::vector<Covered> cover_run(const std::vector<std::string_view>& lines, std::size_t begin,
                               std::size_t end, std::size_t min_lines);

// `… N <what> matching "SELECTOR" elided (caveman) …` (a `"` or `\` in the selector written
// after a backslash).
std::string selector_marker(std::size_t n, std::string_view what, std::string_view selector);

// Whether a cut between s[k-1] and s[k] falls on a field boundary: next to a separator, and
// never inside a number (`1.{5}`), a word or a signed number's sign.
bool is_field_cut(std::string_view s, std::size_t k);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMMON_SELECTOR_H_
