#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "core/wrappers.h"
#include "text/lines.h"

namespace caveman::core {
namespace {

// A listing needs this many numbered lines. Fewer will do when the numbers are consecutive,
// every line has a gutter and either the listing has Claude Code's whole-file shape (a
// numbered empty last line without a newline: a one-line JSON file reads as "1\t{…}\n2\t")
// or the text under it is long: a few short numbered lines may be anything, and are not
// worth compressing anyway, but a one-line 500 KB JSON file under a gutter is.
constexpr std::size_t kMinLines = 8;
constexpr std::size_t kShortListingMinBytes = 1024;
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

// What strip_gutter learns about the lines above an optional numbered empty last line.
struct Scan {
  std::size_t numbered = 0;
  bool consecutive = true;  // each number is the previous one + 1 and no line is bare
};

// Parses the first `count` lines into `listing` (numbers, separator, padding) and `source`
// (the text under the gutter, lines joined by '\n'); false when a line is neither a gutter
// line nor blank, or a number does not increase.
bool scan_lines(const std::vector<std::string_view>& lines, std::size_t count, Listing* listing,
                std::string* source, Scan* scan) {
  std::int64_t prev = 0;
  bool first_gutter = true;
  for (std::size_t idx = 0; idx < count; ++idx) {
    std::string_view line = lines[idx];
    std::optional<Gutter> g = parse_gutter(line);
    std::string_view rest = line;
    if (g) {
      if (g->number <= prev) return false;
      if (scan->numbered > 0 && g->number != prev + 1) scan->consecutive = false;
      prev = g->number;
      ++scan->numbered;
      rest = g->rest;
      if (g->separator.empty()) listing->number_only_blanks = true;
      if (first_gutter && !g->separator.empty()) {
        listing->separator = std::string(g->separator);
        listing->pad_width = g->pad > 0 ? g->pad + g->digits : 0;
        listing->lead_spaces = g->pad;
        first_gutter = false;
      }
      listing->numbers.push_back(g->number);
    } else if (text::is_blank(line)) {
      listing->bare_blanks = true;
      scan->consecutive = false;
      listing->numbers.push_back(prev);
    } else {
      return false;
    }
    if (idx > 0) source->push_back('\n');
    source->append(rest);
  }
  return true;
}

// Claude Code's Read shows a file that ends in a newline with one more numbered line, empty
// and without a newline after it ("151\t"). Returns that line, or "" when there is none.
std::string_view numbered_empty_last_line(const text::Lines& lines) {
  if (lines.trailing_newline || lines.lines.size() < 2) return {};
  std::optional<Gutter> g = parse_gutter(lines.lines.back());
  return g && g->rest.empty() ? lines.lines.back() : std::string_view();
}

std::int64_t last_number_of(std::string_view gutter_line) {
  std::optional<Gutter> g = parse_gutter(gutter_line);
  return g ? g->number : 0;
}

void append_number(std::string* out, std::int64_t n, const Listing& listing) {
  std::string num = std::to_string(n);
  if (listing.fixed_lead) {
    out->append(listing.lead_spaces, ' ');
  } else if (num.size() < listing.pad_width) {
    out->append(listing.pad_width - num.size(), ' ');
  }
  *out += num;
}

// Output line i's source line number, whether a blank output line gets a gutter, and whether
// the line was found in the source (a line a compressor added was not).
struct Trace {
  std::vector<std::int64_t> nums;
  std::vector<bool> numbered_blank;
  std::vector<bool> traced;
};

// A compressor that shortens a line keeps its start (a signature whose body was elided): the
// output line then begins with the source line's text. How far ahead that source line is looked
// for bounds the cost on long listings.
constexpr std::size_t kPrefixLookAhead = 4096;
constexpr std::size_t kMinPrefixBytes = 8;

std::optional<std::size_t> find_prefix_source(std::string_view line, const text::Lines& src,
                                              std::size_t cursor) {
  std::size_t end = std::min(src.lines.size(), cursor + kPrefixLookAhead);
  for (std::size_t pos = cursor; pos < end; ++pos) {
    std::string_view s = src.lines[pos];
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    if (s.size() >= kMinPrefixBytes && line.size() > s.size() && line.starts_with(s)) return pos;
  }
  return std::nullopt;
}

// Blank output lines that met no blank source line at the cursor (they follow an elided span)
// take the numbers just below the next traced line, when those numbers are free.
void backfill_blank_numbers(const text::Lines& out, const std::vector<bool>& traced,
                            std::vector<std::int64_t>* nums) {
  std::size_t i = 0;
  while (i < out.lines.size()) {
    if (traced[i] || !text::is_blank(out.lines[i])) {
      ++i;
      continue;
    }
    std::size_t run_end = i;
    while (run_end < out.lines.size() && !traced[run_end] && text::is_blank(out.lines[run_end])) ++run_end;
    std::int64_t before = i > 0 ? (*nums)[i - 1] : 0;
    if (run_end < out.lines.size() && traced[run_end]) {
      std::int64_t next = (*nums)[run_end];
      std::int64_t run = static_cast<std::int64_t>(run_end - i);
      if (next - run > before) {
        for (std::size_t k = i; k < run_end; ++k) (*nums)[k] = next - static_cast<std::int64_t>(run_end - k);
      }
    }
    i = run_end;
  }
}

// Traces each output line back to its source line number (the same line, or for a shortened
// line the source line it starts with); nullopt when fewer than half the non-blank lines trace
// back (the decline rule).
std::optional<Trace> trace_lines(const text::Lines& out, const Listing& listing) {
  text::Lines src = text::split_lines(listing.source);
  if (listing.numbers.size() < src.lines.size()) return std::nullopt;
  std::map<std::string_view, std::vector<std::size_t>> positions;
  for (std::size_t i = 0; i < src.lines.size(); ++i) positions[src.lines[i]].push_back(i);
  Trace t{std::vector<std::int64_t>(out.lines.size()), std::vector<bool>(out.lines.size(), false),
          std::vector<bool>(out.lines.size(), false)};
  std::vector<bool>& traced = t.traced;
  std::size_t cursor = 0, tracked = 0, traceable = 0;
  const std::size_t last = src.lines.empty() ? 0 : src.lines.size() - 1;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    std::string_view line = out.lines[i];
    t.nums[i] = listing.numbers.empty() ? 0 : listing.numbers[std::min(cursor, last)];
    if (text::is_blank(line)) {
      // A blank source line at the cursor is this line: consume its number, so a run of
      // blank lines keeps strictly increasing numbers instead of repeating one.
      if (cursor < src.lines.size() && text::is_blank(src.lines[cursor])) {
        t.nums[i] = listing.numbers[cursor];
        // Bare blank lines repeat the previous number (0 before the first); numbered ones
        // are strictly greater. A blank line traced to a numbered one gets its gutter back
        // even when other blank lines had none: dropping it could leave too few numbered
        // lines for the result to parse as a listing again.
        t.numbered_blank[i] = t.nums[i] > (cursor > 0 ? listing.numbers[cursor - 1] : 0);
        traced[i] = true;
        ++cursor;
      }
      continue;
    }
    ++tracked;
    std::optional<std::size_t> at;
    if (auto it = positions.find(line); it != positions.end()) {
      auto pos = std::lower_bound(it->second.begin(), it->second.end(), cursor);
      if (pos != it->second.end()) at = *pos;
    }
    if (!at) at = find_prefix_source(line, src, cursor);
    if (!at) continue;
    t.nums[i] = listing.numbers[*at];
    traced[i] = true;
    cursor = *at + 1;
    ++traceable;
  }
  if (traceable * 2 < tracked) return std::nullopt;
  backfill_blank_numbers(out, traced, &t.nums);
  return t;
}

// Which lines of a sparse gutter carry their number: the first line, a line after a gap or
// after a line the compressor added (blank or not), every kSparseGutterStep-th number (at the
// latest kSparseGutterStep lines after the last one shown, so blank lines, otherwise bare,
// never leave a longer run to count), and a line whose own text starts like a gutter ("    1",
// "12\tx"), which bare would read as numbered.
std::vector<bool> sparse_numbers(const text::Lines& out, const Trace& t) {
  std::vector<bool> shown(out.lines.size(), false);
  bool follows = false;  // the line above was traced, so this number may be counted on
  std::int64_t last_shown = 0;
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    bool continues = follows && i > 0 && t.nums[i] == t.nums[i - 1] + 1;
    follows = t.traced[i];
    if (!t.traced[i]) continue;
    bool counted = t.nums[i] % kSparseGutterStep != 0 && t.nums[i] - last_shown < kSparseGutterStep;
    bool looks_numbered = parse_gutter(out.lines[i]).has_value();
    if (!continues || looks_numbered || (!text::is_blank(out.lines[i]) && !counted)) {
      shown[i] = true;
      last_shown = t.nums[i];
    }
  }
  return shown;
}

