// Pure text edits of agents' own config files: add or remove one named entry (an MCP server)
// without touching anything else. Formats:
//   kToml: `[<table>.<name>]` block appended at the end (Codex `config.toml`).
//   kJson: `<table>.<name>` key in a JSON object (Gemini `settings.json`, opencode
//          `opencode.json`; comments are accepted on input, not kept on output — the journal
//          restores the original bytes on removal).
// Adding refuses (cave_config_entry_exists) when an entry of that name exists in any form, so
// a block the user wrote by hand is never overwritten. Removing takes out only the exact entry
// that was added (cave_config_entry_changed otherwise).
#ifndef CAVEMAN_CLI_CONFIG_EDIT_H_
#define CAVEMAN_CLI_CONFIG_EDIT_H_

#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"

namespace caveman::cli {

enum class ConfigFormat { kToml, kJson };

struct ConfigEntry {
  ConfigFormat format = ConfigFormat::kJson;
  std::string table;  // mcp_servers | mcpServers | mcp
  std::string name;   // caveman
  // kToml: the block's body lines ("command = \"…\"\nargs = []\n");
  // kJson: the entry's value as compact JSON.
  std::string value;
};

// Whether `text` already holds an entry `table.name`.
Result<bool> has_entry(std::string_view text, const ConfigEntry& entry);
// `text` with the entry added. Errors: cave_config_entry_exists, cave_config_unparsable.
Result<std::string> add_entry(std::string_view text, const ConfigEntry& entry);
// `text` without the entry exactly as add_entry wrote it. Errors: cave_config_entry_changed
// (missing or edited since), cave_config_unparsable.
Result<std::string> remove_entry(std::string_view text, const ConfigEntry& entry);

// The TOML body / JSON value for an MCP server that runs `command args…` (basic strings).
std::string toml_server_body(const std::string& command, const std::vector<std::string>& args);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_CONFIG_EDIT_H_
