#include "mcp_marker.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "caveman/base/atomic_file.h"
#include "caveman/base/codes.h"
#include "caveman/base/paths.h"

namespace caveman::cli {

namespace {

void write_entry(nlohmann::ordered_json& doc, const McpMarker& m) {
  if (m.entry) {
    doc["entry"] = entry_to_json(*m.entry);
  }
  if (m.journal) doc["journal"] = journal_to_json(*m.journal);
}

void read_entry(const nlohmann::json& doc, McpMarker* m) {
  if (doc.contains("entry")) m->entry = entry_from_json(doc["entry"]);
  if (doc.contains("journal")) m->journal = journal_from_json(doc["journal"]);
  if (doc.contains("args") && doc["args"].is_array()) {
    for (const auto& a : doc["args"]) {
      if (a.is_string()) m->args.push_back(a.get<std::string>());
    }
  }
}

}  // namespace

std::string marker_path(const std::string& home, const std::string& agent,
                        const std::string& server) {
  return home + "/mcp/" + agent + (server == "caveman" ? "" : "." + server) + ".json";
}

std::optional<McpMarker> read_marker(const std::string& home, const std::string& agent,
                                     const std::string& server) {
  std::ifstream in(marker_path(home, agent, server), std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  auto doc = nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("command") ||
      !doc["command"].is_string()) {
    return std::nullopt;
  }
  McpMarker m;
  m.command = doc["command"].get<std::string>();
  m.agent = agent;
  auto str = [&](const char* key, std::string* out) {
    if (doc.contains(key) && doc[key].is_string()) *out = doc[key].get<std::string>();
  };
  str("tool", &m.tool);
  str("scope", &m.scope);
  str("project", &m.project);
  if (m.scope.empty()) m.scope = "user";
  m.server = server;
  read_entry(doc, &m);
  return m;
}

Status ensure_marker_dir(const std::string& home) {
  return base::make_private_dirs(home + "/mcp", codes::kHomeNotWritable);
}

Status write_marker(const std::string& home, const McpMarker& marker) {
  if (Status s = ensure_marker_dir(home); !s.ok()) return s;
  nlohmann::ordered_json doc;
  doc["tool"] = marker.tool;
  doc["command"] = marker.command;
  doc["args"] = marker.args;
  doc["agent"] = marker.agent;
  doc["scope"] = marker.scope;
  if (!marker.project.empty()) doc["project"] = marker.project;
  if (marker.server != "caveman") doc["server"] = marker.server;
  write_entry(doc, marker);
  std::string path = marker_path(home, marker.agent, marker.server);
  return base::write_file_atomic(path, doc.dump(2) + "\n", {.io_code = codes::kHomeNotWritable});
}

Status remove_marker(const std::string& home, const std::string& agent,
                     const std::string& server) {
  std::string path = marker_path(home, agent, server);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return Status::Io(codes::kHomeNotWritable, path + ": " + std::strerror(errno));
  }
  return Status::Ok();
}

}  // namespace caveman::cli
