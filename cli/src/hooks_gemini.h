// Caveman's native hooks for Gemini CLI (issue 24). The hooks document comes from
// `caveman-proxy native-hook print-settings --agent gemini`. Gemini CLI 0.61 cannot replace a
// tool output from a hook: AfterTool answers {"decision":"deny","reason":<view>} and the model
// reads "Tool result blocked: <view>" (an error result) instead of the output.
// Gemini runs settings hooks only in a trusted folder.
//
// Session (`caveman wrap gemini`): Gemini concatenates "hooks" across its settings scopes, so
// the hooks go into a session copy of the system defaults file — the caller's
// GEMINI_CLI_SYSTEM_DEFAULTS_PATH, else <dir of the system settings>/system-defaults.json,
// merged with caveman's groups — at $CAVEMAN_HOME/run/gemini-<session>/system-defaults.json
// (Gemini skips such a file below a world-writable directory such as /tmp), and
// GEMINI_CLI_SYSTEM_DEFAULTS_PATH points the agent at it; removed when the agent exits.
// ~/.gemini is never written. An unreadable existing defaults file → no hooks (fail open).
// Persistent (`caveman enable gemini`): groups appended to ~/.gemini/settings.json "hooks",
// journaled; uninstall restores the bytes or removes only caveman's groups.
#ifndef CAVEMAN_CLI_HOOKS_GEMINI_H_
#define CAVEMAN_CLI_HOOKS_GEMINI_H_

#include <string>

#include "caveman/status.h"
#include "native_hooks.h"

namespace caveman::cli {

// The system defaults file Gemini CLI would read in `env`.
std::string gemini_system_defaults_path(const Environment& env);

// The wrap extension: a no-op unless launch is gemini with hooks wanted.
Status install_gemini_session_hooks(WrapLaunch* launch);

// The persistent, journaled install and its undo (marker: <caveman_home>/hooks/gemini.json).
Result<HookInstallReport> install_gemini_hooks(const HookTarget& target);
Result<HookInstallReport> uninstall_gemini_hooks(const HookTarget& target);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_HOOKS_GEMINI_H_
