#include "http_transport.h"

#include <httplib.h>
#include <pthread.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "caveman/base/codes.h"
#include "caveman/base/mutex.h"
#include "caveman/base/net.h"
#include "http_headers.h"
#include "modern.h"

namespace caveman::mcp {
namespace {

constexpr const char* kJson = "application/json";
constexpr const char* kEventStream = "text/event-stream";

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

void reply_error(httplib::Response& res, int http_status, int code, std::string_view message) {
  res.status = http_status;
  res.set_content(dump(error_response(nullptr, code, message)), kJson);
}

void reply_error_object(httplib::Response& res, int http_status, const Json& id, Json error) {
  Json r = Json::object();
  r["jsonrpc"] = "2.0";
  r["id"] = id;
  r["error"] = std::move(error);
  res.status = http_status;
  res.set_content(dump(r), kJson);
}

// cpp-httplib compares header names case-insensitively, as RFC 9110 requires.
HeaderLookup lookup_in(const httplib::Request& req) {
  return [&req](std::string_view name) -> std::optional<std::string> {
    std::string key(name);
    if (!req.has_header(key)) return std::nullopt;
    return req.get_header_value(key);
  };
}

// Status of a modern reply (streamable-http "Protocol Version Header", "Server
// Validation"; basic/index "Per-request protocol fields"): unknown method 404, malformed,
// unsupported version and missing capability 400, results 200.
int modern_status(const Json& reply) {
  if (!reply.is_object() || !reply.contains("error")) return 200;
  int code = reply["error"].value("code", 0);
  if (code == kMethodNotFound) return 404;
  if (code == kInvalidParams || code == kInvalidRequest || code == kParseError ||
      code == kHeaderMismatch || code == kMissingRequiredClientCapability ||
      code == kUnsupportedProtocolVersion) {
    return 400;
  }
  return 200;
}

// A request that may be followed by request-scoped notifications (progress, or logging it
// asked for) is answered as a per-request SSE stream; everything else as one JSON object.
bool wants_stream(const httplib::Request& req, const Json& message) {
  std::string accept = req.get_header_value("Accept");
  if (accept.find(kEventStream) == std::string::npos) return false;
  auto it = message.find("params");
  if (it == message.end() || !it->is_object()) return false;
  const Json& params = *it;
  if (!params.contains("_meta") || !params["_meta"].is_object()) return false;
  const Json& meta = params["_meta"];
  return meta.contains("progressToken") || meta.contains(std::string(kMetaLogLevel));
}

// One 2026-07-28 POST: stateless, no session id minted or read.
void serve_modern_post(const httplib::Request& req, httplib::Response& res, const Json& message,
                       Session& stateless) {
  if (!message.is_object()) {
    return reply_error(res, 400, kInvalidRequest, "the body must be a single JSON-RPC request");
  }
  Json id = message.contains("id") ? message["id"] : Json(nullptr);
  if (std::optional<std::string> bad = check_request_headers(lookup_in(req), message)) {
    return reply_error_object(res, 400, id, Json{{"code", kHeaderMismatch}, {"message", *bad}});
  }
  // The header named 2026-07-28 but the body has no per-request fields: malformed, not legacy.
  const Json& params = message.contains("params") && message["params"].is_object() ? message["params"]
                                                                                   : Json::object();
  RequestMeta meta;
  if (!carries_request_meta(method_of(message), params)) {
    if (std::optional<Json> error = parse_request_meta(params, &meta)) {
      return reply_error_object(res, 400, id, std::move(*error));
    }
  }
  std::optional<Json> reply = stateless.handle(message);
  if (!reply) {
    res.status = 202;
    return;
  }
  res.status = modern_status(*reply);
  if (res.status == 200 && wants_stream(req, message)) {
    res.set_header("X-Accel-Buffering", "no");
    res.set_content("event: message\ndata: " + dump(*reply) + "\n\n", kEventStream);
    return;
  }
  res.set_content(dump(*reply), kJson);
}

class Sessions {
 public:
  std::shared_ptr<Session> find(const std::string& id) {
    base::MutexLock lock(mu_);
    auto it = by_id_.find(id);
    return it == by_id_.end() ? nullptr : it->second;
  }
  std::string add(std::shared_ptr<Session> s) {
    base::MutexLock lock(mu_);
    std::string id = random_session_id();
    by_id_[id] = std::move(s);
    return id;
  }
  bool erase(const std::string& id) {
    base::MutexLock lock(mu_);
    return by_id_.erase(id) > 0;
  }

 private:
  base::Mutex mu_;
  std::map<std::string, std::shared_ptr<Session>> by_id_ GUARDED_BY(mu_);
};

}  // namespace

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
  return base::is_loopback_host(host);
}

Status serve_http(const Server& server, const std::string& host, int port) {
  httplib::Server http;
  Sessions sessions;
  // Every 2026-07-28 request shares one stateless tool set (changelog "Major changes" 1:
  // list results no longer vary per connection).
  std::unique_ptr<Session> stateless = server.new_session();
  http.set_payload_max_length(server.options().max_line_bytes);

  auto origin_ok = [](const httplib::Request& req) {
    return !req.has_header("Origin") || is_loopback_origin(req.get_header_value("Origin"));
  };

  http.Post("/mcp", [&](const httplib::Request& req, httplib::Response& res) {
    if (!origin_ok(req)) return reply_error(res, 403, kInvalidRequest, codes::kForbiddenOrigin);
    Json message = Json::parse(req.body, nullptr, false);
    if (message.is_discarded()) return reply_error(res, 400, kParseError, "parse error");
    if (is_modern_post(lookup_in(req), message))
      return serve_modern_post(req, res, message, *stateless);
    if (req.has_header("MCP-Protocol-Version")) {
      std::string v = req.get_header_value("MCP-Protocol-Version");
      if (!is_supported_version(v)) {
        return reply_error_object(res, 400, nullptr, unsupported_version_error(v));
      }
    }
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
    if (!origin_ok(req)) return reply_error(res, 403, kInvalidRequest, codes::kForbiddenOrigin);
    res.status = 405;
    res.set_header("Allow", "POST, DELETE");
  });
  http.Delete("/mcp", [&](const httplib::Request& req, httplib::Response& res) {
    if (!origin_ok(req)) return reply_error(res, 403, kInvalidRequest, codes::kForbiddenOrigin);
    res.status = sessions.erase(req.get_header_value("Mcp-Session-Id")) ? 200 : 404;
  });

  int bound = port;
  if (port == 0) {
    bound = http.bind_to_any_port(host);
  } else if (!http.bind_to_port(host, port)) {
    bound = -1;
  }
  if (bound <= 0) {
    return Status::Unavailable(codes::kListenFailed,
                               "cannot listen on " + host + ":" + std::to_string(port));
  }
  spdlog::info("listening on http://{}:{}/mcp", host, bound);

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
