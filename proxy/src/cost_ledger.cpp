#include "cost_ledger.h"

#include <algorithm>
#include <cmath>

#include "live_zone.h"
#include "prices.h"
#include "transform.h"

namespace caveman::proxy {

std::int64_t estimate_would_save(const Engine& engine, Endpoint api, std::string_view body,
                                 const Config& config) {
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  if (!doc) return 0;
  LiveZone zone = extract_live_zone(api, *doc, static_cast<std::size_t>(config.min_bytes));
  Options options = block_options(knobs_for_request(config.budget_tokens, config.min_saving_tokens,
                                                    body.size(), prompt_cached(api, body)),
                                  zone.query);
  std::int64_t saved = 0;
  for (const Candidate& c : zone.candidates) {
    if (!c.live) continue;  // compress mode only compresses live blocks anew
    CompressResult r = engine.compress(doc->node(c.node).text, options);
    if (!r.passed_through() && r.tokens_after < r.tokens_before) saved += r.tokens_before - r.tokens_after;
  }
  return saved;
}

void CostLedger::enrich(UsageRow& row, const Usage& usage, std::size_t backlog) const {
  if (row.estimate_wanted && engine_ != nullptr && row.raw_body && backlog <= kEstimateMaxBacklog) {
    estimate(row);
  }
  if (row.session_key != 0 && usage.input) note_lifetimes(row, usage);
  if (row.session_key != 0 && usage.input && row.kind.empty()) charge_guard(row, usage);
}

void CostLedger::note_lifetimes(UsageRow& row, const Usage& usage) const {
  std::string_view provider = provider_name(row.provider);
  UsageTokens u{usage.input.value_or(0), usage.output.value_or(0), usage.cache_read.value_or(0),
                usage.cache_write.value_or(0), usage.cache_write_1h.value_or(0)};
  if (row.kind == "keepalive") return;  // a ping: its own budget (LifetimeBook), not the guard's
  if (lifetimes_ != nullptr)
    lifetimes_->on_usage(row.session_key, u, find_price(provider, row.model));
  if (row.keepalive_bridged) row.keepalive_avoided_tokens = u.cache_read;
}

void CostLedger::estimate(UsageRow& row) const {
  std::int64_t saved = estimate_would_save(*engine_, row.api, *row.raw_body, *config_);
  row.would_save_tokens = saved;
  if (auto price = find_price(provider_name(row.provider), row.model)) {
    row.would_save_usd = static_cast<double>(saved) * price->input * 1e-6;
  }
}

void CostLedger::charge_guard(UsageRow& row, const Usage& usage) const {
  std::string_view provider = provider_name(row.provider);
  UsageTokens u{usage.input.value_or(0), usage.output.value_or(0), usage.cache_read.value_or(0),
                usage.cache_write.value_or(0), usage.cache_write_1h.value_or(0)};
  std::int64_t sent_prompt = provider == "anthropic" ? u.input + u.cache_read + u.cache_write : u.input;
  double scale = 1.0;
  if (row.raw_body && row.sent_body && !row.sent_body->empty()) {
    scale = static_cast<double>(row.raw_body->size()) / static_cast<double>(row.sent_body->size());
  }
  auto client_prompt = static_cast<std::int64_t>(std::llround(static_cast<double>(sent_prompt) * scale));
  bool caching = u.cache_read + u.cache_write > 0;
  // Only a prompt the provider cached can be read back by the next request: one too short to
  // cache (or without a breakpoint yet) leaves nothing, or the first write the breakpoint
  // planner causes would be charged to compression.
  std::int64_t previous = book_->swap_prompt_tokens(row.session_key, caching ? client_prompt : 0);
  if (!row.guard_charge) return;
  std::optional<ModelPrice> price = find_price(provider, row.model);
  if (!price) return;  // unpriced: the guard cannot weigh it
  // After a lapse the client's own bytes would have written the whole prompt too: the pause,
  // not compression, made this request dear.
  double cached =
      caching && !row.cache_lapsed ? static_cast<double>(std::min(previous, client_prompt)) : 0.0;
  double fresh = static_cast<double>(client_prompt) - cached;
  double fresh_rate = caching && price->cache_write_5m > 0 ? price->cache_write_5m : price->input;
  // The cache lifetime is its own lever (anthropic-cache-ttl, or the client's own ttl): the
  // client's bytes would have been written at the same 5-minute / 1-hour split, so the 1-hour
  // premium is not charged to compression (it was, and the guard stopped compression in every
  // long session where the lifetime choice took the hour).
  if (caching && u.cache_write_1h > 0 && u.cache_write > 0 && price->cache_write_1h > 0) {
    double hour_share =
        std::min(1.0, static_cast<double>(u.cache_write_1h) / static_cast<double>(u.cache_write));
    fresh_rate = (1.0 - hour_share) * fresh_rate + hour_share * price->cache_write_1h;
  }
  double record = (cached * price->cache_read + fresh * fresh_rate +
                   static_cast<double>(u.output) * price->output) * 1e-6;
  double actual = price_usage(provider, *price, u).total();
  if (std::optional<std::string> note = book_->charge(row.session_key, actual, record)) {
    row.guard_note = *note;
  }
}

}  // namespace caveman::proxy
