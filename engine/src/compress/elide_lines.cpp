#include "compress/elide_lines.h"

#include "text/lines.h"

namespace caveman::compress {
namespace {

// What follows `what` in every count marker; the text after it differs (" …", ": facts …").
constexpr std::string_view kElided = " elided (caveman)";

}  // namespace

std::string count_marker(std::size_t n, std::string_view what) {
  std::string out = "… ";
  out += std::to_string(n);
  out += ' ';
  out += what;
  out += kElided;
  out += " …";
  return out;
}

bool has_count_marker(std::string_view text, std::string_view what) {
  for (std::size_t at = text.find(what); at != std::string_view::npos;
       at = text.find(what, at + 1)) {
    if (text.substr(at + what.size()).starts_with(kElided)) return true;
  }
  return false;
}

ElidedLines elide_runs(const std::vector<std::string_view>& lines, const std::vector<bool>& keep,
                       bool trailing_newline, bool crlf_majority, const LineMarker& marker) {
  ElidedLines result;
  std::size_t total = 0;
  for (std::string_view l : lines) total += l.size() + 1;
  result.text.reserve(total);
  bool first_out = true;
  auto emit = [&](std::string_view line) {
    if (!first_out) result.text.push_back('\n');
    first_out = false;
    result.text.append(line);
  };
  const std::size_t n = lines.size();
  for (std::size_t i = 0; i < n;) {
    if (keep[i]) {
      emit(lines[i]);
      ++i;
      continue;
    }
    std::size_t j = i;
    std::size_t run_bytes = 0;
    bool all_blank = true;
    while (j < n && !keep[j]) {
      run_bytes += lines[j].size() + 1;
      all_blank = all_blank && text::is_blank(lines[j]);
      ++j;
    }
    std::string m = text::marker_line(marker(i, j - i), crlf_majority);
    if (all_blank || run_bytes <= m.size() + 1) {
      for (std::size_t k = i; k < j; ++k) emit(lines[k]);
    } else {
      emit(m);
      result.dropped_lines += j - i;
      ++result.markers;
    }
    i = j;
  }
  if (trailing_newline) result.text.push_back('\n');
  return result;
}

}  // namespace caveman::compress
