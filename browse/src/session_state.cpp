#include "session_state.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "caveman/base/atomic_file.h"
#include "caveman/base/codes.h"
#include "caveman/base/paths.h"

namespace caveman::browse {

std::string SessionState::to_json() const {
  Json j = Json::object();
  j["endpoint"] = endpoint;
  j["target_id"] = target_id;
  j["targets"] = targets;
  j["owned"] = owned;
  j["pid"] = pid;
  if (!browser_tmp.empty()) j["browser_tmp"] = browser_tmp;
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
  if (!j.is_object())
    return Status::Corrupt(codes::kBrowseStateCorrupt, "browse-session.json is not a JSON object");
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
    s.browser_tmp = j.value("browser_tmp", std::string());
    s.document = j.value("document", std::string());
    s.last_handle = j.value("last_handle", std::string());
    // Bind the map first: iterating items() of a temporary would dangle.
    const Json uids = j.value("uids", Json::object());
    for (const auto& [uid, e] : uids.items()) {
      if (!e.is_object()) continue;
      s.uids[uid] = UidTarget{e.value("backendDOMNodeId", std::int64_t{0}), e.value("frameId", std::string())};
    }
  } catch (const std::exception& e) {
    return Status::Corrupt(codes::kBrowseStateCorrupt,
                           std::string("browse-session.json: ") + e.what());
  }
  return s;
}

Result<std::string> caveman_home() {
  std::optional<std::string> home = base::caveman_home(base::process_env());
  if (!home) return Status::Io(codes::kHomeUnavailable, "neither CAVEMAN_HOME nor HOME is set");
  CAVEMAN_RETURN_IF_ERROR(base::make_private_dirs(*home, codes::kHomeUnavailable));
  return *home;
}

Result<SessionState> load_state(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return SessionState{};
  std::stringstream ss;
  ss << in.rdbuf();
  return SessionState::from_json(ss.str());
}

Status save_state(const std::string& path, const SessionState& state) {
  return base::write_file_atomic(path, state.to_json(), {.io_code = codes::kBrowseStateUnwritable});
}

void remove_state(const std::string& path) { ::unlink(path.c_str()); }

}  // namespace caveman::browse
