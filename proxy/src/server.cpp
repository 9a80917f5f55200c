#include "server.h"

#include <httplib.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <nlohmann/json.hpp>
#include <thread>

#include "caveman/base/codes.h"
#include "errors.h"
#include "exchange.h"
#include "http_adapter.h"

namespace caveman::proxy {
namespace {

constexpr const char* kJson = "application/json";

std::string health_json(const ProxyRuntime& rt, bool ok) {
  return std::string("{\"ok\":") + (ok ? "true" : "false") +
         ",\"service\":\"caveman-proxy\",\"schema\":\"caveman.proxy.health.v1\",\"billing\":\"byok\","
         "\"adapters\":" + std::to_string(3 + rt.config.compat.size()) + ",\"mode\":\"" +
         rt.config.mode + "\"}";
}

}  // namespace

ProxyServer::ProxyServer(ProxyRuntime* runtime) : rt_(runtime), http_(std::make_unique<httplib::Server>()) {
  const Config& c = rt_->config;
  http_->new_task_queue = [workers = c.worker_threads, queued = c.max_queued] {
    return new BoundedThreadPool(static_cast<std::size_t>(workers), static_cast<std::size_t>(queued));
  };
  // Only SO_REUSEADDR: httplib's default SO_REUSEPORT would let a second process bind the
  // same port and silently share (or steal) its traffic.
  http_->set_socket_options([this](socket_t sock) {
    int yes = 1;
    ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    listen_fd_ = sock;
  });
  http_->set_tcp_nodelay(true);
  http_->set_payload_max_length(static_cast<std::size_t>(c.max_request_bytes));
  http_->set_read_timeout(30, 0);
  http_->set_write_timeout(30, 0);
  http_->set_keep_alive_timeout(2);
  http_->set_keep_alive_max_count(100000);

  // The request path sees only the proxy's own types (http_adapter.h).
  auto handler = [this](const httplib::Request& req, httplib::Response& res) {
    ProxyRequest in = read_request(req);
    ProxyResponse out;
    handle(in, out);
    write_response(std::move(out), res);
  };
  http_->Get(".*", handler);
  http_->Post(".*", handler);
  http_->Put(".*", handler);
  http_->Patch(".*", handler);
  http_->Delete(".*", handler);
  http_->Options(".*", handler);

  // Errors httplib raises itself (body over the cap, malformed request line, unknown
  // method): answer with the proxy's envelope. Responses the handler built are left alone.
  http_->set_error_handler(httplib::Server::HandlerWithResponse(
      [](const httplib::Request& req, httplib::Response& res) {
    if (res.has_header("x-cave-request-id")) return httplib::Server::HandlerResponse::Unhandled;
    neutralize(req);
    std::string id = new_request_id();
    std::string_view code = res.status == 413   ? codes::kRequestTooLarge
                            : res.status == 404 ? codes::kRouteNotFound
                            : res.status == 400 ? codes::kBadRequest
                                                : codes::kGatewayError;
    std::string msg = res.status == 413 ? "request body is larger than CAVE_MAX_REQUEST_BYTES"
                                        : "request rejected";
    res.set_header("x-cave-request-id", id);
    res.set_content(error_envelope(res.status, code, msg, id, ""), kJson);
    return httplib::Server::HandlerResponse::Handled;
  }));
  http_->set_exception_handler([](const httplib::Request& req, httplib::Response& res,
                                  std::exception_ptr ep) {
    neutralize(req);
    std::string what = "unknown";
    try {
      if (ep) std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    spdlog::error("internal error: {}", what);
    std::string id = new_request_id();
    res.status = 500;
    res.set_header("x-cave-request-id", id);
    res.set_content(error_envelope(500, codes::kInternalError, what, id, ""), kJson);
  });
}

ProxyServer::~ProxyServer() = default;

Status ProxyServer::bind() {
  const Config& c = rt_->config;
  errno = 0;
  int bound = c.listen_port;
  if (c.listen_port == 0) {
    bound = http_->bind_to_any_port(c.listen_host);
  } else if (!http_->bind_to_port(c.listen_host, c.listen_port)) {
    bound = -1;
  }
  if (bound <= 0) {
    int err = errno;
    std::string where = c.listen_host + ":" + std::to_string(c.listen_port);
    if (err == EADDRINUSE) {
      return Status::Unavailable(
          codes::kListenFailed,
          where +
              " is already in use by another process; caveman-proxy does not stop, reuse "
              "or trust it. Stop that process or choose another address with CAVEMAN_LISTEN.");
    }
    return Status::Unavailable(
        codes::kListenFailed,
        "cannot listen on " + where + ": " + (err != 0 ? std::strerror(err) : "bind failed"));
  }
  port_ = bound;
  // httplib listens with a backlog of 5; a burst of connections should queue in the
  // kernel rather than be refused, so widen it on the already-listening socket.
  if (listen_fd_ >= 0) ::listen(listen_fd_, SOMAXCONN);
  return Status::Ok();
}

Status ProxyServer::serve() {
  http_->listen_after_bind();
  // listen_after_bind() returns once the listener is closed and every worker is done.
  rt_->relays.join_all();
  return Status::Ok();
}

void ProxyServer::begin_shutdown() {
  if (shutting_down_.exchange(true)) return;
  // Close the listener so accept() fails; workers keep serving what they already have.
  // (httplib's own stop() would also cut responses that are still streaming.)
  if (listen_fd_ >= 0) ::shutdown(listen_fd_, SHUT_RDWR);
  auto deadline = std::chrono::steady_clock::now() +
                  std::chrono::milliseconds(rt_->config.shutdown_grace_ms);
  while (rt_->metrics.inflight() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (rt_->metrics.inflight() > 0) {
    spdlog::warn("shutdown grace of {} ms over: cancelling {} request(s) in flight",
                 rt_->config.shutdown_grace_ms, rt_->metrics.inflight());
    cancel_all();
  }
  drained_.store(true);
}

void ProxyServer::track(const std::shared_ptr<Exchange>& x) {
  base::MutexLock lock(live_mu_);
  x->id = ++next_id_;
  live_[x->id] = x;
}

void ProxyServer::untrack(std::uint64_t id) {
  base::MutexLock lock(live_mu_);
  live_.erase(id);
}

void ProxyServer::cancel_all() {
  std::vector<std::shared_ptr<Exchange>> live;
  {
    base::MutexLock lock(live_mu_);
    for (auto& [id, weak] : live_) {
      if (auto x = weak.lock()) live.push_back(std::move(x));
    }
  }
  for (auto& x : live) {
    x->cancel.cancel();
    x->channel.close_reader();
  }
}

void ProxyServer::handle(ProxyRequest& req, ProxyResponse& res) {
  const std::string& path = req.path;
  if (req.method == "GET" && (path == "/health/live" || path == "/health/ready")) {
    bool ready = path == "/health/live" || !shutting_down_.load();
    res.status = ready ? 200 : 503;
    res.set_header("x-cave-request-id", new_request_id());
    res.set_content(health_json(*rt_, ready), kJson);
    return;
  }
  if (req.method == "GET" && path == "/metrics") {
    if (rt_->usage) rt_->metrics.usage_rows_dropped(rt_->usage->dropped());
    res.status = 200;
    res.set_header("x-cave-request-id", new_request_id());
    res.set_content(rt_->metrics.render(), "text/plain; version=0.0.4");
    return;
  }
  if (req.method == "POST" && path == "/caveman/keepalive" && rt_->keepalive_route) {
    rt_->activity.touch();
    res.status = 204;
    res.set_header("x-cave-request-id", new_request_id());
    return;
  }
  if (req.method == "POST" && path == "/caveman/test/clock" && rt_->test_clock) {
    return handle_test_clock(req, res);
  }
  rt_->activity.touch();
  handle_provider(req, res);
}

// CAVEMAN_TEST_CLOCK=manual only: {"advance_ms": N} moves the lifetime clock, sending the
// keepalive pings due on the way before it answers {"now_ms": …, "pings": …}.
void ProxyServer::handle_test_clock(ProxyRequest& req, ProxyResponse& res) {
  nlohmann::json body = nlohmann::json::parse(req.body, nullptr, /*allow_exceptions=*/false);
  std::int64_t ms = 0;
  if (body.is_object() && body.contains("advance_ms") && body["advance_ms"].is_number_integer()) {
    ms = body["advance_ms"].get<std::int64_t>();
  }
  if (rt_->usage) rt_->usage->flush();  // the book learns what was cached from the rows
  int pings = rt_->keepalive ? rt_->keepalive->advance(ms) : 0;
  if (rt_->usage) rt_->usage->flush();
  res.status = 200;
  res.set_header("x-cave-request-id", new_request_id());
  res.set_content(nlohmann::json{{"now_ms", rt_->test_clock->now()}, {"pings", pings}}.dump(),
                  kJson);
}

}  // namespace caveman::proxy
