// The host side of the native runtime: `caveman-proxy native-hook <agent>` reads one host
// hook payload on stdin, turns it into a native request, asks the runtime over the socket and
// answers in the host's hook output format. One implementation of the request and the socket
// exchange; only each host's JSON in/out differs (host_formats.h: Claude Code, Codex CLI,
// Gemini CLI).
//
// Claude Code mapping: SessionStart → session.start (the signed session marker comes back
// as additionalContext), UserPromptSubmit → prompt.submit (only the prompt's byte count,
// SHA-256 and a keyword classification cross the socket — never its text), PreToolUse →
// tool.before, PostToolUse → tool.after (a replacement becomes
// hookSpecificOutput.updatedToolOutput with the tool's own output shape: Bash's stdout, a
// plain string, or MCP text blocks), PostToolUseFailure → tool.failure, PreCompact /
// PostCompact → context.compact.before/after, Stop → turn.stop, SessionEnd → session.end,
// SubagentStart/Stop → subagent.start/stop; anything else is sent as its own name.
// Every failure (no runtime, timeout, > 2 MiB stdin, bad JSON) prints nothing and exits 0:
// the host carries on exactly as without Caveman. Pure mapping functions plus run_hook().
#ifndef CAVEMAN_PROXY_NATIVE_HOOK_CLIENT_H_
#define CAVEMAN_PROXY_NATIVE_HOOK_CLIENT_H_

#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "native/protocol.h"

namespace caveman::proxy::native {

// How long the hook waits for the runtime. Small events get the protocol's 250 ms; a
// tool.after carrying an output over the threshold also covers the runtime's compression
// and its ccr.db writes (on a loaded 2-core machine a 500 KB log took seconds), so it gets
// up to 20 s — still inside the 30 s hook timeout of claude_hook_settings().
// CAVEMAN_NATIVE_TIMEOUT_MS overrides both.
inline constexpr int kLargeOutputDeadlineMs = 20000;
inline constexpr int kHookTimeoutSeconds = 30;

struct HostCall {
  NativeRequest request;
  std::string host_event;          // "PostToolUse", "AfterTool", …
  std::string tool_response_json;  // the host's tool_response, for rebuilding its shape
  int deadline_ms = 250;
};

// One host's hook dialect. Every host sends session_id, hook_event_name, cwd and tool_* in
// its payload; what differs is the event names and the answer format.
struct HostAdapter {
  std::string_view id;              // claude | codex | gemini
  std::string_view model_provider;  // anthropic | openai | google
  const std::vector<std::pair<std::string_view, EventType>>* events;
  // An object tool_response with a non-null "error" is a failed tool (Gemini's shape).
  bool error_field_means_failure = false;
  std::string (*render)(const HostCall& call, const NativeResponse& response);  // "" = silent
};

// Host hook JSON → native request. nullopt when the payload is not a hook event.
std::optional<HostCall> host_to_request(const HostAdapter& host, std::string_view hook_json,
                                        std::string_view agent);
// Claude Code's dialect (kept as named entry points for its callers and tests).
std::optional<HostCall> claude_to_request(std::string_view hook_json, std::string_view agent);
// Native response → Claude Code hook output JSON ("" = print nothing).
std::string response_to_claude(const HostCall& call, const NativeResponse& response);
// Rebuilds a tool_response with its text replaced, keeping its shape (Bash {stdout,…}, a
// string, MCP text blocks).
nlohmann::json replaced_tool_output(const nlohmann::json& response, const std::string& replacement);

// Keyword classification of a prompt: {type, terms}; terms come from a fixed vocabulary,
// never from the prompt's own words.
std::pair<std::string, std::vector<std::string>> classify_prompt(std::string_view prompt);

// The whole hook: stdin → socket → stdout, in `host`'s dialect. Always returns 0.
int run_hook(const HostAdapter& host, std::string_view agent, const std::string& home,
             std::istream& in, std::ostream& out);
// The same with the dialect named after the agent (claude, codex, gemini; anything else
// speaks Claude Code's).
int run_hook(std::string_view agent, const std::string& home, std::istream& in, std::ostream& out);

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_HOOK_CLIENT_H_
