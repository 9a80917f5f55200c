// Per-session prompt-cache lifetimes (docs/proxy.md, "Cache lifetimes"): the session's
// pauses, its 5-minute / 1-hour choice and its keepalive schedule.
//
// The request path reports each request's start and end; the usage writer reports what the
// provider cached. After a session's last response, while its agent is alive (a `caveman
// wrap` lease: the wrapper's pid; or a native session that has not ended) and no request is
// in flight, a ping is due at last use + k·(TTL − margin) for k up to the planned count
// (lifetime.h: planned_pings, capped) — for the lease's latest session only (the subagents
// and side requests of an agent share its lease but are done once it moves on). A session stops
// pinging for good when its agent is gone, its bill guard tripped, a ping failed, or its pings cost
// more than the writes they avoided plus one lapse. The book only decides; KeepaliveRunner
// (keepalive.h) sends. Time comes from the injected clock (tests drive a manual one). Bounded
// (least recently used sessions are forgotten). Thread-safe.
#ifndef CAVEMAN_PROXY_LIFETIME_BOOK_H_
#define CAVEMAN_PROXY_LIFETIME_BOOK_H_

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "caveman/base/mutex.h"
#include "lifetime.h"
#include "prices.h"
#include "routes.h"
#include "upstream_connection.h"

namespace caveman::proxy {

struct KeepaliveOptions {
  bool enabled = true;  // keepalive.enabled
  bool oauth = false;   // keepalive.oauth: subscription/OAuth traffic too
  int max_pings = 12;   // keepalive.max_pings per pause (12 × 4.5 min ≈ 54 min)
};

// How the proxy knows a session's agent is alive.
struct AgentLease {
  int pid = 0;                 // `/w/<agent>/@<pid>/`: caveman wrap's pid (it waits for the agent)
  std::string native_session;  // a session marker; alive until its session.end
};

// The shape of one request, for the TTL choice (shares of the body's bytes).
struct RequestShape {
  double tail_share = 0;     // the last message
  double premium_share = 0;  // the message before it (written at 2× under 1-hour breakpoints)
  std::int64_t blocks = 0;   // content blocks of the messages (where cache entries can sit)
};

// How far back from a breakpoint the provider looks for a cached prefix, in content blocks
// (Anthropic: 20). An entry further back than that from every breakpoint is never read again.
inline constexpr std::int64_t kCacheLookbackBlocks = 20;

// What the request path hands over when a request ends: enough to send the same prefix again.
struct PingTemplate {
  UpstreamRequest request;  // as sent (body: the sent bytes; keepalive_body() makes the ping)
  Provider provider = Provider::kAnthropic;
  std::string model;
  std::string agent;
  std::string route_from;
  std::string endpoint;
  std::string auth_mode;
  std::string label;
  std::string runtime_mode;
  std::string session_id;          // native
  bool one_hour = false;           // the prefix was written with 1-hour breakpoints
  std::int64_t output_tokens = 1;  // the most a ping bills in output (thinking: budget + 1)
};

struct PingJob {
  std::uint64_t session = 0;
  std::shared_ptr<const PingTemplate> ping;
  int index = 0;  // 1-based within the pause
};

struct RequestStart {
  std::int64_t gap_ms = -1;  // since the session's last response; -1 = first request
  bool bridged = false;      // the gap outlived the TTL and pings kept the prefix
  bool lapsed = false;       // the session's cached prefix has expired (TTL + kLapseMarginMs
                             // since its last use; an hour once it wrote 1-hour entries): this
                             // request writes it whatever its bytes
};

// How long past its TTL a prefix must be idle before the proxy treats it as gone (a provider
// may keep entries a little longer; re-compaction then costs a re-write).
inline constexpr std::int64_t kLapseMarginMs = 60 * 1000;

class LifetimeBook {
 public:
  using Clock = std::function<std::int64_t()>;
  using Check = std::function<bool(std::uint64_t session)>;
  LifetimeBook(Clock clock, KeepaliveOptions options, std::size_t max_sessions = 1024);

  // Set before traffic: whether a pid is alive, and whether a session's bill guard tripped.
  void set_pid_alive(std::function<bool(int)> f) { pid_alive_ = std::move(f); }
  void set_guard_stopped(Check f) { guard_stopped_ = std::move(f); }
  const KeepaliveOptions& options() const { return options_; }

