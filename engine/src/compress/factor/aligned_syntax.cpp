#include "compress/factor/aligned_syntax.h"

#include "compress/factor/header_count.h"

namespace caveman::compress::factor {
namespace {

constexpr std::string_view kAlignedOpen = "[aligned table of ";
constexpr std::string_view kMiddle =
    " rows: the header and rule lines as written, then a row per line, its cells unpadded and "
    "separated by \"|\" (pad each to its column's width in the rule); columns aligned ";
constexpr std::string_view kLeft = "left";
constexpr std::string_view kRight = "right";

std::size_t code_points(std::string_view s) {
  std::size_t n = 0;
  for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

std::string_view trim_spaces(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

// A one-space margin on each side, the padding after (left) or before (right) the text.
std::optional<std::string> pad_aligned_cell(std::string_view text, std::size_t width, bool right,
                                    bool open_end) {
  std::size_t n = code_points(text);
  if (n + 1 > width) return std::nullopt;
  std::string pad(width - 1 - n, ' ');
  if (right) return open_end ? pad + std::string(text) : pad + std::string(text) + " ";
  return open_end ? " " + std::string(text) : " " + std::string(text) + pad;
}

std::string write_aligned_header(const AlignedHeader& h) {
  std::string out(kAlignedOpen);
  out += std::to_string(h.rows);
  out += kMiddle;
  for (std::size_t i = 0; i < h.right.size(); ++i) {
    if (i > 0) out += ", ";
    out += h.right[i] ? kRight : kLeft;
  }
  out += ']';
  return out;
}

std::optional<AlignedHeader> parse_aligned_header(std::string_view s) {
  if (!s.ends_with("]")) return std::nullopt;
  AlignedHeader h;
  std::optional<std::string_view> rest =
      after_count(s.substr(0, s.size() - 1), kAlignedOpen, &h.rows);
  if (!rest) return std::nullopt;
  s = *rest;
  if (!s.starts_with(kMiddle)) return std::nullopt;
  s.remove_prefix(kMiddle.size());
  while (true) {
    if (s.starts_with(kLeft)) {
      h.right.push_back(false);
      s.remove_prefix(kLeft.size());
    } else if (s.starts_with(kRight)) {
      h.right.push_back(true);
      s.remove_prefix(kRight.size());
    } else {
      return std::nullopt;
    }
    if (s.empty()) break;
    if (!s.starts_with(", ")) return std::nullopt;
    s.remove_prefix(2);
  }
  if (h.right.size() < 2) return std::nullopt;
  return h;
}

std::optional<std::string> decode_aligned_row(std::string_view row, const Rule& rule,
                                              const std::vector<bool>& right) {
  if (right.size() != rule.widths.size()) return std::nullopt;
  std::optional<std::vector<std::string_view>> texts = split_at_bars(row, rule.widths.size());
  if (!texts) return std::nullopt;
  std::string out = rule.left_border ? "|" : "";
  for (std::size_t c = 0; c < texts->size(); ++c) {
    const bool last = c + 1 == texts->size();
    std::optional<std::string> cell =
        pad_aligned_cell((*texts)[c], rule.widths[c], right[c], last && !rule.right_border);
    if (!cell) return std::nullopt;
    if (c > 0) out += '|';
    out += *cell;
  }
  if (rule.right_border) out += '|';
  return out;
}

std::optional<std::string> encode_aligned_row(const std::vector<std::string_view>& cells,
                                              const Rule& rule, const std::vector<bool>& right) {
  if (cells.size() != rule.widths.size() || right.size() != cells.size()) return std::nullopt;
  std::string out;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    std::string_view text = trim_spaces(cells[c]);
    if (text.find('|') != std::string_view::npos) return std::nullopt;
    const bool last = c + 1 == cells.size();
    std::optional<std::string> back =
        pad_aligned_cell(text, rule.widths[c], right[c], last && !rule.right_border);
    if (!back || *back != cells[c]) return std::nullopt;
    if (c > 0) out += '|';
    out += text;
  }
  return out;
}

}  // namespace caveman::compress::factor
