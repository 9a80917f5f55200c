// MCP registration by editing an agent's own user-scoped config (issue 24): Codex
// (`~/.codex/config.toml` `[mcp_servers.<S>]`, or $CODEX_HOME), Gemini CLI
// (`~/.gemini/settings.json` `mcpServers.<S>`), Qwen Code (`~/.qwen/settings.json`, the same
// format) and opencode
// (`$XDG_CONFIG_HOME/opencode/opencode.json`, default ~/.config, `mcp.<S>`). Every edit is
// journaled in the marker (mcp_marker.h): uninstall restores the previous bytes when nothing
// else changed the file and removes only caveman's entry when something did; an entry of that
// name that caveman did not add is never overwritten or removed.
#ifndef CAVEMAN_CLI_AGENT_MCP_H_
#define CAVEMAN_CLI_AGENT_MCP_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "config_edit.h"
#include "process.h"

namespace caveman::cli {

// The MCP servers `tools mcp install --server` knows: server name → binary (no arguments).
struct McpServerSpec {
  std::string name;    // caveman | caveman-browse | cavemem
  std::string binary;  // caveman-mcp | caveman-browse | cavemem
};
const std::vector<McpServerSpec>& mcp_servers();
const McpServerSpec* find_mcp_server(std::string_view name);

// Agents whose config caveman edits itself, in install order.
const std::vector<std::string>& config_mcp_agents();
bool edits_agent_config(std::string_view agent);
// The agent's user-scoped config file ("" when HOME is unknown).
std::string agent_config_path(std::string_view agent, const Environment& env);
// The entry registering `server` to run `command args…` in the agent's format.
ConfigEntry mcp_entry(std::string_view agent, const std::string& server,
                      const std::string& command, const std::vector<std::string>& args);

struct McpEditReport {
  std::string config;   // the file edited
  std::string message;  // one line for the user
};
// Adds the entry (journaled) and writes the marker. Re-installing replaces caveman's own
// earlier entry. Errors: codes::kConfigEntryExists (a hand-written entry), codes::kConfig…,
// codes::kHomeNotWritable.
Result<McpEditReport> install_config_mcp(const std::string& home, const Environment& env,
                                         const std::string& agent, const std::string& server,
                                         const std::string& command);
// Undoes install_config_mcp (nothing when there is no marker).
Result<McpEditReport> uninstall_config_mcp(const std::string& home, const std::string& agent,
                                           const std::string& server);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_AGENT_MCP_H_
