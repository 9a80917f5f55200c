// Config classifier shared by Detect and the config compressor (ENGINE.md §4.9), extended
// beyond the original for what real files need: TOML arrays of tables ([[x]]), flat
// key = value files without sections (postgresql.conf), and YAML block scalars (GitHub
// workflows), whose content lines are skipped when classifying.
#ifndef CAVEMAN_COMPRESS_CONFIG_PARSE_H_
#define CAVEMAN_COMPRESS_CONFIG_PARSE_H_

#include <optional>
#include <string_view>

namespace caveman::compress {

enum class ConfigKind { kToml, kYaml };

struct ConfigShape {
  ConfigKind kind;
  int sections = 0;
  int assignments = 0;
  int yaml_keys = 0;
  int prose = 0;
  bool has_block_scalar = false;
};

// nullopt unless the input is UTF-8 TOML/INI/key=value config or YAML that parses.
std::optional<ConfigShape> classify_config(std::string_view input);

// True when the whole input parses as one or more YAML documents.
bool yaml_parses(std::string_view input);

// Leading indentation width of a line (space = 1, TAB = 2), as used for YAML context.
int yaml_indent(std::string_view line);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_CONFIG_PARSE_H_