// A marker of a file read says which lines of the file it hides and the re-read that shows
// them (docs/formats.md#markers): "… 61 lines matching "X" elided (caveman) …" becomes
// "… lines 120–180 matching "X" elided (caveman): Read offset=120 limit=61 …". nullopt when
// the line is not a count marker of lines.
constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // …
constexpr std::string_view kMarkerTag = " elided (caveman)";

constexpr std::string_view kEnDash = "\xE2\x80\x93";  // –

// "… lines A–B elided (caveman)" (a code body, numbered in the compressed text): B − A + 1.
std::optional<std::size_t> stated_range(std::string_view line, std::size_t i,
                                        std::size_t* rest_at) {
  auto number = [&](std::size_t* v) {
    std::size_t d0 = i;
    for (*v = 0; i < line.size() && line[i] >= '0' && line[i] <= '9' && i - d0 < 9; ++i) {
      *v = *v * 10 + static_cast<std::size_t>(line[i] - '0');
    }
    return i > d0;
  };
  std::size_t a = 0, b = 0;
  if (!number(&a) || line.substr(i, kEnDash.size()) != kEnDash) return {};
  i += kEnDash.size();
  if (!number(&b) || b < a || !line.substr(i).starts_with(kMarkerTag)) return {};
  *rest_at = i;
  return b - a + 1;
}

