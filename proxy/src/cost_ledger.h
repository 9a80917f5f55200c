// The usage writer's hook for the cost features (docs/proxy.md, "Cost modes"). Runs on the
// writer thread, never on the request path:
//  - the record-mode estimate: the engine compresses copies of the request's live blocks with
//    the same options as compress mode (nothing is stored) and the row gets
//    would_save_tokens and would_save_usd (at the model's input price; NULL when unpriced).
//    With more than kEstimateMaxBacklog rows waiting the estimate is skipped (NULL).
//  - the bill-protection guard: a compressed request's list-price cost is charged to its
//    session in the SessionBook against the record estimate of the same request (its prompt
//    scaled by raw/sent bytes; the part the session's previous request had cached, if the
//    provider cached it, at the cache-read rate, the rest at the write or input rate; nothing
//    cached after a lapse of the session's prompt cache, which the client's bytes would meet too).
//  - lifetimes: the prefix the provider cached goes to the LifetimeBook; a request pings kept
//    warm records the write they avoided (its cache read). Pings are not charged to the guard:
//    they have their own budget (lifetime_book.h), and a wasted one must not stop compression.
// Thread-safe as long as the engine and the book are.
#ifndef CAVEMAN_PROXY_COST_LEDGER_H_
#define CAVEMAN_PROXY_COST_LEDGER_H_

#include <cstdint>
#include <string_view>

#include "caveman/engine.h"
#include "config.h"
#include "lifetime_book.h"
#include "session_book.h"
#include "usage_store.h"

namespace caveman::proxy {

inline constexpr std::size_t kEstimateMaxBacklog = 64;

// Tokens compress mode would remove from the live zone of `body` (0 when nothing shrinks).
std::int64_t estimate_would_save(const Engine& engine, Endpoint api, std::string_view body,
                                 const Config& config);

class CostLedger {
 public:
  // None owned; `engine` may be null (no estimate), `lifetimes` null (no lifetimes).
  CostLedger(const Config* config, const Engine* engine, SessionBook* book,
             LifetimeBook* lifetimes = nullptr)
      : config_(config), engine_(engine), book_(book), lifetimes_(lifetimes) {}

  void enrich(UsageRow& row, const Usage& usage, std::size_t backlog) const;

 private:
  void estimate(UsageRow& row) const;
  void charge_guard(UsageRow& row, const Usage& usage) const;
  void note_lifetimes(UsageRow& row, const Usage& usage) const;

  const Config* config_;
  const Engine* engine_;
  SessionBook* book_;
  LifetimeBook* lifetimes_;
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_COST_LEDGER_H_