  // --- request path ---
  RequestStart on_request_start(std::uint64_t session, const RequestShape& shape);
  // The session just started a request under `lease` (the lease's latest session).
  void note_latest(std::uint64_t session, const AgentLease& lease);
  // The session's lifetime for this request (remembered: a switch needs kTtlHysteresis).
  CacheTtl ttl_for(std::uint64_t session, const std::optional<ModelPrice>& price);
  // `ping` null: nothing to keep alive (not a model call, failed, not allowed). `one_hour`:
  // the request was sent with 1-hour breakpoints.
  void on_request_end(std::uint64_t session, std::shared_ptr<const PingTemplate> ping,
                      AgentLease lease, bool one_hour = false);
  // What re-compaction would take off the session's prompt after a lapse (transform.h:
  // TransformOutcome::compactable_tokens), from its latest request.
  void note_compactable(std::uint64_t session, std::int64_t tokens);
  // --- usage writer ---
  void on_usage(std::uint64_t session, const UsageTokens& usage,
                const std::optional<ModelPrice>& price);
  // --- native hooks ---
  void on_native_session_end(const std::string& native_session);

  // --- the runner ---
  std::optional<std::int64_t> next_due() const;
  std::vector<PingJob> take_due();
  void on_ping_done(std::uint64_t session, bool ok, double usd);
  std::int64_t now() const { return clock_(); }

 private:
  struct State {
    PauseStats pauses;
    double tail_share = 0;
    double premium_share = 0;
    std::int64_t last_use = 0;        // start of the last request or ping
    std::int64_t last_end = -1;       // end of the last response
    bool one_hour = false;            // the last request's breakpoints had a 1-hour TTL
    // The message blocks of the last request with 1-hour breakpoints (-1: none that a request
    // can still read). Its entries stay warm for an hour after any read that reaches them, so
    // until an idle hour, or until the conversation has grown past the provider's lookback
    // from them, the prefix may be warm whatever the last request's TTL (re-compaction waits).
    std::int64_t hour_blocks = -1;
    std::int64_t blocks = 0;          // the latest request's
    CacheTtl chosen = CacheTtl::k5m;  // ttl_for's last answer
    int in_flight = 0;
    std::int64_t prefix_tokens = 0;
    std::int64_t compactable_tokens = 0;
    std::optional<ModelPrice> price;
    std::shared_ptr<const PingTemplate> ping;
    AgentLease lease;
    int planned = 0;
    int sent_this_pause = 0;
    bool pinging = false;  // a ping is in flight
    bool stopped = false;
    double spent_usd = 0;
    double avoided_usd = 0;
    std::list<std::uint64_t>::iterator lru;
  };
  State& touch(std::uint64_t session) REQUIRES(mu_);
  void replan(State& s) REQUIRES(mu_);
  std::optional<std::int64_t> due(std::uint64_t session, const State& s) const REQUIRES(mu_);
  bool alive(const State& s) const REQUIRES(mu_);
  std::int64_t ttl_ms(const State& s) const;
  GapCosts gap_costs(const State& s) const;
  GapCosts planning_costs(const State& s) const;  // gap_costs less the compaction credit

  Clock clock_;
  KeepaliveOptions options_;
  std::size_t max_sessions_;
  std::function<bool(int)> pid_alive_;
  Check guard_stopped_;
  mutable base::Mutex mu_;
  std::unordered_map<std::uint64_t, State> sessions_ GUARDED_BY(mu_);
  std::list<std::uint64_t> lru_ GUARDED_BY(mu_);
  std::unordered_map<std::string, bool> ended_ GUARDED_BY(mu_);  // native sessions that ended
  // Per lease ("pid:N" / "native:id"), the session that started a request last: only it is
  // kept warm (an agent's finished subagents and side requests share its lease).
  std::unordered_map<std::string, std::uint64_t> latest_ GUARDED_BY(mu_);
};

// The native session id a fingerprint stands for (optimizers.h: session_fingerprint).
std::uint64_t native_session_key(std::string_view native_session);

// The last request as a keepalive (tests/e2e/lib/billing.mjs keepaliveRequest): not streamed,
// `max_tokens` 1 (with extended thinking, its budget + 1; thinking unchanged). nullopt when
// the body is not a Messages object. `output_tokens`: the most it can bill.
std::optional<std::string> keepalive_body(std::string_view body, std::int64_t* output_tokens);

// Whether process `pid` exists and is not a zombie (Linux /proc; kill(pid, 0) elsewhere).
bool process_alive(int pid);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_LIFETIME_BOOK_H_
