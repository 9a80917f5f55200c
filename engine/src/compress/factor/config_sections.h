// Repeated sections of a config file (docs/formats.md, "Config sections"): where one section
// starting at a line ends, so that the line-template finder can try whole sections as the
// records of one block — a table whose header states the keys once and whose rows hold each
// section's values.
#ifndef CAVEMAN_COMPRESS_FACTOR_CONFIG_SECTIONS_H_
#define CAVEMAN_COMPRESS_FACTOR_CONFIG_SECTIONS_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace caveman::compress::factor {

// The number of lines of the section starting at lines[i], or 0 when none starts there:
//  - a TOML/INI table header ("[name]", "[[name]]", "[name \"x\"]" at column 0) runs to the
//    next line that starts with '[';
//  - a YAML list item ("- key: value" behind some indentation) runs to the next non-blank
//    line indented no deeper than its dash.
// Blank lines and comments inside a section belong to it. The scan stops past `limit` lines
// (a longer section is not tried), which keeps deep YAML nesting linear.
std::size_t section_length(const std::vector<std::string_view>& lines, std::size_t i,
                           std::size_t limit = 64);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_CONFIG_SECTIONS_H_
