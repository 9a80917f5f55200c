#include "native/shrink_hook.h"

#include <limits.h>
#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "caveman/base/text.h"
#include "native/masking.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

std::string sh_quote(std::string_view s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool off(const char* value) {
  if (value == nullptr) return false;
  std::string v = base::ascii_lower(value);
  return v == "0" || v == "false" || v == "off" || v == "no";
}

// The shell tool's command when this payload may be rewritten for `host`.
std::optional<std::string> shell_command(const HostAdapter& host, const Json& in) {
  const std::string tool = in.value("tool_name", "");
  const bool shell = (host.id == "gemini" && tool == "run_shell_command") ||
                     (host.id == "codex" && tool == "Bash");
  if (!shell || !in.contains("tool_input") || !in["tool_input"].is_object()) return std::nullopt;
  const Json& input = in["tool_input"];
  if (!input.contains("command") || !input["command"].is_string()) return std::nullopt;
  if (input.value("is_background", false)) return std::nullopt;
  // Codex ties updatedInput to an approval: only where nothing would be asked anyway.
  if (host.id == "codex" && in.value("permission_mode", "") != "bypassPermissions")
    return std::nullopt;
  std::string command = input["command"];
  if (command.find("caveman-shrink") != std::string::npos) return std::nullopt;
  std::string_view kind = object_kind_for(tool, {{"command", command}});
  if (kind != "TestResult" && kind != "BuildResult") return std::nullopt;
  return command;
}

}  // namespace

std::string shrink_wrapped(std::string_view command, std::string_view shrink_bin) {
  return sh_quote(shrink_bin) + " --shell -- " + sh_quote(command);
}

std::optional<std::string> shrink_rewrite(const HostAdapter& host, std::string_view hook_json,
                                          const std::string& shrink_bin) {
  if (shrink_bin.empty()) return std::nullopt;
  Json in = Json::parse(hook_json, nullptr, false);
  if (!in.is_object()) return std::nullopt;
  const std::string event = in.value("hook_event_name", "");
  if (event != (host.id == "gemini" ? "BeforeTool" : "PreToolUse")) return std::nullopt;
  std::optional<std::string> command = shell_command(host, in);
  if (!command) return std::nullopt;
  Json input = in["tool_input"];
  input["command"] = shrink_wrapped(*command, shrink_bin);
  Json specific = {{"hookEventName", event}};
  if (host.id == "gemini") {
    specific["tool_input"] = input;
  } else {
    specific["permissionDecision"] = "allow";
    specific["updatedInput"] = input;
  }
  return Json{{"hookSpecificOutput", specific}}.dump();
}

std::string find_shrink_binary() {
  if (off(std::getenv("CAVEMAN_SHRINK_HOOK"))) return {};
  if (const char* forced = std::getenv("CAVEMAN_SHRINK_BIN");
      forced != nullptr && *forced != '\0') {
    return ::access(forced, X_OK) == 0 ? std::string(forced) : std::string();
  }
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  std::string self(buf, static_cast<std::size_t>(n));
  std::string beside = self.substr(0, self.rfind('/') + 1) + "caveman-shrink";
  return ::access(beside.c_str(), X_OK) == 0 ? beside : std::string();
}

}  // namespace caveman::proxy::native