std::optional<std::size_t> marker_count(std::string_view line, std::size_t* rest_at) {
  std::size_t at = line.find(kEllipsis);
  if (at == std::string_view::npos || line.find(kMarkerTag) == std::string_view::npos) return {};
  constexpr std::string_view kLines = " lines ";
  if (line.substr(at + kEllipsis.size()).starts_with(kLines)) {
    return stated_range(line, at + kEllipsis.size() + kLines.size(), rest_at);
  }
  std::size_t i = at + kEllipsis.size() + 1, d0 = i, n = 0;
  while (i < line.size() && line[i] >= '0' && line[i] <= '9' && i - d0 < 9)
    n = n * 10 + (line[i++] - '0');
  if (i == d0 || n == 0) return {};
  // The unit: words up to the selector or the tag, the last of them "lines".
  std::size_t end = std::min(line.find(" matching \"", i), line.find(kMarkerTag, i));
  std::string_view unit = line.substr(i, end - i);
  if (!unit.ends_with(" lines")) return {};
  *rest_at = end;
  return n;
}

std::string ranged_marker(std::string_view line, std::size_t rest_at, std::int64_t first,
                          std::int64_t count) {
  std::string_view rest = line.substr(rest_at);
  std::string_view close = " \xE2\x80\xA6";
  bool closed = rest.ends_with(close);
  if (closed) rest.remove_suffix(close.size());
  std::string out(line.substr(0, line.find(kEllipsis)));
  out += std::string(kEllipsis) + " lines " + std::to_string(first) + std::string(kEnDash) +
         std::to_string(first + count - 1);
  out += rest;
  std::string reread = "Read offset=" + std::to_string(first) + " limit=" + std::to_string(count);
  if (rest.find(" Read offset=") == std::string_view::npos) {  // not ranged before
    out += rest.find("(caveman):") != std::string_view::npos ? "; " + reread : ": " + reread;
  }
  if (closed) out += close;
  return out;
}

// For each run of untraced output lines made only of markers whose counts add up to the
// source lines between the traced lines around it, the markers with their line ranges;
// other runs (a factored block, lines a compressor added) stay as they are.
std::vector<std::string> range_markers(const text::Lines& out, const Trace& t,
                                       const Listing& listing) {
  std::vector<std::string> ranged(out.lines.size());
  std::int64_t last_number = listing.numbers.empty() ? 0 : listing.numbers.back();
  std::int64_t before = listing.numbers.empty() ? 0 : listing.numbers.front() - 1;
  std::size_t i = 0;
  while (i < out.lines.size()) {
    if (t.traced[i]) {
      before = t.nums[i];
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < out.lines.size() && !t.traced[end]) ++end;
    std::int64_t after = end < out.lines.size() ? t.nums[end] : last_number + 1;
    struct Found {
      std::size_t line, rest_at;
      std::int64_t count;
    };
    std::vector<Found> markers;
    std::int64_t counted = 0;
    bool only_markers = true;
    for (std::size_t k = i; k < end && only_markers; ++k) {
      std::size_t rest_at = 0;
      std::optional<std::size_t> n = marker_count(out.lines[k], &rest_at);
      only_markers = n.has_value();
      if (!n) break;
      markers.push_back({k, rest_at, static_cast<std::int64_t>(*n)});
      counted += static_cast<std::int64_t>(*n);
    }
    if (only_markers && counted == after - before - 1) {
      std::int64_t first = before + 1;
      for (const Found& m : markers) {
        ranged[m.line] = ranged_marker(out.lines[m.line], m.rest_at, first, m.count);
        first += m.count;
      }
    }
    i = end;
  }
  return ranged;
}

}  // namespace

