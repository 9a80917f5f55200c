#include "compress/factor/config_sections.h"

namespace caveman::compress::factor {
namespace {

std::string_view strip_cr(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

bool is_table_header(std::string_view line) {
  line = strip_cr(line);
  return line.size() >= 3 && line.front() == '[' && line.back() == ']';
}

std::size_t indent_of(std::string_view line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

bool is_blank(std::string_view line) { return strip_cr(line).find_first_not_of(" \t") == std::string_view::npos; }

// "- key: value" (or "- value") behind `indent` spaces.
bool is_list_item(std::string_view line, std::size_t indent) {
  line = strip_cr(line);
  return line.size() > indent + 2 && line[indent] == '-' && line[indent + 1] == ' ';
}

}  // namespace

std::size_t section_length(const std::vector<std::string_view>& lines, std::size_t i) {
  if (i >= lines.size()) return 0;
  std::size_t j = i + 1;
  if (is_table_header(lines[i])) {
    while (j < lines.size() && !lines[j].starts_with('[')) ++j;
    return j - i;
  }
  const std::size_t dash = indent_of(lines[i]);
  if (!is_list_item(lines[i], dash)) return 0;
  while (j < lines.size() && (is_blank(lines[j]) || indent_of(lines[j]) > dash)) ++j;
  return j - i;
}

}  // namespace caveman::compress::factor
