// Each host's hook dialect for `caveman-proxy native-hook <agent>` (hook_client.h does the
// shared work): its event names, how a runtime answer is written back, and the hooks
// document that registers the hook command with it.
//
//   Claude Code  PostToolUse → hookSpecificOutput.updatedToolOutput (the tool's own shape).
//   Codex CLI    PostToolUse → {"decision":"block","reason":<view>}: Codex 0.171 sends the
//                reason to the model in place of the tool output (its hookSpecificOutput
//                has only additionalContext and updatedMCPToolOutput, MCP tools only).
//   Gemini CLI   AfterTool → {"decision":"deny","reason":<view>}: Gemini CLI 0.61 has no
//                output replacement; a denied result reaches the model as the error text
//                "Tool result blocked: <view>", so the view replaces the output, marked as
//                blocked. SessionStart/BeforeAgent context is prepended to the prompt.
// Session markers ride as additionalContext at SessionStart for all three.
#ifndef CAVEMAN_PROXY_NATIVE_HOST_FORMATS_H_
#define CAVEMAN_PROXY_NATIVE_HOST_FORMATS_H_

#include <string>
#include <string_view>

#include "native/hook_client.h"

namespace caveman::proxy::native {

const HostAdapter& claude_host();
const HostAdapter& codex_host();
const HostAdapter& gemini_host();
// claude, codex or gemini; nullptr for anything else.
const HostAdapter* find_host(std::string_view id);

std::string response_to_codex(const HostCall& call, const NativeResponse& response);
std::string response_to_gemini(const HostCall& call, const NativeResponse& response);

// The hooks document ({"hooks":{<Event>:[{"matcher"?,"hooks":[{"type":"command",…}]}]}})
// that runs `command` on the host's lifecycle events:
//   claude  11 events, tool matchers "*", timeout 30 (s)
//   codex   Claude's events plus PermissionRequest, minus PostToolUseFailure (Codex has
//           none), tool matchers "*", timeout 30 (s; SessionEnd 3, Codex's own cap) —
//           ~/.codex/hooks.json or `-c hooks.…`
//   gemini  SessionStart, BeforeAgent, BeforeTool, AfterTool, PreCompress, AfterAgent,
//           SessionEnd; tool matchers ".*" (a regex), timeout 30000 (ms), name "caveman".
//           BeforeModel/AfterModel/BeforeToolSelection are left out: they carry the whole
//           model request or response, which the runtime never needs.
std::string claude_hook_settings(std::string_view command);
std::string host_hook_settings(const HostAdapter& host, std::string_view command);

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_HOST_FORMATS_H_