std::optional<Listing> strip_gutter(std::string_view input) {
  // Every input passes through here: decline on the first line before splitting them all
  // (the scan below would decline on it too).
  std::string_view first = input.substr(0, input.find('\n'));
  if (!parse_gutter(first) && !text::is_blank(first)) return std::nullopt;
  text::Lines lines = text::split_lines(input);
  Listing listing;
  std::string_view last_empty = numbered_empty_last_line(lines);
  std::size_t count = lines.lines.size() - (last_empty.empty() ? 0 : 1);
  std::string source;
  source.reserve(input.size());
  Scan scan;
  if (!scan_lines(lines.lines, count, &listing, &source, &scan)) return std::nullopt;
  if (!last_empty.empty()) {
    std::int64_t prev = listing.numbers.empty() ? 0 : listing.numbers.back();
    if (last_number_of(last_empty) <= prev) return std::nullopt;
    listing.last_empty = std::string(last_empty);
  }
  bool short_ok = scan.consecutive && scan.numbered > 0 &&
                  (!last_empty.empty() || source.size() >= kShortListingMinBytes);
  if (scan.numbered < kMinLines && !short_ok) return std::nullopt;
  // push_back, not = "\t": GCC 12 at -O2 reports a false -Wrestrict on the literal assignment.
  if (listing.separator.empty()) listing.separator.push_back('\t');
  // The numbered empty last line stands for the file's final newline: the source ends in one.
  if (lines.trailing_newline || !last_empty.empty()) source.push_back('\n');
  listing.source = std::move(source);
  // Unwrapping promises that rewrapping the unchanged source gives back the input byte for
  // byte; a gutter this model cannot reproduce (mixed padding or separators) is left alone.
  if (restore_gutter(listing.source, listing) == input) return listing;
  // Some listings indent every number by the same spaces instead of right-aligning them.
  listing.fixed_lead = listing.lead_spaces > 0;
  if (listing.fixed_lead && restore_gutter(listing.source, listing) == input) return listing;
  return std::nullopt;
}

bool numbers_consecutive(const Listing& listing) {
  const std::vector<std::int64_t>& n = listing.numbers;
  // Bare blank lines after the last numbered one (before Claude Code's trailing reminders)
  // repeat its number; no line after them has a number to count.
  std::size_t end = n.size();
  while (end > 1 && n[end - 1] == n[end - 2]) --end;
  for (std::size_t i = 1; i < end; ++i) {
    if (n[i] != n[i - 1] + 1) return false;
  }
  return true;
}

std::optional<std::string> restore_file_read(std::string_view compressed, const Listing& listing) {
  if (listing.numbers.empty() || !numbers_consecutive(listing)) return std::nullopt;
  text::Lines out = text::split_lines(compressed);
  std::optional<Trace> t = trace_lines(out, listing);
  if (!t) return std::nullopt;
  std::vector<std::string> ranged = range_markers(out, *t, listing);
  text::Lines src = text::split_lines(listing.source);
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    if (!ranged[i].empty()) continue;
    auto at = static_cast<std::size_t>(t->nums[i] - listing.numbers.front());
    if (!t->traced[i] || at >= src.lines.size() || out.lines[i] != src.lines[at]) {
      return std::nullopt;
    }
  }
  return restore_gutter(compressed, listing, GutterStyle::kSparse);
}

std::string restore_gutter(std::string_view compressed, const Listing& listing, GutterStyle style) {
  text::Lines out = text::split_lines(compressed);
  std::optional<Trace> t = trace_lines(out, listing);
  if (!t) return std::string(compressed);
  // grep -n numbers are not consecutive: each one is a fact and stays.
  bool sparse = style == GutterStyle::kSparse && numbers_consecutive(listing);
  std::vector<bool> shown =
      sparse ? sparse_numbers(out, *t) : std::vector<bool>(out.lines.size(), true);
  std::vector<std::string> ranged =
      sparse ? range_markers(out, *t, listing) : std::vector<std::string>(out.lines.size());
  std::string result;
  result.reserve(compressed.size() + out.lines.size() * 8 + listing.last_empty.size());
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    std::string_view line = ranged[i].empty() ? out.lines[i] : std::string_view(ranged[i]);
    if (i > 0) result.push_back('\n');
    bool blank = text::is_blank(line);
    if (!shown[i] || (listing.bare_blanks && blank && !t->numbered_blank[i])) {
      result.append(line);
      continue;
    }
    if (sparse) {
      result += std::to_string(t->nums[i]);  // no alignment: the numbers no longer form a column
    } else {
      append_number(&result, t->nums[i], listing);
    }
    bool number_only = listing.number_only_blanks && (line.empty() || line == "\r");
    if (!number_only) result += listing.separator;
    result.append(line);
  }
  if (out.trailing_newline) result.push_back('\n');
  if (!listing.last_empty.empty()) {
    if (!result.empty() && result.back() != '\n') result.push_back('\n');
    result += listing.last_empty;
  }
  return result;
}

}  // namespace caveman::core
