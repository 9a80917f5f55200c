#include "compress/factor/grep_syntax.h"

#include "caveman/base/text.h"
#include "compress/factor/header_count.h"

namespace caveman::compress::factor {
namespace {

constexpr std::string_view kGrepOpen = "[grep output, ";
constexpr std::string_view kLines = " lines: a file path, then its lines \"N:TEXT\" / \"N-TEXT\" standing for \"";
constexpr std::string_view kPaths = "PATH:N:TEXT\" / \"…PATH-N-TEXT\"";
constexpr std::string_view kAsWritten = "; other lines as written";
constexpr std::string_view kSeparator = "--";
constexpr std::string_view kMarkerStart = "… ";  // an elision marker

// The index just past "c DIGITS c" starting at `p`, or 0 when none stands there.
std::size_t numbered_at(std::string_view line, std::size_t p) {
  if (p >= line.size() || (line[p] != ':' && line[p] != '-')) return 0;
  std::size_t q = p + 1;
  while (q < line.size() && base::is_ascii_digit(line[q])) ++q;
  return q > p + 1 && q < line.size() && line[q] == line[p] ? q + 1 : 0;
}

std::optional<std::size_t> first_split(std::string_view line, char c) {
  for (std::size_t p = line.find(c, 1); p != std::string_view::npos; p = line.find(c, p + 1)) {
    if (numbered_at(line, p) > 0) return p;
  }
  return std::nullopt;
}

// "DIGITS c ..." with c ':' or '-': the separator, or '\0'.
char hit_separator(std::string_view row) {
  std::size_t q = 0;
  while (q < row.size() && base::is_ascii_digit(row[q])) ++q;
  return q > 0 && q < row.size() && (row[q] == ':' || row[q] == '-') ? row[q] : '\0';
}

}  // namespace

std::optional<std::string> write_grep_header(const GrepHeader& h) {
  if (h.root.find_first_of("\"\n") != std::string::npos ||
      h.root.find(kPaths) != std::string::npos) {
    return std::nullopt;
  }
  std::string out(kGrepOpen);
  out += std::to_string(h.lines);
  out += kLines;
  out += h.root;
  out += kPaths;
  if (h.as_written) out += kAsWritten;
  out += ']';
  return out;
}

std::optional<GrepHeader> parse_grep_header(std::string_view line) {
  if (!line.ends_with(']')) return std::nullopt;
  GrepHeader h;
  std::optional<std::string_view> rest =
      after_count(line.substr(0, line.size() - 1), kGrepOpen, &h.lines);
  if (!rest) return std::nullopt;
  line = *rest;
  if (!line.starts_with(kLines)) return std::nullopt;
  line.remove_prefix(kLines.size());
  if (line.ends_with(kAsWritten)) {
    h.as_written = true;
    line.remove_suffix(kAsWritten.size());
  }
  if (!line.ends_with(kPaths)) return std::nullopt;
  h.root = line.substr(0, line.size() - kPaths.size());
  if (h.root.find('"') != std::string::npos) return std::nullopt;
  return h;
}

std::optional<std::size_t> grep_path_end(std::string_view line, std::string_view hint) {
  if (!hint.empty() && line.starts_with(hint) && numbered_at(line, hint.size()) > 0) {
    return hint.size();
  }
  if (std::optional<std::size_t> p = first_split(line, ':')) return p;
  return first_split(line, '-');
}

GrepRow classify_grep_row(std::string_view row) {
  if (row == kSeparator || row.starts_with(kMarkerStart)) return GrepRow::kAsWritten;
  if (hit_separator(row) != '\0') return GrepRow::kHit;
  return grep_path_end(row) ? GrepRow::kAsWritten : GrepRow::kPath;
}

std::optional<std::size_t> decode_grep_block(const std::vector<std::string_view>& lines,
                                             std::size_t at, const GrepHeader& h,
                                             std::vector<std::string>& out) {
  std::string path;
  bool have_path = false;
  std::size_t written = 0, j = at + 1;
  for (; written < h.lines; ++j) {
    if (j >= lines.size()) return std::nullopt;
    std::string_view row = lines[j];
    switch (classify_grep_row(row)) {
      case GrepRow::kAsWritten:
        if (!h.as_written) return std::nullopt;
        out.emplace_back(row);
        ++written;
        break;
      case GrepRow::kHit:
        if (!have_path) return std::nullopt;
        out.push_back(path + hit_separator(row) + std::string(row));
        ++written;
        break;
      case GrepRow::kPath:
        path = h.root + std::string(row);
        have_path = true;
        break;
    }
  }
  return j;
}

}  // namespace caveman::compress::factor
