#include "proxy_address.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <thread>

#include <httplib.h>

#include "config.h"

namespace caveman::cli {

std::string ProxyAddress::listen() const {
  return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string ProxyAddress::base_url() const { return "http://" + listen(); }

Result<ProxyAddress> resolve_proxy(const Environment& env) {
  proxy::EnvLookup lookup = [&env](std::string_view name) { return env.get(name); };
  CAVEMAN_ASSIGN_OR_RETURN(proxy::Config config, proxy::load_config(lookup));
  ProxyAddress a;
  a.home = config.home;
  a.config_path = config.config_path;
  a.host = config.listen_host;
  a.port = config.listen_port;
  a.mode = config.mode;
  a.db_path = config.db_path;
  return a;
}

bool port_listening(const std::string& host, int port, int timeout_ms) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* res = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res) != 0) return false;
  bool connected = false;
  for (addrinfo* ai = res; ai != nullptr && !connected; ai = ai->ai_next) {
    int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
    if (fd < 0) continue;
    int rc = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
    if (rc == 0) {
      connected = true;
    } else if (errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      if (::poll(&p, 1, timeout_ms) == 1) {
        int err = 0;
        socklen_t len = sizeof err;
        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
        connected = err == 0;
      }
    }
    ::close(fd);
  }
  ::freeaddrinfo(res);
  return connected;
}

std::optional<HttpReply> http_get(const std::string& host, int port, const std::string& path,
                                  int timeout_ms) {
  httplib::Client client(host, port);
  auto t = std::chrono::milliseconds(timeout_ms);
  client.set_connection_timeout(t);
  client.set_read_timeout(t);
  client.set_write_timeout(t);
  auto res = client.Get(path);
  if (!res) return std::nullopt;
  return HttpReply{res->status, res->body};
}

Listener inspect_listener(const ProxyAddress& address) {
  Listener l;
  if (!port_listening(address.host, address.port)) return l;
  l.kind = ListenerKind::kForeign;
  auto state = proxy::read_run_state(address.home, address.port);
  // A run-state file only vouches for the port while its process lives; a stale file next
  // to somebody else's listener must not make us trust that listener.
  if (!state.ok() || !pid_alive(state->pid)) return l;
  auto health = http_get(address.host, address.port, "/health/ready");
  if (!health || health->body.find("caveman-proxy") == std::string::npos) return l;
  l.kind = ListenerKind::kCaveman;
  l.state = *state;
  l.healthy = health->status == 200;
  l.health_body = health->body;
  return l;
}

bool wait_until_ready(const ProxyAddress& address, int timeout_ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  while (std::chrono::steady_clock::now() < deadline) {
    auto r = http_get(address.host, address.port, "/health/ready", 500);
    if (r && r->status == 200) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

}  // namespace caveman::cli
