#include "hooks_gemini.h"

#include <nlohmann/json.hpp>

#include "agent_mcp.h"
#include "binaries.h"
#include "caveman/base/codes.h"
#include "caveman/base/paths.h"
#include "config_journal.h"
#include "hook_files.h"

namespace caveman::cli {
namespace {

// Gemini may redact its environment before it runs a hook (environment variable redaction, or
// always on GitHub Actions); a hook's own "env" is added after that, so the state root and the
// native settings reach the hook process either way.
std::string with_hook_env(const std::string& document, const Environment& env) {
  nlohmann::json doc = nlohmann::json::parse(document, nullptr, false);
  if (!doc.is_object() || !doc.contains("hooks")) return document;
  nlohmann::json vars = nlohmann::json::object();
  for (const char* name : {"CAVEMAN_HOME", "CAVEMAN_NATIVE_TIMEOUT_MS", "CAVEMAN_NATIVE_POLICY",
                           "CAVEMAN_SHRINK_HOOK", "CAVEMAN_SHRINK_BIN"}) {
    if (auto v = env.get(name)) vars[name] = *v;
  }
  for (auto& [event, groups] : doc["hooks"].items()) {
    for (auto& g : groups) {
      for (auto& h : g["hooks"]) h["env"] = vars;
    }
  }
  return doc.dump();
}

}  // namespace

std::string gemini_system_defaults_path(const Environment& env) {
  if (auto v = env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"); v && !v->empty()) return *v;
  std::string settings = env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH").value_or("");
  if (settings.empty()) settings = "/etc/gemini-cli/settings.json";
  return settings.substr(0, settings.rfind('/') + 1) + "system-defaults.json";
}

Status install_gemini_session_hooks(WrapLaunch* launch) {
  if (!wants_native_hooks(*launch, "gemini")) return Status::Ok();
  CAVEMAN_ASSIGN_OR_RETURN(std::string document,
                           fetch_hooks_document(launch->proxy_path, launch->env, "gemini", "AfterTool"));
  pin_state_root(launch);
  // The user's own system defaults keep applying: the session copy is theirs plus our hooks.
  std::string original = read_file_bytes(gemini_system_defaults_path(launch->env)).value_or("");
  CAVEMAN_ASSIGN_OR_RETURN(HookGroupsAdded merged,
                           add_hook_groups(original, with_hook_env(document, launch->env)));
  // Gemini CLI skips a defaults file below a group- or world-writable directory (the sticky
  // /tmp included), so the session copy lives in the private state root, not session_dir.
  const std::string home = caveman_home(launch->env);
  const std::string dir = home + "/run/gemini-" + launch->session_dir.substr(launch->session_dir.rfind('/') + 1);
  CAVEMAN_RETURN_IF_ERROR(base::make_private_dirs(dir, codes::kNativeHooksWrite));
  launch->owned_dirs.push_back(dir);
  const std::string path = dir + "/system-defaults.json";
  if (Status s = write_file_atomic(path, merged.text); !s.ok()) {
    return Status::Io(codes::kNativeHooksWrite, s.message());
  }
  launch->env.set("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", path);
  launch->hooks_installed = true;
  return Status::Ok();
}

Result<HookInstallReport> install_gemini_hooks(const HookTarget& target) {
  const std::string path = agent_config_path("gemini", target.env);
  if (path.empty()) return Status::InvalidArgument(codes::kNoHome, "HOME is not set");
  if (read_hook_marker(target.caveman_home, "gemini")) {
    CAVEMAN_RETURN_IF_ERROR(uninstall_gemini_hooks(target).status());  // replace our own
  }
  CAVEMAN_ASSIGN_OR_RETURN(std::string document,
                           fetch_hooks_document(target.proxy_path, target.env, "gemini", "AfterTool"));
  CAVEMAN_ASSIGN_OR_RETURN(HookGroupsAdded added, add_hook_groups(read_file_bytes(path).value_or(""), document));
  HookMarker marker{"gemini", hooks_document_command(document), {}, ""};
  CAVEMAN_RETURN_IF_ERROR(
      base::make_private_dirs(target.caveman_home + "/hooks", codes::kHomeNotWritable));
  CAVEMAN_ASSIGN_OR_RETURN(FileJournal j, journaled_write(path, added.text,
                                                          hook_marker_path(target.caveman_home, "gemini") + ".prev"));
  marker.journals.push_back(j);
  CAVEMAN_RETURN_IF_ERROR(write_hook_marker(target.caveman_home, marker));
  return HookInstallReport{{path}, "gemini hooks installed in " + path};
}

Result<HookInstallReport> uninstall_gemini_hooks(const HookTarget& target) {
  auto marker = read_hook_marker(target.caveman_home, "gemini");
  const std::string command = marker ? marker->command : "";
  return undo_hook_install(target.caveman_home, "gemini",
                           [&](const std::string&, const std::string& current) {
                             return remove_hook_groups(current, command);
                           });
}

}  // namespace caveman::cli
