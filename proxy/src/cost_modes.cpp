#include "cost_modes.h"

#include "json_spans.h"
#include "optimizers.h"

namespace caveman::proxy {

CostPlan plan_cost(const Config& config, bool bypass, std::uint64_t session, SessionBook& book) {
  CostPlan p;
  p.runtime_mode = config.mode;
  const std::string& mode = config.mode;
  if (bypass) return p;
  std::string effective = mode;
  if (mode == "canary") {
    effective = canary_selected(session, config.canary_percent) ? "active" : "record";
    p.runtime_mode = "canary/" + effective;
  }
  if (effective == "record") {
    p.estimate = config.observe_estimate;
  } else if (effective == "recommend" || effective == "shadow") {
    p.preview = effective;
    p.estimate = true;
  } else if (effective == "compress" || effective == "active") {
    p.compress = true;
    p.optimize = effective == "active";
  }
  if (p.compress) {
    if (std::optional<std::string> reason = book.stopped(session)) {
      // Nothing new is compressed, but the blocks compressed before keep their views (and the
      // retrieve tool stays): sending the originals again would rewrite the cached prefix.
      p.reuse_only = true;
      p.guard_note = *reason;
      p.estimate = true;  // what compression would still save
    }
  }
  return p;
}

OptimizerOutcome run_optimizers(const Config& config, const Route& route, AuthMode auth,
                                std::string_view body, const OptimizerContext& context) {
  OptimizerOutcome out;
  if (auth != AuthMode::kPayg) return out;  // subscription and OAuth traffic stays untouched
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  if (!doc) return out;
  std::vector<Splice> splices;
  if (route.provider == Provider::kAnthropic && route.endpoint == Endpoint::kMessages &&
      optimizer_enabled(config, kOptimizerAnthropicBreakpoints)) {
    bool one_hour =
        context.ttl == CacheTtl::k1h && optimizer_enabled(config, kOptimizerAnthropicTtl);
    BreakpointPlan plan = plan_breakpoints(body, *doc, one_hour ? CacheTtl::k1h : CacheTtl::k5m);
    if (plan.added > 0) out.ids.emplace_back(kOptimizerAnthropicBreakpoints);
    if (plan.one_hour > 0) out.ids.emplace_back(kOptimizerAnthropicTtl);
    for (Splice& s : plan.splices) splices.push_back(std::move(s));
  }
  if (route.provider == Provider::kOpenAI &&
      (route.endpoint == Endpoint::kChatCompletions || route.endpoint == Endpoint::kResponses) &&
      optimizer_enabled(config, kOptimizerOpenaiCacheKey)) {
    std::string key = prompt_cache_key_to_add(*doc, context.session);
    if (!key.empty()) {
      out.ids.emplace_back(kOptimizerOpenaiCacheKey);
      splices.push_back(prompt_cache_key_splice(*doc, key));
    }
  }
  if (route.provider == Provider::kOpenAI &&
      (route.endpoint == Endpoint::kChatCompletions || route.endpoint == Endpoint::kResponses) &&
      optimizer_enabled(config, kOptimizerOpenaiRetention) &&
      wants_retention_24h(*doc, context.retention_24h)) {
    out.ids.emplace_back(kOptimizerOpenaiRetention);
    splices.push_back(retention_24h_splice(*doc));
  }
  if (splices.empty()) return out;
  std::string rewritten = apply_splices(body, std::move(splices));
  if (!JsonDoc::parse(rewritten)) return OptimizerOutcome{};  // fail open
  out.body = std::move(rewritten);
  return out;
}

}  // namespace caveman::proxy
