// The caveman-proxy HTTP server: binds the loopback listener, routes every request, runs
// the record / compress pipeline and relays the provider's answer (docs/proxy.md#request-path).
//
// ProxyRuntime holds what every request shares (config, engine, stores, upstream client,
// usage writer, metrics); the caller builds it and keeps it alive longer than the server.
// serve() blocks until begin_shutdown() (any thread): the listener closes at once, requests
// in flight get config.shutdown_grace_ms to finish, then their upstream exchanges are
// cancelled. Requests are served by a bounded worker pool (config.worker_threads,
// config.max_queued). Errors are Status values (codes::kListenFailed when the port is taken:
// the other process is never touched).
#ifndef CAVEMAN_PROXY_SERVER_H_
#define CAVEMAN_PROXY_SERVER_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "caveman/base/mutex.h"
#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "caveman/status.h"
#include "client_watch.h"
#include "config.h"
#include "cost_ledger.h"
#include "executors.h"
#include "http_message.h"
#include "idle_exit.h"
#include "keepalive.h"
#include "lifetime_book.h"
#include "metrics.h"
#include "prefix_cache.h"
#include "session_book.h"
#include "upstream.h"
#include "usage_store.h"

namespace httplib {
class Server;  // the listener set-up only; requests go through http_adapter.h
}  // namespace httplib

namespace caveman::proxy {

struct ProxyRuntime {
  Config config;
  EnvLookup env;
  std::shared_ptr<ccr::Store> store;          // null: compress mode degrades to record
  std::unique_ptr<Engine> engine;             // set whenever store is
  std::unique_ptr<PrefixCache> prefix_cache;  // set whenever store is
  // Declared before `usage`: the writer thread (stopped in usage's destructor) calls the ledger.
  std::unique_ptr<Engine> estimator;          // store-less engine for the record estimate
  SessionBook sessions;                       // cache-bust monitor, guard, canary
  std::unique_ptr<ManualClock> test_clock;    // CAVEMAN_TEST_CLOCK=manual; null: real time
  std::unique_ptr<LifetimeBook> lifetimes;    // pauses, TTL choice, keepalive schedule
  std::unique_ptr<CostLedger> ledger;         // the usage writer's hook
  std::unique_ptr<UsageWriter> usage;         // null: rows are not recorded
  std::unique_ptr<UpstreamClient> upstream;
  Metrics metrics;
  RelayExecutor relays;
  ClientWatch client_watch;  // cancels exchanges whose client hung up while waiting
  std::string session_key;  // native session-marker key; empty → markers are not stripped
  ActivityClock activity;   // provider requests, native events, keepalive (idle exit)
  bool keepalive_route = false;  // POST /caveman/keepalive → 204 (only with a native runtime)
  // Declared last: stopped first, while the upstream client and the usage writer still exist.
  std::unique_ptr<KeepaliveRunner> keepalive;

  // Headers the test clock adds to every upstream request (none on a real clock).
  HeaderList clock_headers() {
    if (!test_clock) return {};
    return {{"x-mock-idle-ms", std::to_string(test_clock->take_idle_ms())}};
  }

  // Compression can run at all (the mode may still decide per request: cost_modes.h).
  bool compress_enabled() const {
    const std::string& m = config.mode;
    return (m == "compress" || m == "active" || m == "canary") && store && engine && prefix_cache;
  }
};

struct Exchange;

class ProxyServer {
 public:
  explicit ProxyServer(ProxyRuntime* runtime);
  ~ProxyServer();
  ProxyServer(const ProxyServer&) = delete;
  ProxyServer& operator=(const ProxyServer&) = delete;

  // Binds config.listen_host:listen_port (port 0 = any free port).
  Status bind();
  int port() const { return port_; }
  // Serves until begin_shutdown() has drained; joins relay threads before returning.
  Status serve();
  // Idempotent; safe from any thread (the signal waiter calls it).
  void begin_shutdown();
  bool shutting_down() const { return shutting_down_.load(); }

 private:
  friend struct Exchange;
  void handle(ProxyRequest& req, ProxyResponse& res);
  void handle_provider(ProxyRequest& req, ProxyResponse& res);
  void handle_test_clock(ProxyRequest& req, ProxyResponse& res);
  void track(const std::shared_ptr<Exchange>& x);
  void untrack(std::uint64_t id);
  void cancel_all();

  ProxyRuntime* rt_;
  std::unique_ptr<httplib::Server> http_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> shutting_down_{false};
  std::atomic<bool> drained_{false};
  base::Mutex live_mu_;
  std::map<std::uint64_t, std::weak_ptr<Exchange>> live_ GUARDED_BY(live_mu_);
  std::uint64_t next_id_ GUARDED_BY(live_mu_) = 0;
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_SERVER_H_
