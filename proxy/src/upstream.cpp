#include "upstream.h"

#include <httplib.h>

#include <thread>

namespace caveman::proxy {
namespace {

constexpr int kAttempts = 3;
constexpr int kBackoffMs[] = {200, 400};
constexpr std::size_t kMaxIdlePerKey = 64;
constexpr auto kMaxIdleAge = std::chrono::seconds(60);

void set_timeout(httplib::Client& c, void (httplib::Client::*setter)(time_t, time_t),
                 std::int64_t ms) {
  (c.*setter)(static_cast<time_t>(ms / 1000), static_cast<time_t>((ms % 1000) * 1000));
}

bool retryable(httplib::Error e) {
  switch (e) {
    case httplib::Error::Connection:
    case httplib::Error::ConnectionTimeout:
    case httplib::Error::SSLConnection:
    case httplib::Error::Read:
    case httplib::Error::Write:
    case httplib::Error::Unknown:
      return true;
    default:
      return false;
  }
}

// Sleeps `ms`, waking early when the exchange is cancelled.
void backoff(int ms, CancelToken* cancel) {
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  while (std::chrono::steady_clock::now() < until) {
    if (cancel != nullptr && cancel->cancelled()) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

void CancelToken::cancel() {
  cancelled_.store(true);
  std::lock_guard<std::mutex> lock(mu_);
  if (active_ != nullptr) active_->stop();
}

void CancelToken::attach(httplib::Client* client) {
  std::lock_guard<std::mutex> lock(mu_);
  active_ = client;
}

void CancelToken::detach() {
  std::lock_guard<std::mutex> lock(mu_);
  active_ = nullptr;
}

UpstreamClient::UpstreamClient(const Config& config, Resolver resolver)
    : connect_timeout_ms_(config.connect_timeout_ms),
      timeout_ms_(config.upstream_timeout_ms),
      allowlist_(parse_allowlist(config.ssrf_allowlist)),
      resolver_(std::move(resolver)) {}

UpstreamClient::~UpstreamClient() = default;

std::unique_ptr<httplib::Client> UpstreamClient::acquire(const std::string& key,
                                                         const UpstreamRequest& request,
                                                         const std::string& ip, bool* reused) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = idle_.find(key);
    auto now = std::chrono::steady_clock::now();
    while (it != idle_.end() && !it->second.empty()) {
      auto entry = std::move(it->second.back());
      it->second.pop_back();
      if (now - entry.first < kMaxIdleAge) {
        *reused = true;
        return std::move(entry.second);
      }
    }
  }
  *reused = false;
  auto client = std::make_unique<httplib::Client>(request.origin);
  // Dial the address the SSRF guard approved; Host and TLS SNI still name the host.
  client->set_hostname_addr_map({{request.host, ip}});
  client->set_keep_alive(true);
  client->set_decompress(false);   // relay encoded bytes as they are
  client->set_compress(false);
  client->set_url_encode(false);   // the raw path was validated and is forwarded as is
  client->set_follow_location(false);
  client->set_tcp_nodelay(true);
  set_timeout(*client, &httplib::Client::set_connection_timeout, connect_timeout_ms_);
  set_timeout(*client, &httplib::Client::set_read_timeout, timeout_ms_);
  set_timeout(*client, &httplib::Client::set_write_timeout, timeout_ms_);
  return client;
}

void UpstreamClient::drop_idle(const std::string& key) {
  decltype(idle_)::mapped_type gone;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = idle_.find(key);
    if (it != idle_.end()) gone.swap(it->second);
  }
  // `gone` closes them when it goes out of scope, outside the lock.
}

void UpstreamClient::release(const std::string& key, std::unique_ptr<httplib::Client> client) {
  std::lock_guard<std::mutex> lock(mu_);
  auto& idle = idle_[key];
  if (idle.size() >= kMaxIdlePerKey) return;  // the connection is closed by the destructor
  idle.emplace_back(std::chrono::steady_clock::now(), std::move(client));
}

ExchangeResult UpstreamClient::exchange(const UpstreamRequest& request,
                                        const std::function<bool(const UpstreamHead&)>& on_head,
                                        const std::function<bool(std::string_view)>& on_data,
                                        CancelToken* cancel) {
  ExchangeResult result;
  Result<std::string> ip = guard_upstream(request.host, request.port, allowlist_, resolver_);
  if (!ip.ok()) {
    result.status = ip.status();
    return result;
  }
  const std::string key = request.origin + "|" + *ip;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_);
  httplib::Error last = httplib::Error::Success;

