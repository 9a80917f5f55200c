// recall.h — turning ranked store hits into what an agent reads: compressed, budgeted hits.
//
// pack_hits() implements step 3 of docs/mem.md#recall: every hit is compressed through the
// engine (auto-detect, the recall query as relevance hint); then, with a budget of 0 all hits
// are kept; if the top hit alone exceeds the budget it is returned alone, cut to the longest
// UTF-8-safe prefix that fits, with a CCR handle to the full text (the engine's, or one
// stored here); otherwise hits are packed greedily in rank order (a hit that does not fit is
// skipped and later, smaller ones may still fit). Deterministic for equal inputs. Recall does
// its own packing instead of contextwindow::pack because that packer re-scores items (its own
// BM25, recency, error boost) and returns input order, while recall must keep rank order.
// Never fails: a CCR write error is reported in the hit's `error` field (fail open).
#ifndef CAVEMAN_MEM_RECALL_H_
#define CAVEMAN_MEM_RECALL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/engine.h"
#include "caveman/tokens.h"
#include "memory.h"
#include "store.h"

namespace caveman::mem {

struct RecallHit {
  std::string id;
  std::string text;  // compressed and/or truncated view of the memory
  double score = 0;
  std::int64_t tokens_added = 0;  // o200k tokens of `text`
  std::string recovery_handle;    // empty when `text` is the memory verbatim
  bool truncated = false;
  std::string error;  // a CCR code (codes::kCcr…) when the full text could not be stored
  std::string created_at;
  std::optional<std::string> project;
  std::vector<std::string> tags;
};

struct RecallResult {
  std::vector<RecallHit> hits;
  std::int64_t token_budget = 0;  // 0 = unlimited
  std::int64_t tokens_used = 0;
  std::size_t candidates = 0;  // ranked hits above the threshold before packing
};

// `engine` may be null (no compression; truncation then has no place to store the original
// and reports codes::kCcrUnavailable). `budget` 0 = unlimited.
RecallResult pack_hits(const std::vector<Hit>& hits, const Engine* engine,
                       const tokens::Counter& counter, std::int64_t budget, std::string_view query);

// Longest prefix of `text` that ends on a UTF-8 code point boundary and has at most `budget`
// tokens.
std::string fit_prefix(std::string_view text, std::int64_t budget, const tokens::Counter& counter);

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_RECALL_H_
