#include "hooks_codex.h"

#include <cctype>
#include <nlohmann/json.hpp>

#include "agent_mcp.h"
#include "caveman/base/codes.h"
#include "caveman/base/paths.h"
#include "caveman/ccr.h"
#include "config_journal.h"
#include "hook_files.h"

namespace caveman::cli {
namespace {

using SortedJson = nlohmann::json;  // sorted keys: the order Codex hashes in

bool bare_key(std::string_view k) {
  if (k.empty()) return false;
  for (char c : k) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') return false;
  }
  return true;
}

// A TOML basic string (JSON's escapes are valid TOML escapes for these values).
std::string toml_string(const std::string& s) { return SortedJson(s).dump(); }

// One JSON value as TOML inline syntax, for `-c key=value`.
std::string toml_inline(const SortedJson& v) {
  if (v.is_string()) return toml_string(v.get<std::string>());
  if (v.is_array()) {
    std::string out = "[";
    for (const SortedJson& e : v) out += (out.size() > 1 ? "," : "") + toml_inline(e);
    return out + "]";
  }
  if (v.is_object()) {
    std::string out = "{";
    for (auto& [k, e] : v.items()) {
      out += (out.size() > 1 ? "," : "") + (bare_key(k) ? k : toml_string(k)) + "=" + toml_inline(e);
    }
    return out + "}";
  }
  return v.dump();  // numbers, booleans
}

// Key → hash of every group in `hooks`, their trust keys built by `key_of(event, index)`.
template <typename KeyOf>
SortedJson trust_entries(const SortedJson& hooks, const std::map<std::string, int>& base,
                         KeyOf key_of) {
  SortedJson state = SortedJson::object();
  for (auto& [event, groups] : hooks.items()) {
    auto it = base.find(event);
    int index = it == base.end() ? 0 : it->second;
    for (const SortedJson& g : groups) {
      state[key_of(event, index++)] = {{"trusted_hash", codex_trust_hash(event, g)}};
    }
  }
  return state;
}

std::string codex_home(const Environment& env) {
  std::string config = agent_config_path("codex", env);
  return config.empty() ? "" : config.substr(0, config.rfind('/'));
}

// config.toml's own hooks must stay readable after caveman's trust tables are appended:
// an inline `hooks = {…}` or `state = {…}` would clash with `[hooks.state."…"]` tables.
bool toml_hooks_extensible(const std::string& toml) {
  for (const char* clash : {"\nhooks =", "\nhooks=", "hooks.state =", "hooks.state=", "\nstate =", "\nstate="}) {
    if (("\n" + toml).find(clash) != std::string::npos) return false;
  }
  return true;
}

std::string trust_block(const SortedJson& state) {
  std::string out = "\n# caveman native hooks: trust for the hooks caveman added to hooks.json\n";
  for (auto& [key, v] : state.items()) {
    out += "[hooks.state." + toml_string(key) + "]\ntrusted_hash = " +
           toml_string(v["trusted_hash"].get<std::string>()) + "\n";
  }
  return out;
}

}  // namespace

