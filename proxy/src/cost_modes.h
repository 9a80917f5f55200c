// The cost modes on the request path (docs/proxy.md, "Cost modes"): which of compression,
// the optimizers and the record-mode estimate run for one request, and the optimizers
// themselves applied to the body about to be sent.
//
//   record     the client's bytes; the estimate (would_save_*) is made off the request path
//   compress   compression (unless the guard stopped it for the session)
//   recommend  the client's bytes; the row lists which optimizers would apply + the estimate
//   shadow     optimizers run on a copy (their output is checked), the client's bytes are sent
//   canary     `active` for canary.percent of the sessions, `record` for the others
//   active     compression + the optimizers
// Optimizers never touch subscription/OAuth traffic and fail open (any problem → the body as
// it was). Pure functions apart from the SessionBook they consult.
#ifndef CAVEMAN_PROXY_COST_MODES_H_
#define CAVEMAN_PROXY_COST_MODES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "config.h"
#include "headers.h"
#include "lifetime.h"
#include "routes.h"
#include "session_book.h"

namespace caveman::proxy {

struct CostPlan {
  bool compress = false;       // compression may run
  bool reuse_only = false;     // the guard stopped it: only blocks compressed before are re-sent
  bool optimize = false;       // optimizer output is sent
  std::string preview;         // "recommend" / "shadow": computed, the original is sent
  bool estimate = false;       // the usage writer estimates would_save_*
  std::string runtime_mode;    // the row's runtime_mode ("canary/active", "canary/record", …)
  std::string guard_note;      // compression stopped for this session, and why
};

CostPlan plan_cost(const Config& config, bool bypass, std::uint64_t session, SessionBook& book);

struct OptimizerOutcome {
  std::string body;              // empty = unchanged
  std::vector<std::string> ids;  // optimizers that changed something, in order
};

// What the optimizers know beyond the body: the session's lifetime choice and what the
// model's price row offers.
struct OptimizerContext {
  std::uint64_t session = 0;
  CacheTtl ttl = CacheTtl::k5m;  // LifetimeBook::ttl_for (anthropic-cache-ttl)
  bool retention_24h = false;    // the model accepts prompt_cache_retention "24h"
};

// Runs the enabled optimizers that fit the route and auth on `body`.
OptimizerOutcome run_optimizers(const Config& config, const Route& route, AuthMode auth,
                                std::string_view body, const OptimizerContext& context);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_COST_MODES_H_
