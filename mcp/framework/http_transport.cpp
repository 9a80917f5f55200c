#include "http_transport.h"

#include <httplib.h>
#include <pthread.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

namespace caveman::mcp {
namespace {

constexpr const char* kJson = "application/json";

std::string random_session_id() {
  unsigned char bytes[16] = {};
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  urandom.read(reinterpret_cast<char*>(bytes), sizeof bytes);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string id;
  for (unsigned char b : bytes) {
    id.push_back(kHex[b >> 4]);
    id.push_back(kHex[b & 0xF]);
  }
  return id;
}

bool is_loopback_host(std::string_view host) {
  return host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]";
}

void reply_error(httplib::Response& res, int http_status, int code, std::string_view message) {
  res.status = http_status;
  res.set_content(dump(error_response(nullptr, code, message)), kJson);
}

class Sessions {
 public:
  std::shared_ptr<Session> find(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : it->second;
  }
  std::string add(std::shared_ptr<Session> s) {
    std::lock_guard<std::mutex> lock(mu_);
    std::string id = random_session_id();
    by_id_[id] = std::move(s);
    return id;
  }
  bool erase(const std::string& id) {
    std::lock_guard<std::mutex> lock(mu_);
    return by_id_.erase(id) > 0;
  }

 private:
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Session>> by_id_;
};

}  // namespace

Status parse_loopback_listen(std::string_view listen, std::string* host, int* port) {
  std::size_t colon = listen.rfind(':');
  if (colon == std::string_view::npos || colon + 1 >= listen.size()) {
    return Status::InvalidArgument("cave_invalid_arguments",
                                   "listen address must be HOST:PORT, got \"" + std::string(listen) + "\"");
  }
  std::string h(listen.substr(0, colon));
  if (h.size() >= 2 && h.front() == '[' && h.back() == ']') h = h.substr(1, h.size() - 2);
  int p = 0;
  for (char c : listen.substr(colon + 1)) {
    if (c < '0' || c > '9' || p > 65535) {
      return Status::InvalidArgument("cave_invalid_arguments", "bad port in \"" + std::string(listen) + "\"");
    }
    p = p * 10 + (c - '0');
  }
  if (p > 65535) return Status::InvalidArgument("cave_invalid_arguments", "port out of range");
  if (!is_loopback_host(h)) {
    return Status::InvalidArgument("cave_listen_not_loopback",
                                   "refusing to listen on non-loopback address \"" + h + "\"");
  }
  *host = h == "localhost" ? "127.0.0.1" : h;
  *port = p;
  return Status::Ok();
}

bool is_loopback_origin(std::string_view origin) {
  std::size_t scheme = origin.find("://");
  if (scheme == std::string_view::npos) return false;
  std::string_view s = origin.substr(0, scheme);
  if (s != "http" && s != "https") return false;
  std::string_view rest = origin.substr(scheme + 3);
  std::string_view host;
  if (!rest.empty() && rest[0] == '[') {
    std::size_t close = rest.find(']');
    if (close == std::string_view::npos) return false;
    host = rest.substr(0, close + 1);
    rest = rest.substr(close + 1);
  } else {
    std::size_t colon = rest.find(':');
    host = rest.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon);
  }
  if (!rest.empty() && rest[0] != ':') return false;
  return is_loopback_host(host);
}

Status serve_http(const Server& server, const std::string& host, int port) {
  httplib::Server http;
  Sessions sessions;
  http.set_payload_max_length(server.options().max_line_bytes);

  auto origin_ok = [](const httplib::Request& req) {
    return !req.has_header("Origin") || is_loopback_origin(req.get_header_value("Origin"));
  };

  http.Post("/mcp", [&](const httplib::Request& req, httplib::Response& res) {
    if (!origin_ok(req)) return reply_error(res, 403, kInvalidRequest, "cave_forbidden_origin");
    if (req.has_header("MCP-Protocol-Version")) {
      std::string v = req.get_header_value("MCP-Protocol-Version");
      bool known = false;
      for (std::string_view k : kProtocolVersions) known = known || k == v;
      if (!known) return reply_error(res, 400, kInvalidRequest, "unsupported MCP-Protocol-Version " + v);
    }
    Json message = Json::parse(req.body, nullptr, false);
    if (message.is_discarded()) return reply_error(res, 400, kParseError, "parse error");
    std::shared_ptr<Session> session;
    bool is_initialize = message.is_object() && message.value("method", Json()) == "initialize";
    if (is_initialize) {
      session = server.new_session();
      res.set_header("Mcp-Session-Id", sessions.add(session));
    } else {
      std::string id = req.get_header_value("Mcp-Session-Id");
      if (id.empty()) return reply_error(res, 400, kInvalidRequest, "missing Mcp-Session-Id");
      session = sessions.find(id);
      if (!session) return reply_error(res, 404, kInvalidRequest, "unknown session");
    }
    std::optional<Json> reply = session->handle(message);
    if (!reply) {
      res.status = 202;
      return;
    }
    res.status = 200;
    res.set_content(dump(*reply), kJson);
  });
  http.Get("/mcp", [&](const httplib::Request& req, httplib::Response& res) {
    if (!origin_ok(req)) return reply_error(res, 403, kInvalidRequest, "cave_forbidden_origin");
    res.status = 405;
    res.set_header("Allow", "POST, DELETE");
  });
  http.Delete("/mcp", [&](const httplib::Request& req, httplib::Response& res) {
    if (!origin_ok(req)) return reply_error(res, 403, kInvalidRequest, "cave_forbidden_origin");
    res.status = sessions.erase(req.get_header_value("Mcp-Session-Id")) ? 200 : 404;
  });

  int bound = port;
  if (port == 0) {
    bound = http.bind_to_any_port(host);
  } else if (!http.bind_to_port(host, port)) {
    bound = -1;
  }
  if (bound <= 0) {
    return Status::Unavailable("cave_listen_failed",
                               "cannot listen on " + host + ":" + std::to_string(port));
  }
  std::fprintf(stderr, "listening on http://%s:%d/mcp\n", host.c_str(), bound);

  // Stop on SIGINT/SIGTERM: block them here and wait in a helper thread.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&set, &sig);
    http.stop();
  });
  http.listen_after_bind();
  if (waiter.joinable()) {
    pthread_kill(waiter.native_handle(), SIGTERM);  // wake the waiter if listen ended first
    waiter.join();
  }
  return Status::Ok();
}

}  // namespace caveman::mcp
