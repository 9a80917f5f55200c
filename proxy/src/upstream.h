// The upstream HTTP client: sends one provider request and streams the answer back through
// callbacks, chunk by chunk, without touching the bytes (no Accept-Encoding of its own, no
// decompression, no URL re-encoding). The connections themselves (our own HTTP/1.1 client,
// plain or TLS) are in upstream_connection.h.
//
// Every exchange first passes the SSRF guard (the checked address is what gets dialed;
// through an outbound proxy, the CONNECT names the host and a name the local resolver does
// not know is left to the proxy).
// Transport failures before any response byte are retried: 3 attempts in total, 200 ms then
// 400 ms apart, never after cancellation. A pooled keep-alive connection that fails that way
// (the upstream closed it as idle) is replaced at once by a fresh one, once per exchange,
// without counting as an attempt. Connections are kept alive in a small per-origin
// pool. A CancelToken aborts an exchange from another thread, including one blocked on a
// silent upstream (the socket is shut down). Thread-safe: one UpstreamClient serves all
// requests. Failures: codes::kUpstreamBlocked, codes::kUpstreamUnavailable,
// codes::kUpstreamTimeout, codes::kUpstreamTls (certificate refused), codes::kUpstreamProxy
// (CONNECT refused), codes::kClientCancelled.
#ifndef CAVEMAN_PROXY_UPSTREAM_H_
#define CAVEMAN_PROXY_UPSTREAM_H_

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "caveman/base/mutex.h"
#include "caveman/status.h"
#include "config.h"
#include "ssrf.h"
#include "upstream_connection.h"

namespace caveman::proxy {

// Cancels an exchange from any thread; the exchange checks it between reads and the
// active connection is shut down so a blocked read returns at once.
class CancelToken {
 public:
  void cancel();
  bool cancelled() const { return cancelled_.load(); }

 private:
  friend class UpstreamClient;
  void attach(UpstreamConnection* connection);
  void detach();

  std::atomic<bool> cancelled_{false};
  base::Mutex mu_;
  UpstreamConnection* active_ GUARDED_BY(mu_) = nullptr;
};

struct ExchangeResult {
  Status status;             // ok when the whole response was relayed
  int attempts = 0;
  bool head_received = false;
};

class UpstreamClient {
 public:
  UpstreamClient(const Config& config, Resolver resolver = system_resolver());
  ~UpstreamClient();

  // on_head runs once per attempt that got a response head; returning false aborts.
  // on_data gets the body bytes as they arrive; returning false aborts.
  ExchangeResult exchange(const UpstreamRequest& request, const HeadFn& on_head,
                          const DataFn& on_data, CancelToken* cancel);

 private:
  // A pooled idle connection (*reused = true) or a new one.
  std::unique_ptr<UpstreamConnection> acquire(const std::string& key, const UpstreamRequest& request,
                                              const std::string& ip, bool via_proxy, bool* reused);
  void drop_idle(const std::string& key);
  void release(const std::string& key, std::unique_ptr<UpstreamConnection> connection);

  std::int64_t connect_timeout_ms_;
  std::int64_t timeout_ms_;
  std::vector<AllowEntry> allowlist_;
  std::optional<OutboundProxy> https_proxy_;
  NoProxy no_proxy_;
  Resolver resolver_;
  base::Mutex mu_;
  // Idle keep-alive connections by origin|ip, newest last.
  std::map<std::string, std::vector<std::pair<std::chrono::steady_clock::time_point,
                                              std::unique_ptr<UpstreamConnection>>>>
      idle_ GUARDED_BY(mu_);
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_UPSTREAM_H_
