// Caveman's native hooks for Gemini CLI (issue 24). The hooks document comes from
// `caveman-proxy native-hook print-settings --agent gemini`. Gemini CLI 0.61 cannot replace a
// tool output from a hook: AfterTool answers {"decision":"deny","reason":<view>} and the model
// reads "Tool result blocked: <view>" (an error result) instead of the output.
// Gemini runs settings hooks only in a trusted folder.
//
// Session (`caveman wrap gemini`): Gemini concatenates "hooks" across its settings scopes, so
// the hooks go into a session copy of the system defaults file — the caller's
// GEMINI_CLI_SYSTEM_DEFAULTS_PATH, else <dir of the system settings>/system-defaults.json,
// merged with caveman's groups — at $CAVEMAN_HOME/run/gemini-<session>/system-defaults.json,
// and GEMINI_CLI_SYSTEM_DEFAULTS_PATH points the agent at it; removed when the agent exits.
// Gemini loads that file only when root owns it and every directory above it, none writable by
// group or others (gemini_system_file_problems); wrap checks first and warns instead of
// starting a session whose hooks Gemini would skip.
// ~/.gemini is never written. An unreadable existing defaults file → no hooks (fail open).
// Persistent (`caveman enable gemini`): groups appended to ~/.gemini/settings.json "hooks",
// journaled; uninstall restores the bytes or removes only caveman's groups.
#ifndef CAVEMAN_CLI_HOOKS_GEMINI_H_
#define CAVEMAN_CLI_HOOKS_GEMINI_H_

#include <functional>
#include <string>
#include <vector>

#include "caveman/status.h"
#include "native_hooks.h"

namespace caveman::cli {

// The system defaults file Gemini CLI would read in `env`.
std::string gemini_system_defaults_path(const Environment& env);

// What Gemini CLI's check of a system settings file looks at in one path: stat (following
// symlinks), lstat and realpath.
struct PathFacts {
  bool exists = false;  // stat succeeded
  bool is_dir = false;
  unsigned uid = 0;       // the owner of what the path names
  unsigned mode = 0;      // its st_mode
  bool is_link = false;   // lstat: the path itself is a symlink
  unsigned link_uid = 0;  // lstat: the symlink's owner
  std::string real;       // realpath ("" when it fails)
};
using PathProbe = std::function<PathFacts(const std::string& path)>;
PathFacts probe_path(const std::string& path);

// Why Gemini CLI 0.61 would skip a system settings or system defaults file at `path`, deepest
// path first; empty = it loads it. Its rule (loadSystemFile → isFileAndDirectorySecureSync): the
// file and every directory above it up to /, along the path as written and along its resolved
// path, are owned by root (uid 0) and writable by neither group nor others — the sticky /tmp
// (1777) fails — and a symlink among them is owned by root. Parts of `path` that do not exist
// yet count as what the caller would create: owned by `creator_uid`, private modes.
std::vector<std::string> gemini_system_file_problems(const std::string& path, unsigned creator_uid,
                                                     const PathProbe& probe = probe_path);

// The session defaults file wrap writes for a session dir: $CAVEMAN_HOME/run/gemini-<name of
// the session dir>/system-defaults.json.
std::string gemini_session_defaults_path(const Environment& env, const std::string& session_dir);

// Ok when Gemini CLI would load the session defaults file `path` written by `creator_uid`;
// else codes::kNativeHooksFailed, saying why and what to do (one line). Shared by wrap and
// `caveman doctor gemini`.
Status check_gemini_session_defaults(const std::string& path, unsigned creator_uid,
                                     const PathProbe& probe = probe_path);

// The wrap extension: a no-op unless launch is gemini with hooks wanted. Writes nothing and
// fails with codes::kNativeHooksFailed when Gemini would skip the session file
// (check_gemini_session_defaults for this process's effective uid; tests pass their own).
Status install_gemini_session_hooks(WrapLaunch* launch);
Status install_gemini_session_hooks_as(WrapLaunch* launch, unsigned creator_uid,
                                       const PathProbe& probe);

// The persistent, journaled install and its undo (marker: <caveman_home>/hooks/gemini.json).
Result<HookInstallReport> install_gemini_hooks(const HookTarget& target);
Result<HookInstallReport> uninstall_gemini_hooks(const HookTarget& target);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_HOOKS_GEMINI_H_
