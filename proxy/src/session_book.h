// Per-session memory of the cost features (docs/proxy.md, "Cost modes"): the cache-bust
// monitor, the bill-protection guard and canary selection.
//
// A session is a fingerprint (optimizers.h: session_fingerprint). The monitor compares a
// request's frozen-prefix components with the session's previous request and names the first
// one that changed — tools, system, an earlier message, or a history cut short — observe
// only. The guard adds up, per session, what compressed requests cost (provider usage at list
// price) and what the same requests would have cost as the client sent them (the record
// estimate); once the compressed ones cost more over at least kGuardMinRequests, compression
// stops for that session and stays stopped. Bounded (least recently used sessions are
// forgotten). Thread-safe.
#ifndef CAVEMAN_PROXY_SESSION_BOOK_H_
#define CAVEMAN_PROXY_SESSION_BOOK_H_

#include <cstdint>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>

#include "caveman/base/mutex.h"
#include "optimizers.h"

namespace caveman::proxy {

inline constexpr int kGuardMinRequests = 3;

struct BustReport {
  bool bust = false;
  std::string component;  // "tools", "system", "message:<i>", "history_truncated"
};

// Deterministic canary selection: the same session is always in or out.
bool canary_selected(std::uint64_t session, int percent);

class SessionBook {
 public:
  explicit SessionBook(std::size_t max_sessions = 4096) : max_sessions_(max_sessions) {}

  // Compares with the session's previous request, then remembers this one.
  BustReport observe(std::uint64_t session, PrefixComponents components);

  // The guard's reason when compression is stopped for the session, else nullopt.
  std::optional<std::string> stopped(std::uint64_t session);

  // One compressed request's dollars, actual and as sent by the client (record estimate).
  // Returns the reason when this request made the guard stop compression.
  std::optional<std::string> charge(std::uint64_t session, double actual_usd, double record_usd);

  // The client-side prompt size of the session's previous request (0 = none), then sets it.
  std::int64_t swap_prompt_tokens(std::uint64_t session, std::int64_t tokens);

 private:
  struct State {
    PrefixComponents last;
    bool seen = false;
    std::int64_t prompt_tokens = 0;
    double actual_usd = 0;
    double record_usd = 0;
    int charged = 0;
    std::string stop_reason;
    std::list<std::uint64_t>::iterator lru;
  };
  State& touch(std::uint64_t session) REQUIRES(mu_);

  std::size_t max_sessions_;
  base::Mutex mu_;
  std::unordered_map<std::uint64_t, State> sessions_ GUARDED_BY(mu_);
  std::list<std::uint64_t> lru_ GUARDED_BY(mu_);  // front = newest
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_SESSION_BOOK_H_
