#include "run_state.h"

#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "caveman/base/atomic_file.h"
#include "caveman/base/codes.h"
#include "caveman/base/paths.h"

namespace caveman::proxy {
namespace {

using OJson = nlohmann::ordered_json;

Status unavailable(std::string message) {
  return Status::Io(codes::kRunStateUnavailable, std::move(message));
}

}  // namespace

std::string RunState::to_json() const {
  OJson j;
  j["schema"] = kRunStateSchema;
  j["pid"] = pid;
  j["port"] = port;
  j["listen"] = listen;
  j["mode"] = mode;
  j["owner"] = owner;
  j["instance_token"] = instance_token;
  j["started_at"] = started_at;
  j["version"] = version;
  j["recovery_via_mcp"] = recovery_via_mcp;
  return j.dump();
}

std::string run_state_path(const std::string& home, int port) {
  return home + "/run/" + std::to_string(port) + ".json";
}

Status write_run_state(const std::string& home, const RunState& state) {
  CAVEMAN_RETURN_IF_ERROR(base::make_private_dirs(home + "/run", codes::kRunStateUnavailable));
  return base::write_file_atomic(run_state_path(home, state.port), state.to_json() + "\n",
                                 {.io_code = codes::kRunStateUnavailable});
}

Result<RunState> read_run_state(const std::string& home, int port) {
  std::string path = run_state_path(home, port);
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::NotFound(codes::kRunStateMissing, "no run-state file " + path);
  std::ostringstream text;
  text << in.rdbuf();
  OJson j = OJson::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || j.value("schema", "") != kRunStateSchema) {
    return unavailable(path + " is not a caveman.proxy.run.v1 record");
  }
  RunState s;
  try {
    s.pid = j.at("pid").get<int>();
    s.port = j.at("port").get<int>();
    s.listen = j.at("listen").get<std::string>();
    s.mode = j.at("mode").get<std::string>();
    s.owner = j.at("owner").get<std::string>();
    s.instance_token = j.at("instance_token").get<std::string>();
    s.started_at = j.at("started_at").get<std::string>();
    s.version = j.at("version").get<std::string>();
    s.recovery_via_mcp = j.at("recovery_via_mcp").get<bool>();
  } catch (const nlohmann::json::exception& e) {
    return unavailable(path + ": " + e.what());
  }
  if (s.port != port || s.pid <= 0 || s.instance_token.size() != 32) {
    return unavailable(path + " does not describe port " + std::to_string(port));
  }
  return s;
}

Status remove_run_state(const std::string& home, int port, const std::string& instance_token) {
  Result<RunState> current = read_run_state(home, port);
  if (!current.ok()) return current.status().code() == Code::kNotFound ? Status::Ok() : current.status();
  if (current->instance_token != instance_token) return Status::Ok();  // another instance's file
  if (::unlink(run_state_path(home, port).c_str()) != 0 && errno != ENOENT) {
    return unavailable("cannot remove the run-state file");
  }
  return Status::Ok();
}

}  // namespace caveman::proxy
