// One proxied provider request, shared by the server worker that answers the client, the
// relay thread that talks to the provider (streams only: a request that does not ask for a
// stream is exchanged and buffered on the worker itself) and the response's completion
// callback.
//
// Two parties finish an exchange — the client side (response written or abandoned) and
// the upstream side (relay ended) — and whichever finishes last records the usage row and
// the metrics, exactly once. Internal to the proxy library.
#ifndef CAVEMAN_PROXY_EXCHANGE_H_
#define CAVEMAN_PROXY_EXCHANGE_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "client_watch.h"
#include "relay.h"
#include "routes.h"
#include "server.h"
#include "upstream.h"
#include "usage_store.h"

namespace caveman::proxy {

struct Exchange {
  ProxyRuntime* rt = nullptr;
  ProxyServer* server = nullptr;
  std::uint64_t id = 0;
  std::chrono::steady_clock::time_point start;
  std::string request_id;
  std::string trace_id;
  Route route;
  ClientPeer client;  // the client's connection, for ClientWatch
  UpstreamRequest upstream;  // body = what is sent (transformed or raw)
  std::shared_ptr<const std::string> raw_body;
  bool transformed = false;

  CancelToken cancel;
  ByteChannel channel;
  HeadLatch head;
  std::unique_ptr<UsageCapture> capture = std::make_unique<UsageCapture>();

  std::mutex mu;
  UsageRow row;             // guarded by mu until finished
  Status relay_status;      // guarded by mu
  std::string content_encoding;  // guarded by mu
  bool client_ok = true;    // guarded by mu
  int status_code = 0;      // guarded by mu
  std::atomic<std::int64_t> bytes_written{0};
  std::atomic<std::int64_t> ttfb_ms{-1};
  std::atomic<int> parties{2};

  std::int64_t elapsed_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now() - start)
        .count();
  }
  void note_write(std::size_t n) {
    if (bytes_written.fetch_add(static_cast<std::int64_t>(n)) == 0) {
      std::int64_t expected = -1;
      ttfb_ms.compare_exchange_strong(expected, elapsed_ms());
    }
  }
  // Called once by each party; the last one records the row.
  void party_done();
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_EXCHANGE_H_
