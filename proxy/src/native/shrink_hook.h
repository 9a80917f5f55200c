// The shrink hook on shell tools (issue 24): at the tool-before event, a test or build
// command (object_kind_for: TestResult / BuildResult) run through the agent's shell tool is
// rewritten to `<caveman-shrink> --shell -- '<command>'`, so its noisy output is shrunk at
// the source (errors and the last lines kept, the exact output under a ccr_ handle). Local to
// the hook process: no runtime round trip.
//   Gemini CLI  BeforeTool on run_shell_command → hookSpecificOutput.tool_input.command.
//               Gemini fires it after its own approval step; the approved command runs
//               unchanged under `sh -c`.
//   Codex CLI   PreToolUse on Bash → updatedInput, which Codex 0.171 accepts only with
//               permissionDecision "allow"; so only when permission_mode is
//               bypassPermissions (nothing would be asked anyway) — never to skip a prompt.
//   Claude Code not rewritten (the same approval coupling); its outputs are masked after.
// No rewrite with CAVEMAN_SHRINK_HOOK=0 (also false/off/no), without caveman-shrink
// (CAVEMAN_SHRINK_BIN, else beside this caveman-proxy), for background commands, and for a
// command that already runs caveman-shrink.
#ifndef CAVEMAN_PROXY_NATIVE_SHRINK_HOOK_H_
#define CAVEMAN_PROXY_NATIVE_SHRINK_HOOK_H_

#include <optional>
#include <string>
#include <string_view>

#include "native/hook_client.h"

namespace caveman::proxy::native {

// `command` wrapped for caveman-shrink at `shrink_bin` (both single-quoted for sh).
std::string shrink_wrapped(std::string_view command, std::string_view shrink_bin);
// The host's hook output that rewrites this tool-before payload, or nullopt (leave it).
std::optional<std::string> shrink_rewrite(const HostAdapter& host, std::string_view hook_json,
                                          const std::string& shrink_bin);
// caveman-shrink as the hook finds it ("" = none, or the hook is off).
std::string find_shrink_binary();

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_SHRINK_HOOK_H_
