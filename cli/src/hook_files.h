// The edits behind a persistent hooks install, shared by Codex (hooks.json) and Gemini CLI
// (settings.json): both keep {"hooks":{<Event>:[<matcher group>…]}}. Caveman appends its own
// groups after the user's and removes exactly the groups whose handlers run its command.
// The marker (<caveman_home>/hooks/<agent>.json) holds the command and one journal per file
// edited (config_journal.h), so undo restores the previous bytes when nothing else changed.
#ifndef CAVEMAN_CLI_HOOK_FILES_H_
#define CAVEMAN_CLI_HOOK_FILES_H_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "caveman/status.h"
#include "config_journal.h"
#include "native_hooks.h"

namespace caveman::cli {

struct HookGroupsAdded {
  std::string text;                    // the file with caveman's groups appended
  std::map<std::string, int> indexes;  // event → index of caveman's group in its array
};
// `current` ("" = no file) with every group of `document`'s "hooks" appended.
// Errors: codes::kConfigUnparsable.
Result<HookGroupsAdded> add_hook_groups(const std::string& current, const std::string& document);
// `current` without the groups whose every handler runs `command` (emptied events and an
// emptied "hooks" removed). Errors: codes::kConfigUnparsable.
Result<std::string> remove_hook_groups(const std::string& current, const std::string& command);
// The command of the first handler of `document` (the one caveman-proxy printed).
std::string hooks_document_command(const std::string& document);

struct HookMarker {
  std::string agent;
  std::string command;
  std::vector<FileJournal> journals;
  std::string extra;  // agent-specific text caveman added (Codex: the trust block)
};
std::string hook_marker_path(const std::string& caveman_home, const std::string& agent);
std::optional<HookMarker> read_hook_marker(const std::string& caveman_home, const std::string& agent);
Status write_hook_marker(const std::string& caveman_home, const HookMarker& marker);
Status remove_hook_marker(const std::string& caveman_home, const std::string& agent);

// Undoes every journal of the marker (rewrite(path, current) for files changed since) and
// removes the marker. The report lists the files and what happened to each.
using HookRewrite = std::function<Result<std::string>(const std::string& path, const std::string& current)>;
Result<HookInstallReport> undo_hook_install(const std::string& caveman_home, const std::string& agent,
                                            const HookRewrite& rewrite);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_HOOK_FILES_H_
