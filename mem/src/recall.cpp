#include "recall.h"

#include <algorithm>

#include "caveman/base/codes.h"
#include "caveman/ccr.h"

namespace caveman::mem {
namespace {

// Extra code point boundaries examined past the binary-search answer: BPE counts are only
// roughly monotonic in the prefix length ("hel" can cost more tokens than "hello").
constexpr std::size_t kLookahead = 64;

}  // namespace

std::string fit_prefix(std::string_view text, std::int64_t budget, const tokens::Counter& counter) {
  if (budget <= 0) return std::string();
  auto fits = [&](std::size_t end) {
    return static_cast<std::int64_t>(counter.count(text.substr(0, end))) <= budget;
  };
  if (fits(text.size())) return std::string(text);
  std::vector<std::size_t> cuts;  // code point boundaries, 0 and size() excluded
  for (std::size_t i = 1; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) cuts.push_back(i);
  }
  // Largest index whose prefix fits, assuming monotonic counts.
  std::size_t lo = 0, hi = cuts.size();  // answer in [0, hi): number of cuts that fit
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo + 1) / 2;
    if (fits(cuts[mid - 1])) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  std::size_t best = lo == 0 ? 0 : cuts[lo - 1];
  for (std::size_t k = lo; k < cuts.size() && k < lo + kLookahead; ++k) {
    if (fits(cuts[k])) best = cuts[k];
  }
  return std::string(text.substr(0, best));
}

RecallResult pack_hits(const std::vector<Hit>& hits, const Engine* engine,
                       const tokens::Counter& counter, std::int64_t budget, std::string_view query) {
  RecallResult result;
  result.token_budget = budget;
  result.candidates = hits.size();
  std::vector<RecallHit> views;
  views.reserve(hits.size());
  for (const Hit& h : hits) {
    RecallHit v;
    v.id = h.memory.id;
    v.score = h.score;
    v.created_at = h.memory.created_at;
    v.project = h.memory.project;
    v.tags = h.memory.tags;
    v.text = h.memory.text;
    if (engine != nullptr) {
      Options opts;
      opts.mode = "compress";
      opts.query = std::string(query);
      CompressResult c = engine->compress(h.memory.text, opts);
      v.text = std::move(c.output);
      v.recovery_handle = c.recovery_handle;
      v.error = c.error;
    }
    v.tokens_added = static_cast<std::int64_t>(counter.count(v.text));
    views.push_back(std::move(v));
  }
  if (views.empty()) return result;

  if (budget > 0 && views.front().tokens_added > budget) {
    RecallHit top = std::move(views.front());
    const std::string& original = hits.front().memory.text;
    top.text = fit_prefix(top.text, budget, counter);
    top.tokens_added = static_cast<std::int64_t>(counter.count(top.text));
    top.truncated = true;
    if (top.recovery_handle.empty()) {
      ccr::Store* store = engine != nullptr ? engine->store() : nullptr;
      if (store == nullptr) {
        top.error = codes::kCcrUnavailable;
      } else {
        ccr::Record record;
        record.content_type = "text";
        record.compressor = "cavemem_truncate";
        record.tokens_before = static_cast<std::int64_t>(counter.count(original));
        record.tokens_after = top.tokens_added;
        record.original = original;
        Result<std::string> handle = store->put(record);
        if (handle.ok()) {
          top.recovery_handle = handle.value();
        } else {
          top.error = handle.status().error_code();
        }
      }
    }
    result.tokens_used = top.tokens_added;
    result.hits.push_back(std::move(top));
    return result;
  }
  for (RecallHit& v : views) {
    if (budget > 0 && result.tokens_used + v.tokens_added > budget) continue;
    result.tokens_used += v.tokens_added;
    result.hits.push_back(std::move(v));
  }
  return result;
}

}  // namespace caveman::mem
