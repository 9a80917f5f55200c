// caveman/contextwindow.h — the context packer: fit candidate items into a token budget.
//
// pack() scores every item by BM25 relevance to the query, priority, recency and an error
// signal (docs/spec/ranking.md#pack), then greedily keeps the best-scoring items that still fit the
// budget and returns them in their ORIGINAL order. It is a pure function of its arguments
// (ties break by input index; no clock is read unless `now` is unset, and then the latest
// item timestamp is used), holds no state and is safe to call from any thread. It never
// fails: out-of-range options are clamped (a negative budget packs nothing). The counter, when
// given, must outlive the call.
#ifndef CAVEMAN_CONTEXTWINDOW_H_
#define CAVEMAN_CONTEXTWINDOW_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/tokens.h"

namespace caveman::contextwindow {

using Clock = std::chrono::system_clock;

struct Item {
  std::string id;
  std::string text;
  std::int64_t tokens = 0;                     // ≤ 0 → counted with the options' counter
  std::optional<Clock::time_point> timestamp;  // unset → no recency bonus
  double priority = 0;                         // added to the score as-is
  bool pin = false;                            // +1 000 000: kept whenever it fits
};

struct PackOptions {
  std::int64_t max_tokens = 0;                         // ≤ 0 → 8000
  std::int64_t reserve_tokens = 0;                     // budget = max − reserve, at least 0
  std::chrono::duration<double> recency_half_life{0};  // ≤ 0 → 6 h
  double recency_weight = 0;                           // ≤ 0 → 0.15
  double error_boost = 0;                              // ≤ 0 → 0.8
  const tokens::Counter* counter = nullptr;            // null → tokens::default_counter()
  std::optional<Clock::time_point> now;                // unset → latest item timestamp
};

inline constexpr std::int64_t kDefaultMaxTokens = 8000;
inline constexpr double kDefaultRecencyWeight = 0.15;
inline constexpr double kDefaultErrorBoost = 0.8;
inline constexpr double kPinBoost = 1'000'000;

struct PackedItem {
  std::size_t index = 0;  // position in the input
  std::string id;
  std::string text;
  std::int64_t tokens = 0;  // as given, or as counted
  double score = 0;
};

struct PackResult {
  std::vector<PackedItem> items;  // selected items in original order
  std::int64_t budget = 0;
  std::int64_t tokens_used = 0;    // Σ tokens of the selected items (≤ budget)
  std::int64_t tokens_before = 0;  // Σ tokens of all items
  std::int64_t tokens_saved = 0;   // max(0, before − used)
  std::size_t deferred = 0;        // items not selected
};

// Score of one item without the BM25 part (priority + recency + error + pin); exposed for
// tests and for callers that want to explain a packing decision.
double static_score(const Item& item, const PackOptions& options, Clock::time_point now);

// True when `text` carries the error signal: one of ERROR FATAL PANIC EXCEPTION TRACEBACK
// FAIL FAILED FAILURE SECURITY REGRESSION as a whole word, any case.
bool has_error_signal(std::string_view text);

PackResult pack(std::string_view query, const std::vector<Item>& items,
                const PackOptions& options = {});

}  // namespace caveman::contextwindow

#endif  // CAVEMAN_CONTEXTWINDOW_H_
