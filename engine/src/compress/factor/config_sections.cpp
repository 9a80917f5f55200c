#include "compress/factor/config_sections.h"

#include <algorithm>

#include "text/lines.h"
#include "text/utf8.h"

namespace caveman::compress::factor {
namespace {

bool is_table_header(std::string_view line) {
  std::string_view t = text::trim_ascii(line);
  return t.size() >= 3 && line.front() == '[' && t.back() == ']';
}

std::size_t space_indent(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

// "- key: value" (or "- value") behind `indent` spaces.
bool is_list_item(std::string_view line, std::size_t indent) {
  return text::trim_ascii(line).size() > 2 && line[indent] == '-' && line[indent + 1] == ' ';
}

}  // namespace

std::size_t section_length(const std::vector<std::string_view>& lines, std::size_t i,
                           std::size_t limit) {
  if (i >= lines.size()) return 0;
  const std::size_t stop = std::min(lines.size(), i + limit + 1);
  std::size_t j = i + 1;
  if (is_table_header(lines[i])) {
    while (j < stop && !lines[j].starts_with('[')) ++j;
    return j - i;
  }
  const std::size_t dash = space_indent(lines[i]);
  if (!is_list_item(lines[i], dash)) return 0;
  while (j < stop && (text::is_blank(lines[j]) || space_indent(lines[j]) > dash)) ++j;
  return j - i;
}

}  // namespace caveman::compress::factor
