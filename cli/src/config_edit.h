// Pure text edits of agents' own config files: add or remove one named entry (an MCP server,
// a base URL, a hook) without touching anything else. Formats:
//   kToml:     `[<table>.<name>]` block appended at the end (Codex `config.toml`).
//   kTomlKey:  a top-level `<name> = <value>` line put first (before any table), `table` "".
//   kJson:     `<table>.<name>` key in a JSON object; `table` may be a dotted path
//              (`provider.openai.options`) whose objects are created as needed (Gemini
//              `settings.json`, opencode `opencode.json`, Claude Code `settings.json`;
//              comments are accepted on input, not kept on output — the journal restores the
//              original bytes on removal).
//   kJsonItem: one item (`value`) of the array at dotted path `table` (a hook group in
//              `hooks.SessionStart`); `name` is only a label.
//   kEnvLine:  a `<name>=<value>` line of a dotenv file (Gemini CLI `~/.gemini/.env`).
//   kFile:     the whole file is `value` (a plugin file caveman owns); exists = non-blank.
// Adding refuses (codes::kConfigEntryExists) when an entry of that name exists in any form, so
// a block the user wrote by hand is never overwritten. Removing takes out only the exact entry
// that was added (codes::kConfigEntryChanged otherwise).
#ifndef CAVEMAN_CLI_CONFIG_EDIT_H_
#define CAVEMAN_CLI_CONFIG_EDIT_H_

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"

namespace caveman::cli {

enum class ConfigFormat { kToml, kJson, kTomlKey, kJsonItem, kEnvLine, kFile };

struct ConfigEntry {
  ConfigFormat format = ConfigFormat::kJson;
  std::string table;  // mcp_servers | mcpServers | mcp | env | hooks.SessionStart
  std::string name;   // caveman | ANTHROPIC_BASE_URL
  // kToml: the block's body lines ("command = \"…\"\nargs = []\n"); kTomlKey: the TOML
  // value; kJson / kJsonItem: the value as compact JSON; kEnvLine: the raw value; kFile: the
  // file's bytes.
  std::string value;
};

// Whether `text` already holds an entry `table.name`.
Result<bool> has_entry(std::string_view text, const ConfigEntry& entry);
// `text` with the entry added. Errors: codes::kConfigEntryExists, codes::kConfigUnparsable.
Result<std::string> add_entry(std::string_view text, const ConfigEntry& entry);
// `text` without the entry exactly as add_entry wrote it. Errors: codes::kConfigEntryChanged
// (missing or edited since), codes::kConfigUnparsable.
Result<std::string> remove_entry(std::string_view text, const ConfigEntry& entry);

// How markers store an entry ({format, table, name, value}); nullopt when it does not parse.
nlohmann::ordered_json entry_to_json(const ConfigEntry& entry);
std::optional<ConfigEntry> entry_from_json(const nlohmann::json& doc);

// The TOML body / JSON value for an MCP server that runs `command args…` (basic strings).
// The keys of a dotted path: "a.b" → {"a", "b"}; empty keys are kept ("a..b", "").
std::vector<std::string> split_dotted(const std::string& path);

std::string toml_server_body(const std::string& command, const std::vector<std::string>& args);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_CONFIG_EDIT_H_
