#include "compress/search/search_result.h"

#include <string>
#include <vector>

#include "caveman/base/text.h"
#include "compress/common/elide_lines.h"
#include "compress/common/keep_policy.h"
#include "compress/common/selector.h"
#include "compress/compressors.h"
#include "text/lines.h"
#include "text/utf8.h"
#include "text/words.h"

namespace caveman::compress {
namespace {

constexpr KeepPolicy kSearchKeep{.min_units = 18, .head = 8, .tail = 4, .query_limit = 24};
constexpr std::size_t kMaxPathBytes = 240;
constexpr std::string_view kSearchMarkerWhat = "search result lines";

bool is_pathish_start(char c) {
  return c == '.' || c == '/' || c == '~' || c == '_' || c == '-' || base::is_ascii_digit(c) ||
         (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

// Whole-word keywords anywhere on the line (the original's list).
bool has_line_keyword(std::string_view line) {
  return text::contains_word_ci(line, {"error", "fail", "failed", "panic", "action", "followup",
                                       "security", "secret", "token", "password", "key"});
}

// Beyond the original: a hit whose matched text reports a problem is kept even when the
// redundancy gate would call it a repeat ("raise SomethingError" lines are not, since the
// words must stand alone).
bool has_problem_in_match(std::string_view line) {
  std::optional<std::size_t> at = search_hit_text_offset(line);
  if (!at) return false;
  return text::contains_word_ci(line.substr(*at), {"error", "fatal", "exception", "traceback",
                                                   "failure", "failed"});
}

std::optional<CompressorOutput> compress_search_result(std::string_view input,
                                                       std::string_view query) {
  // Our own output is final (re-entry guard): a second pass could elide more.
  if (has_count_marker(input, kSearchMarkerWhat)) return std::nullopt;
  if (!text::is_valid_utf8(input)) return std::nullopt;
  text::Lines split = text::split_lines(input);
  const std::vector<std::string_view>& lines = split.lines;
  const std::size_t n = lines.size();
  if (n < kSearchKeep.min_units) return std::nullopt;

  std::vector<bool> keep(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    std::string_view l = lines[i];
    if (kSearchKeep.at_ends(i, n) || has_line_keyword(l) || has_problem_in_match(l)) {
      keep[i] = true;
    }
  }
  keep_relevant_and_novel(lines, query, kSearchKeep, keep);

  ElidedLines out = elide_runs(lines, keep, split.trailing_newline, split.crlf_majority,
                               [](std::size_t, std::size_t run, std::string_view selector) {
                                 return selector_marker(run, kSearchMarkerWhat, selector);
                               });
  if (out.markers == 0) return std::nullopt;
  return output_of(std::move(out.text));
}

}  // namespace

std::optional<std::size_t> search_hit_text_offset(std::string_view line) {
  if (line.empty() || !is_pathish_start(line[0])) return std::nullopt;
  std::size_t colon = line.find(':', 1);
  if (colon == std::string_view::npos || colon - 1 > kMaxPathBytes) return std::nullopt;
  std::size_t i = colon + 1;
  std::size_t digits = i;
  while (i < line.size() && base::is_ascii_digit(line[i])) ++i;
  if (i == digits || i >= line.size() || line[i] != ':') return std::nullopt;
  ++i;
  // Optional column: `:line:col:`.
  std::size_t j = i;
  while (j < line.size() && base::is_ascii_digit(line[j])) ++j;
  if (j > i && j < line.size() && line[j] == ':') i = j + 1;
  return i;
}

std::unique_ptr<Compressor> make_search_result_compressor() {
  return make_compressor("search-result", compress_search_result);
}

}  // namespace caveman::compress
