// Config classifier shared by Detect and the config compressor (docs/spec/compressors.md#config),
// extended beyond the original for what real files need: TOML arrays of tables ([[x]]), flat
// key = value files without sections (postgresql.conf), and YAML block scalars (GitHub
// workflows), whose content lines are skipped when classifying.
#ifndef CAVEMAN_COMPRESS_CONFIG_CONFIG_PARSE_H_
#define CAVEMAN_COMPRESS_CONFIG_CONFIG_PARSE_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

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

// What one line of a config file is (blank, comment and block-scalar content lines are not
// counted when classifying the file).
enum class ConfigLine : std::uint8_t {
  kBlank,
  kComment,       // first non-blank byte is '#' or ';'
  kSection,       // [name] or [[name]]
  kAssignment,    // name = value
  kYamlKey,       // key: / - key:
  kListItem,      // "- " item without a key
  kProse,         // anything else
  kBlockContent,  // inside a YAML block scalar (`run: |`)
};

struct ConfigLineInfo {
  ConfigLine kind = ConfigLine::kBlank;
  bool block_header = false;  // a YAML key whose value is a block scalar indicator
};

// Classifies each line (as split on '\n'; a '\r' may stay attached).
std::vector<ConfigLineInfo> classify_config_lines(const std::vector<std::string_view>& lines);

// nullopt unless the input is UTF-8 TOML/INI/key=value config or YAML that parses.
std::optional<ConfigShape> classify_config(std::string_view input);

// True when the whole input parses as one or more YAML documents.
bool yaml_parses(std::string_view input);

// Leading indentation width of a line (space = 1, TAB = 2), as used for YAML context.
int yaml_indent(std::string_view line);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_CONFIG_CONFIG_PARSE_H_
