// The "MCP installed" marker `<home>/mcp/<agent>.json` = {tool, command, args, agent, scope}
// (docs/spec/processes.md#mcp-markers): proof that `caveman tools mcp install` registered
// caveman-mcp with an agent. wrap reads it as recovery evidence; uninstall removes only what a
// marker vouches for. Another server (caveman-browse, cavemem) has
// `<home>/mcp/<agent>.<server>.json`. For agents whose config caveman edits itself (codex, gemini,
// opencode) the marker also holds the entry it added and the journal of the edit (previous bytes in
// `<marker>.prev`).
#ifndef CAVEMAN_CLI_MCP_MARKER_H_
#define CAVEMAN_CLI_MCP_MARKER_H_

#include <optional>
#include <string>
#include <vector>

#include "caveman/status.h"
#include "config_edit.h"
#include "config_journal.h"

namespace caveman::cli {

struct McpMarker {
  std::string tool = "caveman_retrieve";
  std::string command;
  std::string agent;
  std::string scope;  // user | project | local
  std::string project;  // absolute cwd for project/local scope ("" for user)
  std::string server = "caveman";  // caveman | caveman-browse | cavemem
  std::vector<std::string> args;
  std::optional<ConfigEntry> entry;    // what caveman added to the agent's config
  std::optional<FileJournal> journal;  // how to undo it
};

std::string marker_path(const std::string& home, const std::string& agent,
                        const std::string& server = "caveman");
// nullopt when there is no marker or it does not parse (a broken marker vouches for nothing).
std::optional<McpMarker> read_marker(const std::string& home, const std::string& agent,
                                     const std::string& server = "caveman");
// <home>/mcp (0700, with <home>). Errors: codes::kHomeNotWritable.
Status ensure_marker_dir(const std::string& home);
// Atomic (temp + rename), 0600, <home>/mcp created 0700. Errors: codes::kHomeNotWritable.
Status write_marker(const std::string& home, const McpMarker& marker);
Status remove_marker(const std::string& home, const std::string& agent,
                     const std::string& server = "caveman");

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_MCP_MARKER_H_
