#include <algorithm>
#include <map>

#include "core/wrappers.h"
#include "text/lines.h"

namespace caveman::core {
namespace {

constexpr std::size_t kMinLines = 8;
constexpr std::string_view kArrow = "\xE2\x86\x92";  // U+2192, Claude Code's Read tool

struct Gutter {
  std::int64_t number;
  std::size_t pad;     // leading spaces
  std::size_t digits;
  std::string_view separator;
  std::string_view rest;
};

std::optional<Gutter> parse_gutter(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  std::size_t d0 = i;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9' && i - d0 < 13) ++i;
  std::size_t digits = i - d0;
  if (digits == 0 || digits > 12) return std::nullopt;
  std::int64_t n = 0;
  for (std::size_t k = d0; k < i; ++k) n = n * 10 + (line[k] - '0');
  std::string_view tail = line.substr(i);
  Gutter g{n, d0, digits, {}, {}};
  if (tail.empty() || tail == "\r") {
    g.rest = tail;  // a bare number: numbered empty line (keep a CR with the line)
    g.separator = "";
    return g;
  }
  for (std::string_view sep : {std::string_view("\t"), kArrow, std::string_view(" | "),
                               std::string_view(": ")}) {
    if (tail.substr(0, sep.size()) == sep) {
      g.separator = sep;
      g.rest = tail.substr(sep.size());
      return g;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Listing> strip_gutter(std::string_view input) {
  // Every input passes through here: decline on the first line before splitting them all
  // (the loop below would decline on it too).
  std::string_view first = input.substr(0, input.find('\n'));
  if (!parse_gutter(first) && !text::is_blank(first)) return std::nullopt;
  text::Lines lines = text::split_lines(input);
  if (lines.lines.size() < kMinLines) return std::nullopt;
  Listing listing;
  std::string source;
  source.reserve(input.size());
  std::int64_t prev = 0;
  std::size_t numbered = 0;
  bool first_gutter = true;
  for (std::size_t idx = 0; idx < lines.lines.size(); ++idx) {
    std::string_view line = lines.lines[idx];
    std::optional<Gutter> g = parse_gutter(line);
    std::string_view rest;
    if (g) {
      if (g->number <= prev) return std::nullopt;
      prev = g->number;
      ++numbered;
      rest = g->rest;
      if (first_gutter && !g->separator.empty()) {
        listing.separator = std::string(g->separator);
        listing.pad_width = g->pad > 0 ? g->pad + g->digits : 0;
        first_gutter = false;
      }
      listing.numbers.push_back(g->number);
    } else if (text::is_blank(line)) {
      rest = line;
      listing.bare_blanks = true;
      listing.numbers.push_back(prev);
    } else {
      return std::nullopt;
    }
    if (idx > 0) source.push_back('\n');
    source.append(rest);
  }
  if (numbered < kMinLines) return std::nullopt;
  // A last line with an empty rest and no newline after it ("    14" at the very end) would
  // leave the source ending in "\n", which reads back as a trailing newline, not a line: the
  // rewrapped text would lose that line. Such a listing is left as it is.
  if (!lines.trailing_newline && source.size() > 0 && source.back() == '\n') return std::nullopt;
  // push_back, not = "\t": GCC 12 at -O2 reports a false -Wrestrict on the literal assignment.
  if (listing.separator.empty()) listing.separator.push_back('\t');
  if (lines.trailing_newline) source.push_back('\n');
  listing.source = std::move(source);
  return listing;
}

std::string restore_gutter(std::string_view compressed, const Listing& listing) {
  text::Lines src = text::split_lines(listing.source);
  if (listing.numbers.size() < src.lines.size()) return std::string(compressed);
  std::map<std::string_view, std::vector<std::size_t>> positions;
  for (std::size_t i = 0; i < src.lines.size(); ++i) positions[src.lines[i]].push_back(i);

  text::Lines out = text::split_lines(compressed);
  std::vector<std::int64_t> nums(out.lines.size());
  // A blank line traced to a source line that carried a gutter ("     8\t") gets it back even
  // when other blank lines had none: dropping it could leave too few numbered lines for
  // the result to parse as a listing again.
  std::vector<bool> numbered_blank(out.lines.size(), false);
  std::size_t cursor = 0, tracked = 0, traceable = 0;
  const std::size_t last = src.lines.empty() ? 0 : src.lines.size() - 1;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    std::string_view line = out.lines[i];
    nums[i] = listing.numbers.empty() ? 0 : listing.numbers[std::min(cursor, last)];
    if (text::is_blank(line)) {
      // A blank source line at the cursor is this line: consume its number, so a run of
      // blank lines keeps strictly increasing numbers instead of repeating one.
      if (cursor < src.lines.size() && text::is_blank(src.lines[cursor])) {
        nums[i] = listing.numbers[cursor];
        // Bare blank lines repeat the previous number (0 before the first); numbered ones
        // are strictly greater.
        numbered_blank[i] = nums[i] > (cursor > 0 ? listing.numbers[cursor - 1] : 0);
        ++cursor;
      }
      continue;
    }
    ++tracked;
    auto it = positions.find(line);
    if (it == positions.end()) continue;
    auto pos = std::lower_bound(it->second.begin(), it->second.end(), cursor);
    if (pos == it->second.end()) continue;
    nums[i] = listing.numbers[*pos];
    cursor = *pos + 1;
    ++traceable;
  }
  if (traceable * 2 < tracked) return std::string(compressed);

  std::string result;
  result.reserve(compressed.size() + out.lines.size() * 8);
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    if (i > 0) result.push_back('\n');
    if (listing.bare_blanks && text::is_blank(out.lines[i]) && !numbered_blank[i]) {
      result.append(out.lines[i]);
      continue;
    }
    std::string num = std::to_string(nums[i]);
    if (num.size() < listing.pad_width) result.append(listing.pad_width - num.size(), ' ');
    result += num;
    result += listing.separator;
    result.append(out.lines[i]);
  }
  if (out.trailing_newline) result.push_back('\n');
  return result;
}

}  // namespace caveman::core
