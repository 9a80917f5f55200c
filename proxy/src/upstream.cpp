#include "upstream.h"

#include <thread>

#include "caveman/base/codes.h"

namespace caveman::proxy {
namespace {

constexpr int kAttempts = 3;
constexpr int kBackoffMs[] = {200, 400};
constexpr std::size_t kMaxIdlePerKey = 64;
constexpr auto kMaxIdleAge = std::chrono::seconds(60);

// Failures before any response byte that a new attempt may cure.
bool retryable(TransportError e) {
  return e == TransportError::kConnect || e == TransportError::kConnectTimeout ||
         e == TransportError::kWrite || e == TransportError::kRead;
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
  base::MutexLock lock(mu_);
  if (active_ != nullptr) active_->stop();
}

void CancelToken::attach(UpstreamConnection* connection) {
  base::MutexLock lock(mu_);
  active_ = connection;
}

void CancelToken::detach() {
  base::MutexLock lock(mu_);
  active_ = nullptr;
}

UpstreamClient::UpstreamClient(const Config& config, Resolver resolver)
    : connect_timeout_ms_(config.connect_timeout_ms),
      timeout_ms_(config.upstream_timeout_ms),
      allowlist_(parse_allowlist(config.ssrf_allowlist)),
      https_proxy_(config.https_proxy),
      no_proxy_(config.no_proxy),
      resolver_(std::move(resolver)) {}

UpstreamClient::~UpstreamClient() = default;

std::unique_ptr<UpstreamConnection> UpstreamClient::acquire(const std::string& key,
                                                            const UpstreamRequest& request,
                                                            const std::string& ip, bool via_proxy,
                                                            bool* reused) {
  {
    base::MutexLock lock(mu_);
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
  ConnectionOptions options;
  options.host = request.host;
  options.port = request.port;
  options.ip = ip;
  if (via_proxy) options.proxy = https_proxy_;
  options.connect_timeout_ms = connect_timeout_ms_;
  options.read_timeout_ms = timeout_ms_;
  options.write_timeout_ms = timeout_ms_;
  return make_upstream_connection(request.origin, options);
}

void UpstreamClient::drop_idle(const std::string& key) {
  decltype(idle_)::mapped_type gone;
  {
    base::MutexLock lock(mu_);
    auto it = idle_.find(key);
    if (it != idle_.end()) gone.swap(it->second);
  }
  // `gone` closes them when it goes out of scope, outside the lock.
}

void UpstreamClient::release(const std::string& key, std::unique_ptr<UpstreamConnection> connection) {
  base::MutexLock lock(mu_);
  auto& idle = idle_[key];
  if (idle.size() >= kMaxIdlePerKey) return;  // the connection is closed by the destructor
  idle.emplace_back(std::chrono::steady_clock::now(), std::move(connection));
}

ExchangeResult UpstreamClient::exchange(const UpstreamRequest& request, const HeadFn& on_head,
                                        const DataFn& on_data, CancelToken* cancel) {
  ExchangeResult result;
  const bool via_proxy = https_proxy_.has_value() && request.origin.rfind("https://", 0) == 0 &&
                         !no_proxy_.matches(request.host, request.port);
  Result<std::string> ip = guard_upstream(request.host, request.port, allowlist_, resolver_);
  if (!ip.ok()) {
    // Behind an outbound proxy the local resolver may know no public names: the proxy
    // resolves them. An address the guard refuses is refused either way.
    if (!via_proxy || ip.status().error_code() != codes::kUpstreamUnavailable) {
      result.status = ip.status();
      return result;
    }
    ip = std::string();
  }
  const std::string key = request.origin + "|" + *ip + (via_proxy ? "|proxy" : "");
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms_);
  std::string last_failure;
  TransportError last_error = TransportError::kNone;

  bool replaced_stale = false;
  for (int attempt = 1; attempt <= kAttempts; ++attempt) {
    if (cancel != nullptr && cancel->cancelled()) break;
    result.attempts = attempt;
    bool reused = false;
    std::unique_ptr<UpstreamConnection> connection = acquire(key, request, *ip, via_proxy, &reused);
    if (cancel != nullptr) cancel->attach(connection.get());

    bool head_sent = false;
    bool aborted_by_caller = false;
    bool timed_out = false;
    AttemptOutcome out = connection->send(
        request,
        [&](const UpstreamHead& head) {
          if (cancel != nullptr && cancel->cancelled()) return false;
          head_sent = true;
          result.head_received = true;
          bool go = on_head(head);
          aborted_by_caller = aborted_by_caller || !go;
          return go;
        },
        [&](std::string_view data) {
          if (cancel != nullptr && cancel->cancelled()) return false;
          if (std::chrono::steady_clock::now() > deadline) {
            timed_out = true;
            return false;
          }
          bool go = on_data(data);
          aborted_by_caller = aborted_by_caller || !go;
          return go;
        });
    if (cancel != nullptr) cancel->detach();

    if (out.ok()) {
      if (connection->reusable() && (cancel == nullptr || !cancel->cancelled())) {
        release(key, std::move(connection));
      }
      result.status = Status::Ok();
      return result;
    }
    last_failure = out.detail;
    last_error = out.error;
    if (cancel != nullptr && cancel->cancelled()) {
      result.status = Status::Unavailable(codes::kClientCancelled, "the client went away");
      return result;
    }
    if (timed_out || out.error == TransportError::kReadTimeout) {
      result.status = Status::Unavailable(
          codes::kUpstreamTimeout,
          "upstream exceeded the " + std::to_string(timeout_ms_) + " ms timeout");
      return result;
    }
    if (aborted_by_caller) {
      result.status = Status::Unavailable(codes::kClientCancelled, "relay stopped reading");
      return result;
    }
    if (head_sent || !retryable(out.error)) break;  // bytes already relayed: never replay
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
    result.status = Status::Unavailable(codes::kClientCancelled, "the client went away");
    return result;
  }
  const std::string& what = last_failure;
  if (last_error == TransportError::kProxyRefused) {
    result.status = Status::Unavailable(codes::kUpstreamProxy, what);
  } else if (last_error == TransportError::kTls) {
    result.status = Status::Unavailable(codes::kUpstreamTls,
                                        "the upstream's TLS certificate was refused (" + what +
                                            "); a private CA is trusted through SSL_CERT_FILE");
  } else if (result.head_received) {
    result.status = Status::Unavailable(codes::kUpstreamUnavailable,
                                        "upstream connection broke mid-response (" + what + ")");
  } else {
    result.status =
        Status::Unavailable(codes::kUpstreamUnavailable, "upstream request failed after " +
                                                             std::to_string(result.attempts) +
                                                             " attempt(s) (" + what + ")");
  }
  return result;
}

}  // namespace caveman::proxy
