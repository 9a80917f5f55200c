#include "agent_mcp.h"

#include <nlohmann/json.hpp>

#include "caveman/base/codes.h"
#include "config_journal.h"
#include "mcp_marker.h"

namespace caveman::cli {
namespace {

std::string home_dir(const Environment& env) { return env.get("HOME").value_or(""); }

std::string nonempty_or(const Environment& env, const char* name, const std::string& fallback) {
  auto v = env.get(name);
  return v && !v->empty() ? *v : fallback;
}

// What a config caveman creates starts from. opencode adds "$schema" to a config without one
// the first time it runs; starting with it keeps the file as caveman wrote it, so uninstall
// can simply delete it again.
std::string new_config_text(std::string_view agent) {
  if (agent == "opencode") return "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n";
  if (agent == "qwen") return "{\n  \"$version\": 4\n}\n";  // Qwen Code 0.24 adds it likewise
  return {};
}

}  // namespace

const std::vector<McpServerSpec>& mcp_servers() {
  static const std::vector<McpServerSpec> kServers = {
      {"caveman", "caveman-mcp"}, {"caveman-browse", "caveman-browse"}, {"cavemem", "cavemem"}};
  return kServers;
}

const McpServerSpec* find_mcp_server(std::string_view name) {
  for (const auto& s : mcp_servers()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const std::vector<std::string>& config_mcp_agents() {
  static const std::vector<std::string> kAgents = {"codex", "gemini", "opencode", "qwen"};
  return kAgents;
}

bool edits_agent_config(std::string_view agent) {
  for (const auto& a : config_mcp_agents()) {
    if (a == agent) return true;
  }
  return false;
}

std::string agent_config_path(std::string_view agent, const Environment& env) {
  std::string home = home_dir(env);
  if (agent == "codex") {
    std::string dir = nonempty_or(env, "CODEX_HOME", home.empty() ? "" : home + "/.codex");
    return dir.empty() ? "" : dir + "/config.toml";
  }
  if (home.empty()) return "";
  if (agent == "gemini") return home + "/.gemini/settings.json";
  if (agent == "qwen") return home + "/.qwen/settings.json";  // a Gemini CLI fork: same format
  if (agent == "opencode") {
    return nonempty_or(env, "XDG_CONFIG_HOME", home + "/.config") + "/opencode/opencode.json";
  }
  return "";
}

ConfigEntry mcp_entry(std::string_view agent, const std::string& server,
                      const std::string& command, const std::vector<std::string>& args) {
  ConfigEntry e;
  e.name = server;
  if (agent == "codex") {
    e.format = ConfigFormat::kToml;
    e.table = "mcp_servers";
    e.value = toml_server_body(command, args);
    return e;
  }
  nlohmann::ordered_json value;
  if (agent == "opencode") {
    e.table = "mcp";
    nlohmann::ordered_json cmd = nlohmann::ordered_json::array({command});
    for (const auto& a : args) cmd.push_back(a);
    value = {{"type", "local"}, {"command", cmd}, {"enabled", true}};
  } else {
    e.table = "mcpServers";
    value = {{"command", command}, {"args", args}};
  }
  e.value = value.dump();
  return e;
}

Result<McpEditReport> uninstall_config_mcp(const std::string& home, const std::string& agent,
                                           const std::string& server) {
  auto marker = read_marker(home, agent, server);
  if (!marker || !marker->entry || !marker->journal) {
    return McpEditReport{"", "no " + server + " entry made by caveman for " + agent +
                                 " (no marker at " + marker_path(home, agent, server) +
                                 "); nothing removed"};
  }
  const ConfigEntry entry = *marker->entry;
  auto undone = journaled_undo(*marker->journal,
                               [&](const std::string& current) { return remove_entry(current, entry); });
  if (!undone.ok()) return undone.status();
  if (Status s = remove_marker(home, agent, server); !s.ok()) return s;
  const std::string& path = marker->journal->path;
  switch (*undone) {
    case UndoResult::kRestored:
      return McpEditReport{path, path + " restored to its bytes before the install"};
    case UndoResult::kRewritten:
      return McpEditReport{path, path + " changed since the install: removed only " +
                                     entry.table + "." + entry.name};
    case UndoResult::kGone:
      break;
  }
  return McpEditReport{path, path + " no longer exists; nothing to remove"};
}

Result<McpEditReport> install_config_mcp(const std::string& home, const Environment& env,
                                         const std::string& agent, const std::string& server,
                                         const std::string& command) {
  std::string path = agent_config_path(agent, env);
  if (path.empty()) return Status::InvalidArgument(codes::kNoHome, "HOME is not set");
  if (read_marker(home, agent, server)) {
    auto undone = uninstall_config_mcp(home, agent, server);  // replace our own entry
    if (!undone.ok()) return undone.status();
  }
  ConfigEntry entry = mcp_entry(agent, server, command, {});
  std::string before = read_file_bytes(path).value_or(new_config_text(agent));
  CAVEMAN_ASSIGN_OR_RETURN(std::string after, add_entry(before, entry));
  if (Status s = ensure_marker_dir(home); !s.ok()) return s;
  std::string marker_file = marker_path(home, agent, server);
  CAVEMAN_ASSIGN_OR_RETURN(FileJournal journal, journaled_write(path, after, marker_file + ".prev"));
  McpMarker m;
  m.command = command;
  m.agent = agent;
  m.scope = "user";
  m.server = server;
  m.entry = entry;
  m.journal = journal;
  if (Status s = write_marker(home, m); !s.ok()) {
    (void)journaled_undo(journal, [&](const std::string& c) { return remove_entry(c, entry); });
    return s;
  }
  return McpEditReport{path, server + " registered with " + agent + " in " + path + ": " + command};
}

}  // namespace caveman::cli
