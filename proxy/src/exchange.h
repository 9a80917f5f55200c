// One proxied provider request, shared by the server worker that answers the client, the
// relay thread that talks to the provider (streams only: a request that does not ask for a
// stream is exchanged and buffered on the worker itself) and the response's completion
// callback.
//
// The worker runs the request path as stages, in this order (docs/proxy.md "Request
// path"): route → strip_markers → open_row → authenticate → inspect → decide_mode →
// transform → retrieve_loop → pixel → reply (which sends upstream). A stage that answers
// the client itself returns false (or kAnswered) and the path stops there.
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
#include <optional>
#include <string>
#include <vector>

#include "caveman/base/mutex.h"
#include "client_watch.h"
#include "cost_modes.h"
#include "headers.h"
#include "http_message.h"
#include "json_spans.h"
#include "live_zone.h"
#include "relay.h"
#include "retrieve_loop.h"
#include "routes.h"
#include "server.h"
#include "upstream.h"
#include "usage_store.h"

namespace caveman::proxy {

// What decide_mode() chose for this request (docs/spec/proxy.md#modes).
struct ModeDecision {
  bool bypass = false;           // x-caveman-bypass / pass-through transform header
  AuthMode auth = AuthMode::kUnknown;
  // The auth the cost features go by: pay-as-you-go also for a subscription agent's user
  // agent sending an API key (headers.h: api_key_credential).
  AuthMode cost_auth = AuthMode::kUnknown;
  bool marker_only = false;      // recovery via MCP: markers only, no injected tool
  bool server_retrieve = false;  // the proxy answers retrieve calls itself (buffered)
  bool eligible = false;         // compression runs
  CostPlan plan;
};

// How the retrieve-loop stage ended.
enum class LoopStage { kNotRun, kAnswered, kFellBack };

struct Exchange : std::enable_shared_from_this<Exchange> {
  // --- the request path (worker thread, before the answer starts) ---
  // A new exchange for `req`: ids, trace id, the client's peer and headers.
  static std::shared_ptr<Exchange> begin(ProxyRuntime* rt, ProxyServer* server, const ProxyRequest& req);
  void reply_shutting_down(ProxyResponse& res);
  bool route_request(const ProxyRequest& req, ProxyResponse& res);
  void strip_markers(std::string body);
  void open_row(const std::string& route_from);
  bool authenticate(ProxyResponse& res);
  void inspect();
  void decide_mode();
  void transform();
  LoopStage retrieve_loop(ProxyResponse& res);
  void pixel();
  void reply(ProxyResponse& res);

  // Pieces of the stages above, exposed for their tests.
  bool compress();
  void apply_cost_optimizers();
  CostPlan observe_cost();
  Result<BufferedResponse> send_buffered(std::shared_ptr<const std::string> body);
  void reply_error(const Status& status, ProxyResponse& res);
  void reply_failure(const Status& status, ProxyResponse& res);  // and records the row
  void reply_from_loop(const LoopOutcome& loop, ProxyResponse& res);
  void answer_buffered(ProxyResponse& res);
  void answer_relayed(ProxyResponse& res);

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

  HeaderList inbound;            // the client's headers
  MappedHeaders mapped;          // set by authenticate()
  std::string marker_session;    // the session a native marker named
  std::optional<JsonDoc> doc;    // nullopt: not JSON, forwarded untouched
  LiveZone facts;
  ModeDecision mode;
  std::string optimization;      // x-cave-optimization and the row's optimization_ids
  std::vector<std::string> handles;  // CCR handles the compression made
  HeaderList compression_headers;    // sent only when the provider took the transformed body
  bool lifetime_open = false;        // the LifetimeBook saw this request start
  bool cache_lapsed = false;         // the session's cached prefix expired (re-compaction)

  CancelToken cancel;
  ByteChannel channel;
  HeadLatch head;
  std::unique_ptr<UsageCapture> capture = std::make_unique<UsageCapture>();

  base::Mutex mu;
  // Two phases the analysis cannot express, so not GUARDED_BY: the stages fill the row on the
  // worker before any relay exists; once send() starts, it is touched only under mu.
  UsageRow row;
  Status relay_status GUARDED_BY(mu);
  std::string content_encoding GUARDED_BY(mu);
  bool client_ok GUARDED_BY(mu) = true;
  int status_code GUARDED_BY(mu) = 0;
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