std::string codex_event_key(std::string_view event) {
  std::string out;
  for (char c : event) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (!out.empty()) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

std::string codex_trust_hash(std::string_view event, const SortedJson& group) {
  SortedJson identity = {{"event_name", codex_event_key(event)}, {"hooks", SortedJson::array()}};
  if (group.contains("matcher")) identity["matcher"] = group["matcher"];
  for (SortedJson h : group.value("hooks", SortedJson::array())) {
    if (!h.contains("async")) h["async"] = false;
    identity["hooks"].push_back(h);
  }
  return "sha256:" + ccr::sha256_hex(identity.dump());
}

Result<std::vector<std::string>> codex_session_args(const std::string& document) {
  SortedJson doc = SortedJson::parse(document, nullptr, false);
  if (!doc.is_object() || !doc.contains("hooks") || !doc["hooks"].is_object()) {
    return Status::InvalidArgument(codes::kNativeHooksInvalid, "not a hooks document");
  }
  std::vector<std::string> args;
  for (auto& [event, groups] : doc["hooks"].items()) {
    args.insert(args.end(), {"-c", "hooks." + event + "=" + toml_inline(groups)});
  }
  SortedJson state = trust_entries(doc["hooks"], {}, [](const std::string& event, int i) {
    return "/<session-flags>/config.toml:" + codex_event_key(event) + ":" + std::to_string(i) + ":0";
  });
  args.insert(args.end(), {"-c", "hooks.state=" + toml_inline(state)});
  return args;
}

Status install_codex_session_hooks(WrapLaunch* launch) {
  if (!wants_native_hooks(*launch, "codex")) return Status::Ok();
  CAVEMAN_ASSIGN_OR_RETURN(std::string document,
                           fetch_hooks_document(launch->proxy_path, launch->env, "codex", "PostToolUse"));
  CAVEMAN_ASSIGN_OR_RETURN(std::vector<std::string> args, codex_session_args(document));
  pin_state_root(launch);
  launch->pre_args.insert(launch->pre_args.end(), args.begin(), args.end());
  launch->hooks_installed = true;
  return Status::Ok();
}

Result<HookInstallReport> install_codex_hooks(const HookTarget& target) {
  const std::string dir = codex_home(target.env);
  if (dir.empty()) return Status::InvalidArgument(codes::kNoHome, "HOME is not set");
  if (read_hook_marker(target.caveman_home, "codex")) {
    CAVEMAN_RETURN_IF_ERROR(uninstall_codex_hooks(target).status());  // replace our own
  }
  CAVEMAN_ASSIGN_OR_RETURN(std::string document,
                           fetch_hooks_document(target.proxy_path, target.env, "codex", "PostToolUse"));
  const std::string hooks_path = dir + "/hooks.json";
  const std::string config_path = dir + "/config.toml";
  std::string config = read_file_bytes(config_path).value_or("");
  if (!toml_hooks_extensible(config)) {
    return Status::InvalidArgument(codes::kConfigUnsupported,
                                   config_path +
                                       " defines hooks inline; add caveman's hooks by hand "
                                       "(caveman-proxy native-hook print-settings --agent codex)");
  }
  CAVEMAN_ASSIGN_OR_RETURN(HookGroupsAdded added,
                           add_hook_groups(read_file_bytes(hooks_path).value_or(""), document));
  SortedJson state = trust_entries(
      SortedJson::parse(document)["hooks"], added.indexes, [&](const std::string& event, int i) {
        return hooks_path + ":" + codex_event_key(event) + ":" + std::to_string(i) + ":0";
      });
  HookMarker marker{"codex", hooks_document_command(document), {}, trust_block(state)};
  const std::string prev = hook_marker_path(target.caveman_home, "codex");
  CAVEMAN_RETURN_IF_ERROR(
      base::make_private_dirs(target.caveman_home + "/hooks", codes::kHomeNotWritable));
  CAVEMAN_ASSIGN_OR_RETURN(FileJournal hj, journaled_write(hooks_path, added.text, prev + ".hooks.prev"));
  marker.journals.push_back(hj);
  auto cj = journaled_write(config_path, config + marker.extra, prev + ".config.prev");
  if (!cj.ok()) {
    (void)journaled_undo(hj, [&](const std::string& c) { return remove_hook_groups(c, marker.command); });
    return cj.status();
  }
  marker.journals.push_back(*cj);
  CAVEMAN_RETURN_IF_ERROR(write_hook_marker(target.caveman_home, marker));
  return HookInstallReport{{hooks_path, config_path},
                           "codex hooks installed in " + hooks_path + " (trusted in " + config_path + ")"};
}

Result<HookInstallReport> uninstall_codex_hooks(const HookTarget& target) {
  auto marker = read_hook_marker(target.caveman_home, "codex");
  const std::string command = marker ? marker->command : "";
  const std::string block = marker ? marker->extra : "";
  return undo_hook_install(target.caveman_home, "codex",
                           [&](const std::string& path, const std::string& current) -> Result<std::string> {
                             if (path.size() >= 5 && path.substr(path.size() - 5) == ".toml") {
                               std::size_t at = current.find(block);
                               if (block.empty() || at == std::string::npos) return current;
                               return current.substr(0, at) + current.substr(at + block.size());
                             }
                             return remove_hook_groups(current, command);
                           });
}

}  // namespace caveman::cli
