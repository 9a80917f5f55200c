// The run-state file `<home>/run/<port>.json` (docs/spec/proxy.md#run-state): how the caveman CLI
// finds a running proxy and tells it apart from a foreign process on the same port.
//
// write_run_state() writes atomically (temp file + rename, 0600, run/ created 0700).
// remove_run_state() deletes the file only if it still carries this instance's token, so a
// newer proxy's file is never removed by an older one. read_run_state() validates the
// schema and fields. Failures are Status values (codes::kRunStateUnavailable).
#ifndef CAVEMAN_PROXY_RUN_STATE_H_
#define CAVEMAN_PROXY_RUN_STATE_H_

#include <string>

#include "caveman/status.h"

namespace caveman::proxy {

inline constexpr const char* kRunStateSchema = "caveman.proxy.run.v1";

struct RunState {
  int pid = 0;
  int port = 0;
  std::string listen;  // host:port actually bound
  std::string mode;
  std::string owner;           // start | wrap
  std::string instance_token;  // 32 hex, random per process
  std::string started_at;      // UTC RFC 3339
  std::string version;
  bool recovery_via_mcp = false;

  std::string to_json() const;
};

std::string run_state_path(const std::string& home, int port);
Status write_run_state(const std::string& home, const RunState& state);
Status remove_run_state(const std::string& home, int port, const std::string& instance_token);
// Errors: kNotFound (no file), codes::kRunStateUnavailable (unreadable or invalid).
Result<RunState> read_run_state(const std::string& home, int port);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_RUN_STATE_H_
