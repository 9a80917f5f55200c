#include "caveman/base/split.h"

namespace caveman::base {

std::vector<std::string_view> split_lines(std::string_view s) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < s.size()) {
    std::size_t nl = s.find('\n', start);
    if (nl == std::string_view::npos) nl = s.size();
    lines.push_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

std::size_t count_occurrences(std::string_view s, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t at = s.find(needle); at != std::string_view::npos;
       at = s.find(needle, at + needle.size())) {
    ++n;
  }
  return n;
}

}  // namespace caveman::base
