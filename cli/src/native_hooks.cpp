#include "native_hooks.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "binaries.h"
#include "caveman/base/codes.h"
#include "caveman/base/text.h"
#include "caveman/version.h"

namespace caveman::cli {
namespace {

using Json = nlohmann::ordered_json;

// The one event the hooks exist for: the tool-after event replaces big tool outputs. A
// document without a command there is not the hooks document, whatever else it holds.
bool looks_like_hooks_document(const Json& doc, std::string_view tool_event) {
  if (!doc.is_object() || !doc.contains("hooks") || !doc["hooks"].is_object()) return false;
  const Json& hooks = doc["hooks"];
  const std::string event(tool_event);
  if (!hooks.contains(event) || !hooks[event].is_array()) return false;
  for (const Json& group : hooks[event]) {
    if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array()) continue;
    for (const Json& h : group["hooks"]) {
      if (h.is_object() && h.contains("command") && h["command"].is_string() &&
          !h["command"].get<std::string>().empty()) {
        return true;
      }
    }
  }
  return false;
}

Status make_dir(const std::string& path) {
  if (::mkdir(path.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::Io(codes::kNativeHooksWrite,
                      "cannot create " + path + ": " + std::strerror(errno));
  }
  return Status::Ok();
}

Status write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) return Status::Io(codes::kNativeHooksWrite, "cannot write " + path);
  return Status::Ok();
}

}  // namespace

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  if (line.size() > 200) line = line.substr(0, 200) + "…";
  return line;
}

Result<std::string> fetch_hooks_document(const std::string& proxy_path, const Environment& env,
                                         std::string_view agent, std::string_view tool_event) {
  if (proxy_path.empty() || !is_executable_file(proxy_path)) {
    return Status::NotFound(codes::kNativeHooksNoProxy,
                            "caveman-proxy not found (set CAVEMAN_PROXY_BIN or run caveman "
                            "install); launching without native hooks");
  }
  // Same bounded wait as the version probes: a hung binary must not hold the agent back.
  std::vector<std::string> argv = {proxy_path, "native-hook", "print-settings"};
  if (agent != "claude") argv.insert(argv.end(), {"--agent", std::string(agent)});
  auto run = run_captured(argv, env, probe_timeout_ms(env));
  if (!run.ok() || run->timed_out || run->exit_code != 0) {
    std::string why = !run.ok()        ? run.status().ToString()
                      : run->timed_out ? std::string("timed out")
                                       : "exit " + std::to_string(run->exit_code) + ": " +
                                             first_line(run->err);
    return Status::Unavailable(
        codes::kNativeHooksFailed,
        proxy_path + " native-hook print-settings: " + why + "; launching without native hooks");
  }
  Json doc = Json::parse(run->out, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !looks_like_hooks_document(doc, tool_event)) {
    return Status::InvalidArgument(codes::kNativeHooksInvalid,
                                   proxy_path +
                                       " native-hook print-settings did not print a hooks "
                                       "document (stale caveman-proxy?); launching without "
                                       "native hooks");
  }
  return run->out;
}

bool wants_native_hooks(const WrapLaunch& launch, std::string_view agent) {
  return launch.profile != nullptr && launch.profile->id == agent && launch.native_hooks;
}

void pin_state_root(WrapLaunch* launch) {
  if (launch->env.get("CAVEMAN_HOME")) return;
  std::string home = caveman_home(launch->env);
  if (!home.empty()) launch->env.set("CAVEMAN_HOME", home);
}

bool native_hooks_enabled(const Environment& env) {
  auto v = env.get("CAVEMAN_WRAP_HOOKS");
  if (!v) return true;
  const std::string s = base::ascii_lower(*v);
  return !(s == "0" || s == "false" || s == "off" || s == "no");
}

bool profile_takes_native_hooks(std::string_view profile_id) {
  return profile_id == "claude" || profile_id == "codex" || profile_id == "gemini";
}

Status install_claude_hooks(WrapLaunch* launch) {
  if (!wants_native_hooks(*launch, "claude")) return Status::Ok();
  CAVEMAN_ASSIGN_OR_RETURN(std::string document,
                           fetch_hooks_document(launch->proxy_path, launch->env, "claude", "PostToolUse"));
  const std::string plugin = launch->session_dir + "/plugin";
  Json manifest;
  manifest["name"] = "caveman";
  manifest["version"] = kVersion;
  manifest["description"] = "Caveman native hooks for this caveman wrap session";
  for (const std::string& dir : {plugin, plugin + "/.claude-plugin", plugin + "/hooks"}) {
    CAVEMAN_RETURN_IF_ERROR(make_dir(dir));
  }
  CAVEMAN_RETURN_IF_ERROR(write_text(plugin + "/.claude-plugin/plugin.json", manifest.dump(2) + "\n"));
  CAVEMAN_RETURN_IF_ERROR(write_text(plugin + "/hooks/hooks.json", document));
  pin_state_root(launch);
  launch->pre_args.push_back("--plugin-dir");
  launch->pre_args.push_back(plugin);
  launch->hooks_installed = true;
  return Status::Ok();
}

}  // namespace caveman::cli
