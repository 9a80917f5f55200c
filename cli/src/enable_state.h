// The record of one `caveman enable <agent>`: `<home>/enable/<agent>.json` (0600) holds every
// file edit with its journal (config_journal.h; previous bytes in `<agent>.<i>.prev`) and
// the exact entries added, so `disable` puts each file back byte for byte when nothing else
// changed it, and otherwise removes only those entries (never an entry it did not add).
#ifndef CAVEMAN_CLI_ENABLE_STATE_H_
#define CAVEMAN_CLI_ENABLE_STATE_H_

#include <optional>
#include <string>
#include <vector>

#include "agent_enable.h"
#include "caveman/status.h"
#include "config_journal.h"

namespace caveman::cli {

struct AppliedEdit {
  FileJournal journal;
  std::vector<ConfigEntry> entries;
};

struct EnableMarker {
  std::string agent;
  std::string base_url;  // http://host:port/w/<agent>
  std::string listen;
  std::string caveman;         // the binary the agent runs to start the proxy
  bool mcp_by_enable = false;  // enable registered caveman-mcp (disable unregisters it)
  bool hooks = false;          // native hooks were installed
  std::vector<AppliedEdit> files;
};

std::string enable_marker_path(const std::string& home, const std::string& agent);
// nullopt when absent or unreadable (a broken marker vouches for nothing).
std::optional<EnableMarker> read_enable_marker(const std::string& home, const std::string& agent);
Status write_enable_marker(const std::string& home, const EnableMarker& marker);
Status remove_enable_marker(const std::string& home, const std::string& agent);

// Applies every edit, journaled; on an error the edits already made are undone. Errors:
// codes::kConfigEntryExists (the user has such an entry), codes::kConfigUnparsable,
// codes::kConfigNotWritable.
Result<std::vector<AppliedEdit>> apply_edits(const std::string& home, const std::string& agent,
                                             const std::vector<FileEdit>& edits);

// Undoes edits last first. One line per file; a file whose entries were changed since is
// left alone and reported (the Status holds the first such problem).
struct UndoReport {
  std::vector<std::string> lines;
  Status status;
};
UndoReport undo_edits(const std::vector<AppliedEdit>& edits);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_ENABLE_STATE_H_
