#include "lifetime.h"

#include <algorithm>
#include <cmath>

namespace caveman::proxy {
namespace {

struct Range {
  double weight;
  double lo_ms;
  double hi_ms;
};

// tests/e2e/lib/pauses.mjs: the same mixture, so the proxy's prior is the benchmark's model.
constexpr Range kPrior[] = {
    {0.60, 10e3, 120e3},
    {0.20, 120e3, 600e3},
    {0.15, 600e3, 3600e3},
    {0.05, 3600e3, 10800e3},
};

double log_uniform_survival(const Range& r, double t) {
  if (t < r.lo_ms) return 1.0;
  if (t >= r.hi_ms) return 0.0;
  return std::log(r.hi_ms / t) / std::log(r.hi_ms / r.lo_ms);
}

// Expected cost of one pause with exactly k pings.
double pause_cost(const PauseStats& p, std::int64_t ttl_ms, const GapCosts& c, int k) {
  double cost = 0;
  for (int i = 1; i <= k; ++i) cost += p.survival(ping_offset_ms(i, ttl_ms)) * c.ping_usd;
  return cost + p.survival(ping_offset_ms(k, ttl_ms) + ttl_ms) * c.lapse_usd;
}

}  // namespace

double prior_pause_survival(std::int64_t ms) {
  double s = 0;
  for (const Range& r : kPrior) s += r.weight * log_uniform_survival(r, static_cast<double>(ms));
  return s;
}

void PauseStats::add_gap(std::int64_t ms) {
  if (ms < kMinPauseMs) return;
  ++all_pauses_;
  pauses_.push_back(ms);
  if (pauses_.size() > kMaxPausesKept) pauses_.pop_front();
}

double PauseStats::survival(std::int64_t ms) const {
  auto longer =
      std::count_if(pauses_.begin(), pauses_.end(), [ms](std::int64_t g) { return g > ms; });
  return (static_cast<double>(longer) + kPriorPauses * prior_pause_survival(ms)) /
         (static_cast<double>(pauses_.size()) + kPriorPauses);
}

double PauseStats::requests_per_pause() const {
  return (static_cast<double>(requests_) + kPriorPauses * kPriorRequestsPerPause) /
         (static_cast<double>(all_pauses_) + kPriorPauses);
}

std::int64_t ping_offset_ms(int k, std::int64_t ttl_ms) {
  return static_cast<std::int64_t>(k) * (ttl_ms - kKeepaliveMarginMs);
}

int planned_pings(const PauseStats& pauses, std::int64_t ttl_ms, const GapCosts& costs, int cap) {
  int best = 0;
  double best_cost = pause_cost(pauses, ttl_ms, costs, 0);
  for (int k = 1; k <= cap; ++k) {
    double c = pause_cost(pauses, ttl_ms, costs, k);
    if (c < best_cost) {
      best = k;
      best_cost = c;
    }
  }
  return best;
}

double expected_pause_usd(const PauseStats& pauses, std::int64_t ttl_ms, const GapCosts& costs,
                          int cap) {
  return pause_cost(pauses, ttl_ms, costs, planned_pings(pauses, ttl_ms, costs, cap));
}

double compaction_horizon_requests(const PauseStats& pauses) {
  double lapses = std::max(pauses.survival(kOneHourMs), 1.0 / kMaxCreditPauses);
  return std::min(static_cast<double>(pauses.requests()), pauses.requests_per_pause() / lapses);
}

double compaction_credit_usd(const PauseStats& pauses, double compactable_tokens, double read,
                             double write) {
  if (compactable_tokens <= 0) return 0;
  return compactable_tokens * (write + read * compaction_horizon_requests(pauses));
}

CacheTtl choose_ttl(const PauseStats& pauses, const TtlInputs& in, CacheTtl current) {
  if (in.prefix_tokens <= 0 || in.write_1h <= 0 || in.write_5m <= 0) return CacheTtl::k5m;
  double p = in.prefix_tokens;
  double tail = std::clamp(in.tail_tokens, 0.0, p);
  double compactable = std::clamp(in.compactable_tokens, 0.0, p);
  GapCosts five{p * in.read + in.output,
                p * (in.write_5m - in.read) -
                    compaction_credit_usd(pauses, compactable, in.read, in.write_5m)};
  double cost_5m = expected_pause_usd(pauses, kFiveMinutesMs, five, in.ping_cap);
  // Under 1 hour the tail keeps 5 minutes: past 5 minutes it is written again; past the hour
  // (and its pings) the head is written again at the 1-hour rate too.
  // A ping past 5 minutes writes the tail again.
  GapCosts hour{(p - tail) * in.read + tail * in.write_5m + in.output,
                (p - tail) * (in.write_1h - in.read) -
                    compaction_credit_usd(pauses, compactable, in.read, in.write_1h)};
  double tail_lapse = pauses.survival(kFiveMinutesMs) * tail * (in.write_5m - in.read);
  double premium = pauses.requests_per_pause() * in.premium_tokens * (in.write_1h - in.write_5m);
  double cost_1h = expected_pause_usd(pauses, kOneHourMs, hour, in.ping_cap) + tail_lapse + premium;
  // A credit can make a cost negative: the margin is a share of its size.
  if (current == CacheTtl::k1h)
    return cost_5m < cost_1h - kTtlHysteresis * std::abs(cost_1h) ? CacheTtl::k5m : CacheTtl::k1h;
  return cost_1h < cost_5m - kTtlHysteresis * std::abs(cost_5m) ? CacheTtl::k1h : CacheTtl::k5m;
}

}  // namespace caveman::proxy
