#include "compress/common/elide_lines.h"

#include "compress/common/selector.h"
#include "text/lines.h"

namespace caveman::compress {
namespace {

// What follows `what` in every count marker; the text after it differs (" …", ": facts …").
constexpr std::string_view kElided = " elided (caveman)";
constexpr std::string_view kMatching = " matching \"";
constexpr std::size_t kMinStretch = 2;

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
    std::string_view rest = text.substr(at + what.size());
    if (rest.starts_with(kElided)) return true;
    if (rest.starts_with(kMatching)) {
      std::size_t eol = rest.find('\n');
      std::string_view line = rest.substr(0, eol);
      if (line.find(std::string("\"") + std::string(kElided)) != std::string_view::npos) {
        return true;
      }
    }
  }
  return false;
}

ElidedLines elide_runs(const std::vector<std::string_view>& lines, const std::vector<bool>& keep_in,
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
  std::vector<bool> keep = keep_in;
  bool any_dropped = false;
  for (std::size_t i = 0; i < n; ++i) any_dropped = any_dropped || !keep[i];
  if (any_dropped) {
    std::vector<bool> needles = needle_lines(lines);
    for (std::size_t i = 0; i < n; ++i) keep[i] = keep[i] || needles[i];
  }
  for (std::size_t i = 0; i < n;) {
    if (keep[i]) {
      emit(lines[i]);
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < n && !keep[j]) ++j;
    std::size_t at = i;
    for (const Covered& c : cover_run(lines, i, j, kMinStretch)) {
      for (; at < c.begin; ++at) emit(lines[at]);
      std::size_t run_bytes = 0;
      bool all_blank = true;
      for (std::size_t k = c.begin; k < c.end; ++k) {
        run_bytes += lines[k].size() + 1;
        all_blank = all_blank && text::is_blank(lines[k]);
      }
      std::string m =
          text::marker_line(marker(c.begin, c.end - c.begin, c.selector), crlf_majority);
      if (all_blank || run_bytes <= m.size() + 1) {
        for (std::size_t k = c.begin; k < c.end; ++k) emit(lines[k]);
      } else {
        emit(m);
        result.dropped_lines += c.end - c.begin;
        ++result.markers;
      }
      at = c.end;
    }
    for (; at < j; ++at) emit(lines[at]);
    i = j;
  }
  if (trailing_newline) result.text.push_back('\n');
  return result;
}

}  // namespace caveman::compress
