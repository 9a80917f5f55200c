// Claude Code native hooks for one `caveman wrap claude` session (issue 15,
// docs/cli.md#wrap step 5): a temporary plugin under the session dir,
//
//   <session dir>/plugin/.claude-plugin/plugin.json   {"name":"caveman","version":…,"description":…}
//   <session dir>/plugin/hooks/hooks.json             `caveman-proxy native-hook print-settings`
//
// loaded with `--plugin-dir <session dir>/plugin` (Claude Code 2.1.197 runs plugin hooks for
// that session only; nothing in ~/.claude is touched). The hooks document always comes from
// caveman-proxy itself, so the CLI never carries a second copy of it; it is checked (a JSON
// object whose "hooks" names PostToolUse) and written byte for byte.
//
// Fail open: every failure (no caveman-proxy, a print-settings run that fails, times out or
// prints something else, a write error) is a Status with a codes::kNativeHooks… code and
// leaves the launch untouched, so wrap warns and starts the agent without hooks.
// Opt-outs: `caveman wrap --no-hooks …` and CAVEMAN_WRAP_HOOKS=0 (also false/off/no).
#ifndef CAVEMAN_CLI_NATIVE_HOOKS_H_
#define CAVEMAN_CLI_NATIVE_HOOKS_H_

#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "process.h"
#include "wrap_session.h"

namespace caveman::cli {

// False when CAVEMAN_WRAP_HOOKS is 0, false, off or no (any case); true otherwise.
bool native_hooks_enabled(const Environment& env);

// True for the profiles that get the hooks: claude, codex, gemini.
bool profile_takes_native_hooks(std::string_view profile_id);

// Shared by the three agents' installers (hooks_codex.h, hooks_gemini.h):
// `<proxy> native-hook print-settings --agent <agent>` (bounded by the probe timeout), checked
// to be a hooks document whose `tool_event` (PostToolUse / AfterTool) holds a command.
// Errors: codes::kNativeHooksNoProxy, codes::kNativeHooksFailed, codes::kNativeHooksInvalid.
Result<std::string> fetch_hooks_document(const std::string& proxy_path, const Environment& env,
                                         std::string_view agent, std::string_view tool_event);
// Whether launch is a wrap session of `agent` that wants hooks.
bool wants_native_hooks(const WrapLaunch& launch, std::string_view agent);
// Pins CAVEMAN_HOME in the agent's environment (unless the caller set it), so the hook
// processes the agent starts reach the socket of the proxy this session uses.
void pin_state_root(WrapLaunch* launch);
// The one-line reason of a failed child, for warnings.
std::string first_line(const std::string& text);

// A persistent, user-scoped install (`caveman enable`): where the agent's config lives (env:
// HOME, CODEX_HOME), where caveman keeps its marker and journal, and which caveman-proxy
// prints the hooks document.
struct HookTarget {
  std::string caveman_home;  // marker + previous bytes under <caveman_home>/hooks/
  Environment env;
  std::string proxy_path;
};
struct HookInstallReport {
  std::vector<std::string> files;  // the agent config files edited (or restored)
  std::string message;             // one line for the user
};

// The wrap extension. A no-op (Ok) unless launch->profile is claude and launch->native_hooks
// is set. On success: the plugin dir is written, `--plugin-dir <dir>` is appended to
// launch->pre_args, CAVEMAN_HOME is pinned in launch->env (so the hook processes Claude Code
// starts find the socket of the proxy this session uses) and launch->hooks_installed is set.
// Errors: codes::kNativeHooksNoProxy, codes::kNativeHooksFailed, codes::kNativeHooksInvalid,
// codes::kNativeHooksWrite.
Status install_claude_hooks(WrapLaunch* launch);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_NATIVE_HOOKS_H_