  bool replaced_stale = false;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    if (cancel != nullptr && cancel->cancelled()) break;
    result.attempts = attempt;
    bool reused = false;
    std::unique_ptr<httplib::Client> client = acquire(key, request, *ip, &reused);
    if (cancel != nullptr) cancel->attach(client.get());

    httplib::Request req;
    req.method = "POST";
    req.path = request.path;
    for (const auto& [k, v] : request.headers) req.headers.emplace(k, v);
    if (request.body) req.body = *request.body;
    bool head_sent = false;
    bool aborted_by_caller = false;
    bool timed_out = false;
    auto deliver_head = [&](const httplib::Response& r) {
      UpstreamHead head;
      head.status = r.status;
      for (const auto& [k, v] : r.headers) head.headers.emplace_back(k, v);
      head.content_type = r.get_header_value("Content-Type");
      head.content_encoding = r.get_header_value("Content-Encoding");
      if (r.has_header("Content-Length") && !r.has_header("Transfer-Encoding")) {
        head.content_length = static_cast<std::size_t>(
            std::strtoull(r.get_header_value("Content-Length").c_str(), nullptr, 10));
      }
      head_sent = true;
      result.head_received = true;
      bool go = on_head(head);
      aborted_by_caller = aborted_by_caller || !go;
      return go;
    };
    req.response_handler = [&](const httplib::Response& r) {
      if (cancel != nullptr && cancel->cancelled()) return false;
      return deliver_head(r);
    };
    req.content_receiver = [&](const char* data, std::size_t n, std::uint64_t, std::uint64_t) {
      if (cancel != nullptr && cancel->cancelled()) return false;
      if (std::chrono::steady_clock::now() > deadline) {
        timed_out = true;
        return false;
      }
      bool go = on_data(std::string_view(data, n));
      aborted_by_caller = aborted_by_caller || !go;
      return go;
    };
    httplib::Response res;
    httplib::Error err = httplib::Error::Success;
    auto started = std::chrono::steady_clock::now();
    bool ok = client->send(req, res, err);
    // A read that waited out the whole timeout is a silent upstream, not a dropped
    // connection: it is not retried.
    if (!ok && err == httplib::Error::Read &&
        std::chrono::steady_clock::now() - started >= std::chrono::milliseconds(timeout_ms_ * 9 / 10)) {
      timed_out = true;
    }
    if (cancel != nullptr) cancel->detach();

    if (ok) {
      // 204/HEAD-style answers skip the response handler: report the head now.
      if (!head_sent && !deliver_head(res)) {
        result.status = Status::Unavailable("cave_client_cancelled", "response abandoned");
        return result;
      }
      if (cancel == nullptr || !cancel->cancelled()) release(key, std::move(client));
      result.status = Status::Ok();
      return result;
    }
    last = err;
    if (cancel != nullptr && cancel->cancelled()) {
      result.status = Status::Unavailable("cave_client_cancelled", "the client went away");
      return result;
    }
    if (timed_out) {
      result.status = Status::Unavailable("cave_upstream_timeout",
                                          "upstream exceeded the " + std::to_string(timeout_ms_) + " ms timeout");
      return result;
    }
    if (aborted_by_caller) {
      result.status = Status::Unavailable("cave_client_cancelled", "relay stopped reading");
      return result;
    }
    if (head_sent || !retryable(err)) break;  // bytes already relayed: never replay
    if (reused && !replaced_stale) {
      // The upstream closed an idle pooled connection as this request went out (its
      // keep-alive timeout): not an upstream failure. The pool's other idle connections
      // are as old, so they go too, and a fresh connection is tried at once, uncounted.
      replaced_stale = true;
      drop_idle(key);
      --attempt;
      continue;
    }
    if (attempt < kAttempts) backoff(kBackoffMs[attempt - 1], cancel);
  }
  if (cancel != nullptr && cancel->cancelled()) {
    result.status = Status::Unavailable("cave_client_cancelled", "the client went away");
    return result;
  }
  std::string what = httplib::to_string(last);
  if (result.head_received) {
    result.status = Status::Unavailable("cave_upstream_unavailable",
                                        "upstream connection broke mid-response (" + what + ")");
  } else {
    result.status = Status::Unavailable("cave_upstream_unavailable",
                                        "upstream request failed after " +
                                            std::to_string(result.attempts) + " attempt(s) (" + what + ")");
  }
  return result;
}

}  // namespace caveman::proxy
