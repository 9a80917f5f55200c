#include "session_state.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

#include "transport.h"

namespace caveman::browse {

std::string SessionState::to_json() const {
  Json j = Json::object();
  j["endpoint"] = endpoint;
  j["target_id"] = target_id;
  j["targets"] = targets;
  j["owned"] = owned;
  j["pid"] = pid;
  j["document"] = document;
  j["last_handle"] = last_handle;
  Json u = Json::object();
  for (const auto& [uid, t] : uids) {
    Json e = Json{{"backendDOMNodeId", t.backend_node_id}};
    if (!t.frame_id.empty()) e["frameId"] = t.frame_id;
    u[uid] = std::move(e);
  }
  j["uids"] = std::move(u);
  return dump_compact(j);
}

Result<SessionState> SessionState::from_json(std::string_view text) {
  Json j = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return Status::Corrupt("cave_browse_state_corrupt", "browse-session.json is not a JSON object");
  SessionState s;
  try {
    s.endpoint = j.value("endpoint", std::string());
    s.target_id = j.value("target_id", std::string());
    const Json targets = j.value("targets", Json::array());
    for (const Json& t : targets) {
      if (t.is_string()) s.targets.push_back(t.get<std::string>());
    }
    s.owned = j.value("owned", false);
    s.pid = j.value("pid", 0);
    s.document = j.value("document", std::string());
    s.last_handle = j.value("last_handle", std::string());
    // Bind the map first: iterating items() of a temporary would dangle.
    const Json uids = j.value("uids", Json::object());
    for (const auto& [uid, e] : uids.items()) {
      if (!e.is_object()) continue;
      s.uids[uid] = UidTarget{e.value("backendDOMNodeId", std::int64_t{0}), e.value("frameId", std::string())};
    }
  } catch (const std::exception& e) {
    return Status::Corrupt("cave_browse_state_corrupt", std::string("browse-session.json: ") + e.what());
  }
  return s;
}

Result<std::string> caveman_home() {
  std::string home;
  if (const char* h = std::getenv("CAVEMAN_HOME"); h != nullptr && *h != '\0') {
    home = h;
  } else if (const char* u = std::getenv("HOME"); u != nullptr && *u != '\0') {
    home = std::string(u) + "/.caveman";
  } else {
    return Status::Io("cave_home_unavailable", "neither CAVEMAN_HOME nor HOME is set");
  }
  if (::mkdir(home.c_str(), 0700) != 0 && errno != EEXIST) {
    return Status::Io("cave_home_unavailable", "cannot create " + home + ": " + std::strerror(errno));
  }
  return home;
}

Result<SessionState> load_state(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return SessionState{};
  std::stringstream ss;
  ss << in.rdbuf();
  return SessionState::from_json(ss.str());
}

Status save_state(const std::string& path, const SessionState& state) {
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status::Io("cave_browse_state_unwritable", tmp + ": " + std::strerror(errno));
  std::string data = state.to_json();
  Status w = write_all(fd, data, Clock::now() + std::chrono::seconds(5));
  bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (!w.ok() || !synced || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    return Status::Io("cave_browse_state_unwritable", "cannot write " + path);
  }
  return Status::Ok();
}

void remove_state(const std::string& path) { ::unlink(path.c_str()); }

}  // namespace caveman::browse
