#include "lifetime_book.h"

#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "json_spans.h"
#include "lru.h"
#include "optimizers.h"

namespace caveman::proxy {
namespace {

// Shares of a request's shape are smoothed over the session's requests.
constexpr double kShapeWeight = 0.3;

std::string lease_key(const AgentLease& lease) {
  if (lease.pid > 0) return "pid:" + std::to_string(lease.pid);
  if (!lease.native_session.empty()) return "native:" + lease.native_session;
  return {};
}

// USD per million tokens written at the prefix's lifetime.
double write_price(const ModelPrice& price, bool one_hour) {
  return one_hour && price.cache_write_1h > 0 ? price.cache_write_1h : price.cache_write_5m;
}

}  // namespace

std::uint64_t native_session_key(std::string_view native_session) {
  return fnv1a(native_session, fnv1a("native"));
}

LifetimeBook::LifetimeBook(Clock clock, KeepaliveOptions options, std::size_t max_sessions)
    : clock_(std::move(clock)),
      options_(options),
      max_sessions_(max_sessions),
      pid_alive_(process_alive) {}

LifetimeBook::State& LifetimeBook::touch(std::uint64_t session) {
  return touch_lru(sessions_, lru_, session, max_sessions_);
}

RequestStart LifetimeBook::on_request_start(std::uint64_t session, const RequestShape& shape) {
  base::MutexLock lock(mu_);
  State& s = touch(session);
  std::int64_t now = clock_();
  RequestStart r;
  if (s.last_end >= 0 && s.in_flight == 0) {
    r.gap_ms = now - s.last_end;
    s.pauses.add_gap(r.gap_ms);
    // The entry would have lapsed without the pings of this pause: a write avoided.
    r.bridged = s.sent_this_pause > 0 && r.gap_ms >= ttl_ms(s) && now - s.last_use < ttl_ms(s);
    if (r.bridged) s.avoided_usd += gap_costs(s).lapse_usd;
    std::int64_t idle = now - s.last_use;
    if (idle >= kOneHourMs + kLapseMarginMs || shape.blocks > s.hour_blocks + kCacheLookbackBlocks)
      s.hour_blocks = -1;
    r.lapsed = idle >= (s.hour_blocks >= 0 ? kOneHourMs : ttl_ms(s)) + kLapseMarginMs;
  }
  s.blocks = shape.blocks;
  s.pauses.add_request();
  bool first = s.tail_share == 0 && s.premium_share == 0;
  s.tail_share =
      first ? shape.tail_share : s.tail_share + kShapeWeight * (shape.tail_share - s.tail_share);
  s.premium_share = first
                        ? shape.premium_share
                        : s.premium_share + kShapeWeight * (shape.premium_share - s.premium_share);
  ++s.in_flight;
  s.last_use = now;
  s.sent_this_pause = 0;
  return r;
}

CacheTtl LifetimeBook::ttl_for(std::uint64_t session, const std::optional<ModelPrice>& price) {
  base::MutexLock lock(mu_);
  auto it = sessions_.find(session);
  if (it == sessions_.end() || !price) return CacheTtl::k5m;
  State& s = it->second;
  auto p = static_cast<double>(s.prefix_tokens);
  constexpr double kPerToken = 1e-6;
  TtlInputs in{p,
               s.tail_share * p,
               s.premium_share * p,
               price->input * kPerToken,
               price->cache_read * kPerToken,
               price->cache_write_5m * kPerToken,
               price->cache_write_1h * kPerToken,
               price->output * kPerToken,
               options_.enabled && s.ping && !s.stopped ? options_.max_pings : 0,
               static_cast<double>(s.compactable_tokens)};
  s.chosen = choose_ttl(s.pauses, in, s.chosen);
  return s.chosen;
}

void LifetimeBook::on_request_end(std::uint64_t session, std::shared_ptr<const PingTemplate> ping,
                                  AgentLease lease, bool one_hour) {
  base::MutexLock lock(mu_);
  State& s = touch(session);
  s.in_flight = std::max(0, s.in_flight - 1);
  s.last_end = clock_();
  s.one_hour = one_hour;
  if (one_hour) s.hour_blocks = s.blocks;
  if (ping) {
    s.ping = std::move(ping);
    s.lease = std::move(lease);
  }
  replan(s);
}

void LifetimeBook::note_latest(std::uint64_t session, const AgentLease& lease) {
  base::MutexLock lock(mu_);
  std::string key = lease_key(lease);
  if (key.empty()) return;
  if (latest_.size() >= max_sessions_ && latest_.count(key) == 0) latest_.clear();  // bounded
  std::uint64_t& latest = latest_[key];
  if (latest != session) {
    // The lease's previous session is never pinged again: its request bytes leave memory, so
    // the book holds at most one body per live agent.
    if (auto old = sessions_.find(latest); old != sessions_.end()) old->second.ping.reset();
    latest = session;
  }
}

void LifetimeBook::on_usage(std::uint64_t session, const UsageTokens& usage,
                            const std::optional<ModelPrice>& price) {
  base::MutexLock lock(mu_);
  auto it = sessions_.find(session);
  if (it == sessions_.end()) return;
  State& s = it->second;
  s.prefix_tokens = usage.cache_read + usage.cache_write;
  s.price = price;
  replan(s);
}

void LifetimeBook::note_compactable(std::uint64_t session, std::int64_t tokens) {
  base::MutexLock lock(mu_);
  auto it = sessions_.find(session);
  if (it == sessions_.end()) return;
  it->second.compactable_tokens = std::max<std::int64_t>(0, tokens);
  replan(it->second);
}

void LifetimeBook::on_native_session_end(const std::string& native_session) {
  base::MutexLock lock(mu_);
  // Bounded: a forgotten end is harmless, the session's request bytes are dropped below.
  if (ended_.size() >= max_sessions_) ended_.clear();
  ended_[native_session] = true;
  auto it = sessions_.find(native_session_key(native_session));
  if (it != sessions_.end()) it->second.ping.reset();  // credentials leave memory too
}

std::int64_t LifetimeBook::ttl_ms(const State& s) const {
  return s.one_hour ? kOneHourMs : kFiveMinutesMs;
}

GapCosts LifetimeBook::gap_costs(const State& s) const {
  if (!s.price || !s.ping) return {};
  constexpr double kPerToken = 1e-6;
  auto p = static_cast<double>(s.prefix_tokens);
  double write = write_price(*s.price, s.ping->one_hour);
  return GapCosts{
      (p * s.price->cache_read + static_cast<double>(s.ping->output_tokens) * s.price->output) *
          kPerToken,
      p * (write - s.price->cache_read) * kPerToken};
}

GapCosts LifetimeBook::planning_costs(const State& s) const {
  GapCosts costs = gap_costs(s);
  // Past 5 minutes live 1-hour entries still hold the prefix: no re-compaction then.
  if (!s.price || !s.ping || (s.hour_blocks >= 0 && !s.ping->one_hour)) return costs;
  constexpr double kPerToken = 1e-6;
  double write = write_price(*s.price, s.ping->one_hour);
  double compactable = static_cast<double>(std::min(s.compactable_tokens, s.prefix_tokens));
  costs.lapse_usd -= compaction_credit_usd(s.pauses, compactable, s.price->cache_read * kPerToken,
                                           write * kPerToken);
  return costs;
}

// The pings this pause gets: none unless allowed, priced, cached, and worth it (a lapse that
// lets re-compaction shrink the prompt may be worth more than the pings).
void LifetimeBook::replan(State& s) {
  s.planned = 0;
  if (!options_.enabled || s.stopped || !s.ping || !s.price || s.prefix_tokens <= 0) return;
  s.planned = planned_pings(s.pauses, ttl_ms(s), planning_costs(s), options_.max_pings);
}

bool LifetimeBook::alive(const State& s) const {
  if (s.lease.pid > 0) return pid_alive_(s.lease.pid);
  if (!s.lease.native_session.empty()) return ended_.count(s.lease.native_session) == 0;
  return false;  // no way to know: never ping
}

std::optional<std::int64_t> LifetimeBook::due(std::uint64_t session, const State& s) const {
  if (s.stopped || !s.ping || s.in_flight > 0 || s.pinging || s.sent_this_pause >= s.planned) {
    return std::nullopt;
  }
  auto latest = latest_.find(lease_key(s.lease));
  if (latest != latest_.end() && latest->second != session) return std::nullopt;
  return s.last_use + ttl_ms(s) - kKeepaliveMarginMs;
}

std::optional<std::int64_t> LifetimeBook::next_due() const {
  base::MutexLock lock(mu_);
  std::optional<std::int64_t> best;
  for (const auto& [key, s] : sessions_) {
    std::optional<std::int64_t> d = due(key, s);
    if (d && (!best || *d < *best)) best = d;
  }
  return best;
}

std::vector<PingJob> LifetimeBook::take_due() {
  base::MutexLock lock(mu_);
  std::int64_t now = clock_();
  std::vector<PingJob> jobs;
  for (auto& [key, s] : sessions_) {
    std::optional<std::int64_t> d = due(key, s);
    if (!d || *d > now) continue;
    bool over_budget = s.spent_usd > s.avoided_usd + gap_costs(s).lapse_usd;
    if (!alive(s) || (guard_stopped_ && guard_stopped_(key)) || over_budget) {
      s.stopped = true;  // for good: the agent is gone or the pings do not pay
      s.ping.reset();
      continue;
    }
    s.pinging = true;
    ++s.sent_this_pause;
    s.last_use = now;
    jobs.push_back(PingJob{key, s.ping, s.sent_this_pause});
  }
  std::sort(jobs.begin(), jobs.end(),
            [](const PingJob& a, const PingJob& b) { return a.session < b.session; });
  return jobs;
}

void LifetimeBook::on_ping_done(std::uint64_t session, bool ok, double usd) {
  base::MutexLock lock(mu_);
  auto it = sessions_.find(session);
  if (it == sessions_.end()) return;
  State& s = it->second;
  s.pinging = false;
  s.spent_usd += usd;
  if (!ok) {
    s.stopped = true;  // a 4xx/5xx answer: the provider refused the same prefix
    s.ping.reset();
  }
}

std::optional<std::string> keepalive_body(std::string_view body, std::int64_t* output_tokens) {
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  if (!doc || !doc->is(doc->root(), JsonKind::kObject)) return std::nullopt;
  NodeId root = doc->root();
  std::int64_t limit = 1;
  NodeId thinking = doc->get(root, "thinking");
  if (doc->get_string(thinking, "type") == "enabled") {
    NodeId budget = doc->get(thinking, "budget_tokens");
    if (doc->is(budget, JsonKind::kNumber))
      limit = std::strtoll(doc->node(budget).text.c_str(), nullptr, 10) + 1;
  }
  *output_tokens = limit;
  std::vector<Splice> splices;
  NodeId max_tokens = doc->get(root, "max_tokens");
  if (max_tokens == kNoNode) return std::nullopt;
  const JsonNode& m = doc->node(max_tokens);
  splices.push_back(Splice{m.begin, m.end, std::to_string(limit)});
  if (NodeId stream = doc->get(root, "stream"); stream != kNoNode) {
    const JsonNode& n = doc->node(stream);
    splices.push_back(Splice{n.begin, n.end, "false"});
  }
  return apply_splices(body, std::move(splices));
}

bool process_alive(int pid) {
  if (pid <= 0 || (::kill(pid, 0) != 0 && errno != EPERM)) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  if (!stat) return true;  // no /proc: kill() said it exists
  std::string line;
  std::getline(stat, line);
  std::size_t close = line.rfind(')');  // the command name may hold spaces and parentheses
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
}

}  // namespace caveman::proxy
