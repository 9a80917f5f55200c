#include "compress/factor/prose_syntax.h"

#include <charconv>

#include "text/utf8.h"

namespace caveman::compress::factor {
namespace {

constexpr std::string_view kMid = " lines of text wrapped at ";
constexpr std::string_view kTail1 = " columns, a paragraph per line: break a longer line at its last space within ";
constexpr std::string_view kTail2 = " columns, again for the rest; each piece keeps its indentation]";

// Reads a decimal number at s[*i]; false when there is none (or it overflows).
bool read_number(std::string_view s, std::size_t* i, std::size_t* out) {
  const char* b = s.data() + *i;
  auto [p, ec] = std::from_chars(b, s.data() + s.size(), *out);
  if (ec != std::errc() || p == b) return false;
  *i += static_cast<std::size_t>(p - b);
  return true;
}

bool read_literal(std::string_view s, std::size_t* i, std::string_view lit) {
  if (s.substr(*i, lit.size()) != lit) return false;
  *i += lit.size();
  return true;
}

}  // namespace

std::string write_prose_header(const ProseHeader& h) {
  std::string w = std::to_string(h.width);
  return "[" + std::to_string(h.lines) + std::string(kMid) + w + std::string(kTail1) + w +
         std::string(kTail2);
}

bool could_be_prose_header(std::string_view line) {
  return line.size() > kMid.size() && line[0] == '[' && line.back() == ']' &&
         line.find(kMid) != std::string_view::npos;
}

std::optional<ProseHeader> parse_prose_header(std::string_view line) {
  ProseHeader h;
  std::size_t i = 1, again = 0;
  if (line.empty() || line[0] != '[' || !read_number(line, &i, &h.lines) ||
      !read_literal(line, &i, kMid) || !read_number(line, &i, &h.width) ||
      !read_literal(line, &i, kTail1) || !read_number(line, &i, &again) ||
      !read_literal(line, &i, kTail2) || i != line.size() || again != h.width || h.width == 0) {
    return std::nullopt;
  }
  return h;
}

std::size_t columns(std::string_view line) { return text::rune_count(line); }

std::vector<std::string> refill(std::string_view row, std::size_t width) {
  std::size_t indent = row.find_first_not_of(' ');
  if (indent == std::string_view::npos || columns(row) <= width) return {std::string(row)};
  std::string_view pad = row.substr(0, indent), rest = row.substr(indent);
  std::vector<std::string> out;
  // Columns of `rest`, kept up to date so a long row is filled in linear time.
  std::size_t left = columns(rest);
  while (indent + left > width) {
    // The last space within the width; columns grow with the byte offset, so scan forward.
    std::size_t cut = std::string_view::npos, cols = indent, cut_cols = 0;
    for (std::size_t b = 0; b < rest.size() && cols <= width; ++b) {
      if ((static_cast<unsigned char>(rest[b]) & 0xC0) == 0x80) continue;
      if (rest[b] == ' ' && b > 0) {
        cut = b;
        cut_cols = cols - indent;
      }
      ++cols;
    }
    if (cut == std::string_view::npos) break;  // one word longer than the width
    out.push_back(std::string(pad) + std::string(rest.substr(0, cut)));
    rest = rest.substr(cut + 1);
    left -= cut_cols + 1;
  }
  out.push_back(std::string(pad) + std::string(rest));
  return out;
}

std::optional<std::size_t> decode_prose_block(const std::vector<std::string_view>& lines,
                                              std::size_t at, const ProseHeader& header,
                                              std::vector<std::string>& out) {
  std::size_t made = 0, j = at + 1;
  while (made < header.lines) {
    if (j >= lines.size()) return std::nullopt;
    for (std::string& l : refill(lines[j++], header.width)) {
      out.push_back(std::move(l));
      ++made;
    }
  }
  if (made != header.lines) return std::nullopt;
  return j;
}

}  // namespace caveman::compress::factor
