// Prompt-cache lifetimes (docs/economics.md, "Design note: lifetimes in the proxy"): the pause
// model, a session's observed pauses, the keepalive stopping rule and the 5-minute / 1-hour
// choice. Dollars throughout; the caller supplies the prefix size and the model's prices.
//
// A pause is the idle time between the end of a session's response and its next request,
// counted when at least kMinPauseMs (shorter gaps are the agent's own tool loop). Its
// survival P(pause > t) blends the session's pauses with the prior mixture of the
// benchmark's pause model (tests/e2e/lib/pauses.mjs), the prior weighing kPriorPauses pauses.
// Pure functions and plain values; thread-compatible.
#ifndef CAVEMAN_PROXY_LIFETIME_H_
#define CAVEMAN_PROXY_LIFETIME_H_

#include <cstdint>
#include <deque>

namespace caveman::proxy {

inline constexpr std::int64_t kFiveMinutesMs = 5LL * 60 * 1000;
inline constexpr std::int64_t kOneHourMs = 60LL * 60 * 1000;
inline constexpr std::int64_t kMinPauseMs = 10 * 1000;
// A ping goes this long before the entry would lapse (the lifetime probably counts from a
// request's start, and the ping itself takes time).
inline constexpr std::int64_t kKeepaliveMarginMs = 30 * 1000;
inline constexpr int kPriorPauses = 5;
inline constexpr double kPriorRequestsPerPause = 4.0;
inline constexpr std::size_t kMaxPausesKept = 64;

enum class CacheTtl { k5m, k1h };

// P(pause > ms) under the prior mixture (60% 10 s–2 min, 20% 2–10 min, 15% 10–60 min,
// 5% 1–3 h; log-uniform within each range).
double prior_pause_survival(std::int64_t ms);

class PauseStats {
 public:
  // One idle gap of the session (gaps below kMinPauseMs are not pauses).
  void add_gap(std::int64_t ms);
  void add_request() { ++requests_; }
  // Blended P(pause > ms).
  double survival(std::int64_t ms) const;
  // Requests per pause, blended with kPriorRequestsPerPause.
  double requests_per_pause() const;
  std::int64_t requests() const { return requests_; }
  int pauses() const { return static_cast<int>(pauses_.size()); }

 private:
  std::deque<std::int64_t> pauses_;  // newest last, at most kMaxPausesKept
  std::int64_t requests_ = 0;
  std::int64_t all_pauses_ = 0;
};

// Dollars of one ping (the prefix read plus its output) and of one lapse (the prefix written
// again instead of read).
struct GapCosts {
  double ping_usd = 0;
  double lapse_usd = 0;
};

// Time after the last use at which ping k (1-based) goes: k · (ttl − margin).
std::int64_t ping_offset_ms(int k, std::int64_t ttl_ms);

// The number of pings K in [0, cap] minimising the expected cost of one pause,
// Σ_{k≤K} S(t_k)·ping + S(t_K + ttl)·lapse. Because conditioning on "still idle at t_j"
// scales every later term alike, this K stays optimal as the pause goes on.
int planned_pings(const PauseStats& pauses, std::int64_t ttl_ms, const GapCosts& costs, int cap);

// That minimum, in dollars per pause.
double expected_pause_usd(const PauseStats& pauses, std::int64_t ttl_ms, const GapCosts& costs,
                          int cap);

// The requests a compaction at the next lapse is credited with: the stubbed tokens stay out of
// the prompt until the session ends or the prefix would have lapsed anyway. Neither is known;
// the session is expected to go on for as many requests as it has made so far (a session that
// has lasted long tends to last longer), and a prefix kept warm lapses after requests_per_pause
// / P(pause > 1 h) requests — at most kMaxCreditPauses pauses' worth.
inline constexpr double kMaxCreditPauses = 10.0;
double compaction_horizon_requests(const PauseStats& pauses);

// What a lapse is worth to re-compaction (docs/proxy.md, "Cache lifetimes"): the frozen tokens
// it would stub are not written again, and not read by the requests of the horizon. Subtracted
// from a lapse's cost when planning pings and lifetimes; never from the pings' own accounting.
double compaction_credit_usd(const PauseStats& pauses, double compactable_tokens, double read,
                             double write);

// What the TTL choice weighs, for one request of a session.
struct TtlInputs {
  double prefix_tokens = 0;   // the cached prefix (last request's cache read + write)
  double tail_tokens = 0;     // after the last 1-hour breakpoint (stays 5-minute)
  double premium_tokens = 0;  // written per request under 1-hour breakpoints
  double input = 0;           // USD per token
  double read = 0;
  double write_5m = 0;
  double write_1h = 0;
  double output = 0;
  int ping_cap = 0;  // 0: no keepalive
  double compactable_tokens = 0;  // what re-compaction would take off after a lapse
};

// A switch of lifetime must win by this share of the current lifetime's cost (a session near
// the boundary would otherwise flip on every pause; whether a provider keys its cache on the
// TTL too is undocumented).
inline constexpr double kTtlHysteresis = 0.10;

// 1 hour when its expected dollars per pause (lapses less their compaction credit, pings, the
// 2×-vs-1.25× premium on what each request writes) are lower than 5 minutes' — by
// kTtlHysteresis of the current lifetime's cost, either way; 5 minutes when anything is unknown.
CacheTtl choose_ttl(const PauseStats& pauses, const TtlInputs& in,
                    CacheTtl current = CacheTtl::k5m);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_LIFETIME_H_
