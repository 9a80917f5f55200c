#include <algorithm>
#include <cmath>
#include <numeric>

#include "caveman/contextwindow.h"
#include "text/bm25.h"
#include "text/words.h"

namespace caveman::contextwindow {
namespace {

constexpr std::chrono::duration<double> kDefaultHalfLife = std::chrono::hours(6);

std::chrono::duration<double> half_life(const PackOptions& o) {
  return o.recency_half_life.count() > 0 ? o.recency_half_life : kDefaultHalfLife;
}

Clock::time_point resolve_now(const std::vector<Item>& items, const PackOptions& o) {
  if (o.now) return *o.now;
  std::optional<Clock::time_point> latest;
  for (const Item& it : items) {
    if (it.timestamp && (!latest || *it.timestamp > *latest)) latest = it.timestamp;
  }
  return latest.value_or(Clock::time_point{});
}

}  // namespace

bool has_error_signal(std::string_view text) {
  return text::contains_word_ci(text, {"error", "fatal", "panic", "exception", "traceback", "fail",
                                       "failed", "failure", "security", "regression"});
}

double static_score(const Item& item, const PackOptions& options, Clock::time_point now) {
  double score = item.priority;
  if (item.timestamp) {
    double weight = options.recency_weight > 0 ? options.recency_weight : kDefaultRecencyWeight;
    double age = std::chrono::duration<double>(now - *item.timestamp).count();
    if (age < 0) age = 0;
    // A true half-life: the recency bonus halves every half_life (the original used
    // exp(−age/half_life), which decays by e, not 2, per "half-life").
    score += weight * std::exp2(-age / half_life(options).count());
  }
  if (has_error_signal(item.text)) {
    score += options.error_boost > 0 ? options.error_boost : kDefaultErrorBoost;
  }
  if (item.pin) score += kPinBoost;
  return score;
}

PackResult pack(std::string_view query, const std::vector<Item>& items,
                const PackOptions& options) {
  const tokens::Counter& counter =
      options.counter != nullptr ? *options.counter : tokens::default_counter();
  const std::int64_t max_tokens = options.max_tokens > 0 ? options.max_tokens : kDefaultMaxTokens;
  PackResult result;
  result.budget =
      std::max<std::int64_t>(0, max_tokens - std::max<std::int64_t>(0, options.reserve_tokens));

  std::vector<std::int64_t> tokens(items.size());
  std::vector<std::string_view> docs;
  docs.reserve(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    tokens[i] = items[i].tokens > 0 ? items[i].tokens
                                    : static_cast<std::int64_t>(counter.count(items[i].text));
    result.tokens_before += tokens[i];
    docs.emplace_back(items[i].text);
  }
  std::vector<double> scores = text::bm25_scores(docs, query);
  const Clock::time_point now = resolve_now(items, options);
  for (std::size_t i = 0; i < items.size(); ++i) scores[i] += static_score(items[i], options, now);

  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });

  std::vector<bool> chosen(items.size(), false);
  std::int64_t used = 0;
  for (std::size_t i : order) {
    // Zero-token items carry nothing; an item that does not fit is skipped so smaller ones
    // further down may still use the room.
    if (tokens[i] <= 0 || tokens[i] > result.budget - used) continue;
    chosen[i] = true;
    used += tokens[i];
  }
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!chosen[i]) continue;
    result.items.push_back(PackedItem{i, items[i].id, items[i].text, tokens[i], scores[i]});
  }
  result.tokens_used = used;
  result.tokens_saved = std::max<std::int64_t>(0, result.tokens_before - used);
  result.deferred = items.size() - result.items.size();
  return result;
}

}  // namespace caveman::contextwindow
