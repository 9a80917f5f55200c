#include "hook_files.h"

#include <cerrno>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "caveman/base/codes.h"
#include "caveman/base/paths.h"

namespace caveman::cli {
namespace {

using Json = nlohmann::ordered_json;

Result<Json> parse_object(const std::string& text, const std::string& what) {
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return Json::object();
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (doc.is_discarded() || !doc.is_object()) {
    return Status::InvalidArgument(codes::kConfigUnparsable, what + " is not a JSON object");
  }
  if (doc.contains("hooks") && !doc["hooks"].is_object()) {
    return Status::InvalidArgument(codes::kConfigUnparsable, what + ": \"hooks\" is not an object");
  }
  return doc;
}

bool runs_only(const Json& group, const std::string& command) {
  if (!group.is_object() || !group.contains("hooks") || !group["hooks"].is_array() ||
      group["hooks"].empty()) {
    return false;
  }
  for (const Json& h : group["hooks"]) {
    if (!h.is_object() || !h.contains("command") || h["command"] != command) return false;
  }
  return true;
}

}  // namespace

Result<HookGroupsAdded> add_hook_groups(const std::string& current, const std::string& document) {
  CAVEMAN_ASSIGN_OR_RETURN(Json doc, parse_object(current, "the config"));
  CAVEMAN_ASSIGN_OR_RETURN(Json ours, parse_object(document, "the hooks document"));
  HookGroupsAdded out;
  Json& hooks = doc["hooks"];
  if (hooks.is_null()) hooks = Json::object();
  for (auto& [event, groups] : ours["hooks"].items()) {
    Json& list = hooks[event];
    if (list.is_null()) list = Json::array();
    if (!list.is_array()) {
      return Status::InvalidArgument(codes::kConfigUnparsable,
                                     "hooks." + event + " is not an array");
    }
    for (const Json& g : groups) {
      out.indexes[event] = static_cast<int>(list.size());
      list.push_back(g);
    }
  }
  out.text = doc.dump(2) + "\n";
  return out;
}

Result<std::string> remove_hook_groups(const std::string& current, const std::string& command) {
  CAVEMAN_ASSIGN_OR_RETURN(Json doc, parse_object(current, "the config"));
  if (!doc.contains("hooks")) return current;
  Json& hooks = doc["hooks"];
  std::vector<std::string> emptied;
  for (auto& [event, groups] : hooks.items()) {
    if (!groups.is_array()) continue;
    Json kept = Json::array();
    for (const Json& g : groups) {
      if (!runs_only(g, command)) kept.push_back(g);
    }
    if (kept.empty()) emptied.push_back(event);
    groups = kept;
  }
  for (const std::string& e : emptied) hooks.erase(e);
  if (hooks.empty()) doc.erase("hooks");
  return doc.dump(2) + "\n";
}

std::string hooks_document_command(const std::string& document) {
  Json doc = Json::parse(document, nullptr, false);
  if (!doc.is_object() || !doc.contains("hooks") || !doc["hooks"].is_object()) return {};
  for (auto& [event, groups] : doc["hooks"].items()) {
    for (const Json& g : groups) {
      if (g.contains("hooks") && !g["hooks"].empty()) return g["hooks"][0].value("command", "");
    }
  }
  return {};
}

std::string hook_marker_path(const std::string& caveman_home, const std::string& agent) {
  return caveman_home + "/hooks/" + agent + ".json";
}

std::optional<HookMarker> read_hook_marker(const std::string& caveman_home, const std::string& agent) {
  auto bytes = read_file_bytes(hook_marker_path(caveman_home, agent));
  if (!bytes) return std::nullopt;
  nlohmann::json doc = nlohmann::json::parse(*bytes, nullptr, false);
  if (!doc.is_object()) return std::nullopt;
  HookMarker m;
  m.agent = doc.value("agent", "");
  m.command = doc.value("command", "");
  m.extra = doc.value("extra", "");
  if (doc.contains("journals") && doc["journals"].is_array()) {
    for (const auto& j : doc["journals"]) {
      if (auto fj = journal_from_json(j)) m.journals.push_back(*fj);
    }
  }
  return m;
}

Status write_hook_marker(const std::string& caveman_home, const HookMarker& m) {
  CAVEMAN_RETURN_IF_ERROR(
      base::make_private_dirs(caveman_home + "/hooks", codes::kHomeNotWritable));
  Json doc = {{"agent", m.agent}, {"command", m.command}, {"extra", m.extra}, {"journals", Json::array()}};
  for (const FileJournal& j : m.journals) doc["journals"].push_back(journal_to_json(j));
  return write_file_atomic(hook_marker_path(caveman_home, m.agent), doc.dump(2) + "\n");
}

Status remove_hook_marker(const std::string& caveman_home, const std::string& agent) {
  std::string path = hook_marker_path(caveman_home, agent);
  if (std::remove(path.c_str()) != 0 && errno != ENOENT) {
    return Status::Io(codes::kHomeNotWritable, "cannot remove " + path);
  }
  return Status::Ok();
}

Result<HookInstallReport> undo_hook_install(const std::string& caveman_home, const std::string& agent,
                                            const HookRewrite& rewrite) {
  auto marker = read_hook_marker(caveman_home, agent);
  if (!marker) {
    return HookInstallReport{{}, "no " + agent + " hooks installed by caveman (no marker at " +
                                     hook_marker_path(caveman_home, agent) + "); nothing removed"};
  }
  HookInstallReport report;
  // Undo in reverse order of the edits.
  for (auto it = marker->journals.rbegin(); it != marker->journals.rend(); ++it) {
    const std::string path = it->path;
    auto undone = journaled_undo(*it, [&](const std::string& c) { return rewrite(path, c); });
    if (!undone.ok()) return undone.status();
    report.files.push_back(path);
    report.message += (report.message.empty() ? "" : "; ") + path +
                      (*undone == UndoResult::kRestored    ? " restored to its bytes before the install"
                       : *undone == UndoResult::kRewritten ? " changed since: removed only caveman's hooks"
                                                           : " no longer exists");
  }
  CAVEMAN_RETURN_IF_ERROR(remove_hook_marker(caveman_home, agent));
  return report;
}

}  // namespace caveman::cli
