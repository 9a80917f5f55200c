// The proxy address every caveman verb uses, and what is listening there.
//
// resolve_proxy() applies caveman-proxy's own rules (proxy/src/config.h): CAVEMAN_LISTEN, else
// `listen` in $CAVEMAN_CONFIG or $CAVEMAN_HOME/caveman.yaml, else 127.0.0.1:8787. A broken
// caveman.yaml is an error carrying yaml-cpp's line and column. inspect_listener() tells a
// free port from a Caveman proxy (a run-state file whose pid is alive and whose health answers)
// and from a foreign process, which the CLI never trusts, signals or restarts.
#ifndef CAVEMAN_CLI_PROXY_ADDRESS_H_
#define CAVEMAN_CLI_PROXY_ADDRESS_H_

#include <optional>
#include <string>

#include "caveman/status.h"
#include "process.h"
#include "run_state.h"

namespace caveman::cli {

struct ProxyAddress {
  std::string home;         // state root (created 0700 by the proxy config loader)
  std::string config_path;  // caveman.yaml consulted
  std::string host;         // 127.0.0.1, ::1
  int port = 8787;
  std::string mode;     // the mode caveman.yaml/env would give a proxy started now
  std::string db_path;  // caveman.db
  std::string listen() const;    // host:port, IPv6 bracketed
  std::string base_url() const;  // http://host:port
};

// Errors: codes::kInvalidConfig (with line/column for YAML), codes::kListenNotLoopback,
// codes::kNoHome.
Result<ProxyAddress> resolve_proxy(const Environment& env);

// True when a TCP connect to host:port succeeds within timeout_ms.
bool port_listening(const std::string& host, int port, int timeout_ms = 300);

enum class ListenerKind { kFree, kCaveman, kForeign };

struct Listener {
  ListenerKind kind = ListenerKind::kFree;
  std::optional<proxy::RunState> state;  // kCaveman only
  bool healthy = false;                  // GET /health/ready answered 200
  std::string health_body;
};

Listener inspect_listener(const ProxyAddress& address);

// GET http://host:port<path> with a short timeout; nullopt when nothing answered.
struct HttpReply {
  int status = 0;
  std::string body;
};
std::optional<HttpReply> http_get(const std::string& host, int port, const std::string& path,
                                  int timeout_ms = 1000);

// Polls until the proxy on `address` answers /health/ready (or timeout_ms passes).
bool wait_until_ready(const ProxyAddress& address, int timeout_ms);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_PROXY_ADDRESS_H_
