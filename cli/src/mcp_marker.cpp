#include "mcp_marker.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace caveman::cli {

std::string marker_path(const std::string& home, const std::string& agent) {
  return home + "/mcp/" + agent + ".json";
}

std::optional<McpMarker> read_marker(const std::string& home, const std::string& agent) {
  std::ifstream in(marker_path(home, agent), std::ios::binary);
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
  return m;
}

Status write_marker(const std::string& home, const McpMarker& marker) {
  std::string dir = home + "/mcp";
  if (::mkdir(home.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::Io("cave_home_not_writable", home + ": " + std::strerror(errno));
  }
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::Io("cave_home_not_writable", dir + ": " + std::strerror(errno));
  }
  nlohmann::ordered_json doc;
  doc["tool"] = marker.tool;
  doc["command"] = marker.command;
  doc["args"] = nlohmann::ordered_json::array();
  doc["agent"] = marker.agent;
  doc["scope"] = marker.scope;
  if (!marker.project.empty()) doc["project"] = marker.project;
  std::string path = marker_path(home, marker.agent);
  std::string tmp = path + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return Status::Io("cave_home_not_writable", tmp + ": cannot write");
    out << doc.dump(2) << "\n";
    if (!out) return Status::Io("cave_home_not_writable", tmp + ": write failed");
  }
  ::chmod(tmp.c_str(), 0600);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return Status::Io("cave_home_not_writable", path + ": " + std::strerror(e));
  }
  return Status::Ok();
}

Status remove_marker(const std::string& home, const std::string& agent) {
  std::string path = marker_path(home, agent);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
    return Status::Io("cave_home_not_writable", path + ": " + std::strerror(errno));
  }
  return Status::Ok();
}

}  // namespace caveman::cli
