#include "native/host_formats.h"

#include <istream>
#include <nlohmann/json.hpp>
#include <ostream>

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

const std::vector<std::pair<std::string_view, EventType>> kClaudeEvents = {
    {"SessionStart", EventType::kSessionStart},
    {"UserPromptSubmit", EventType::kPromptSubmit},
    {"PreToolUse", EventType::kToolBefore},
    {"PostToolUse", EventType::kToolAfter},
    {"PostToolUseFailure", EventType::kToolFailure},
    {"PreCompact", EventType::kCompactBefore},
    {"PostCompact", EventType::kCompactAfter},
    {"Stop", EventType::kTurnStop},
    {"SessionEnd", EventType::kSessionEnd},
    {"SubagentStart", EventType::kSubagentStart},
    {"SubagentStop", EventType::kSubagentStop},
};

const std::vector<std::pair<std::string_view, EventType>> kGeminiEvents = {
    {"SessionStart", EventType::kSessionStart},
    {"BeforeAgent", EventType::kPromptSubmit},
    {"BeforeModel", EventType::kModelBefore},
    {"AfterModel", EventType::kModelAfter},
    {"BeforeTool", EventType::kToolBefore},
    {"AfterTool", EventType::kToolAfter},
    {"PreCompress", EventType::kCompactBefore},
    {"AfterAgent", EventType::kTurnStop},
    {"SessionEnd", EventType::kSessionEnd},
};

// SessionStart (and the prompt event) context: the marker. All three hosts read
// hookSpecificOutput.additionalContext there.
std::string context_output(const HostCall& call, const NativeResponse& resp) {
  return dump_json(
      Json{{"hookSpecificOutput",
            {{"hookEventName", call.host_event}, {"additionalContext", resp.context}}}});
}

bool carries_context(const NativeRequest& r, const NativeResponse& resp) {
  return !resp.context.empty() &&
         (r.event == EventType::kSessionStart || r.event == EventType::kPromptSubmit);
}

std::string render_claude(const HostCall& call, const NativeResponse& resp) {
  if (carries_context(call.request, resp)) return context_output(call, resp);
  if (call.request.event != EventType::kToolAfter || !resp.output_replacement) return {};
  Json original = Json::parse(call.tool_response_json, nullptr, false);
  if (original.is_discarded()) return {};
  return dump_json(
      Json{{"hookSpecificOutput",
            {{"hookEventName", "PostToolUse"},
             {"updatedToolOutput", replaced_tool_output(original, *resp.output_replacement)}}}});
}

// Codex and Gemini replace a tool output only through a blocking decision whose reason the
// model reads instead of the output; the word differs ("block" / "deny").
std::string render_blocking(const HostCall& call, const NativeResponse& resp, const char* decision) {
  if (carries_context(call.request, resp)) return context_output(call, resp);
  if (call.request.event != EventType::kToolAfter || !resp.output_replacement) return {};
  return dump_json(Json{{"decision", decision}, {"reason", *resp.output_replacement}});
}

// Codex 0.171 clamps a SessionEnd hook's timeout to 3 s and hashes the clamped definition for
// its trust check, so a larger value would leave that hook untrusted ("modified").
constexpr int kCodexSessionEndTimeoutSeconds = 3;

Json command_hook(const HostAdapter& host, std::string_view event, std::string_view command) {
  Json h = {{"type", "command"}, {"command", command}};
  if (host.id == "gemini") {
    h["name"] = "caveman";
    h["timeout"] = kHookTimeoutSeconds * 1000;  // Gemini counts milliseconds
  } else if (host.id == "codex" && event == "SessionEnd") {
    h["timeout"] = kCodexSessionEndTimeoutSeconds;
  } else {
    h["timeout"] = kHookTimeoutSeconds;
  }
  return h;
}

struct SettingsEvent {
  std::string_view name;
  bool tool_event;
};

const std::vector<SettingsEvent>& settings_events(const HostAdapter& host) {
  static const std::vector<SettingsEvent> kClaude = {
      {"SessionStart", false}, {"UserPromptSubmit", false}, {"PreToolUse", true},
      {"PostToolUse", true},   {"PostToolUseFailure", true}, {"PreCompact", false},
      {"PostCompact", false},  {"SubagentStart", false},   {"SubagentStop", false},
      {"Stop", false},         {"SessionEnd", false}};
  // Codex has no PostToolUseFailure; PermissionRequest is its own.
  static const std::vector<SettingsEvent> kCodex = {
      {"SessionStart", false}, {"UserPromptSubmit", false}, {"PreToolUse", true},
      {"PermissionRequest", true}, {"PostToolUse", true},   {"PreCompact", false},
      {"PostCompact", false},  {"SubagentStart", false},   {"SubagentStop", false},
      {"Stop", false},         {"SessionEnd", false}};
  static const std::vector<SettingsEvent> kGemini = {
      {"SessionStart", false}, {"BeforeAgent", false}, {"BeforeTool", true}, {"AfterTool", true},
      {"PreCompress", false},  {"AfterAgent", false},  {"SessionEnd", false}};
  return host.id == "gemini" ? kGemini : host.id == "codex" ? kCodex : kClaude;
}

}  // namespace

std::string response_to_claude(const HostCall& call, const NativeResponse& resp) {
  return render_claude(call, resp);
}
std::string response_to_codex(const HostCall& call, const NativeResponse& resp) {
  return render_blocking(call, resp, "block");
}
std::string response_to_gemini(const HostCall& call, const NativeResponse& resp) {
  return render_blocking(call, resp, "deny");
}

const HostAdapter& claude_host() {
  static const HostAdapter kHost{"claude", "anthropic", &kClaudeEvents, false, render_claude};
  return kHost;
}
const HostAdapter& codex_host() {
  // Codex uses Claude Code's names; PermissionRequest has no native event (sent as itself).
  static const HostAdapter kHost{"codex", "openai", &kClaudeEvents, false, response_to_codex};
  return kHost;
}
const HostAdapter& gemini_host() {
  static const HostAdapter kHost{"gemini", "google", &kGeminiEvents, true, response_to_gemini};
  return kHost;
}

const HostAdapter* find_host(std::string_view id) {
  for (const HostAdapter* h : {&claude_host(), &codex_host(), &gemini_host()}) {
    if (h->id == id) return h;
  }
  return nullptr;
}

std::optional<HostCall> claude_to_request(std::string_view hook_json, std::string_view agent) {
  return host_to_request(claude_host(), hook_json, agent);
}

int run_hook(std::string_view agent, const std::string& home, std::istream& in, std::ostream& out) {
  const HostAdapter* host = find_host(agent);
  return run_hook(host != nullptr ? *host : claude_host(), agent, home, in, out);
}

std::string host_hook_settings(const HostAdapter& host, std::string_view command) {
  Json hooks = Json::object();
  for (const SettingsEvent& e : settings_events(host)) {
    Json entry = {{"hooks", Json::array({command_hook(host, e.name, command)})}};
    if (e.tool_event) entry["matcher"] = host.id == "gemini" ? ".*" : "*";
    hooks[std::string(e.name)] = Json::array({entry});
  }
  return Json{{"hooks", hooks}}.dump(2);
}

std::string claude_hook_settings(std::string_view command) {
  return host_hook_settings(claude_host(), command);
}

}  // namespace caveman::proxy::native
