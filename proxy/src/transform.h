// Compress mode's request transform (docs/proxy.md#compress-mode): live-zone string values are
// compressed by the engine, their originals stored in CCR, and the replacement
// `compressed + "\n<<ccr:HANDLE>>"` spliced into the body in place of the original string
// literal; every other byte stays identical.
//
// Per block: a prefix-cache hit is re-substituted as stored (live or frozen); a frozen miss
// stays original; a live miss is compressed (latest human text as the query), accepted only
// when it has fewer tokens, stored in CCR (content_type "block", compressor "proxy-content")
// and remembered in the prefix cache (first write wins — the stored bytes are what is sent).
// Any failure keeps that block's original bytes; a result that is not valid JSON, or not
// different, is discarded whole (fail open). Thread-safe when the engine, store and cache are.
#ifndef CAVEMAN_PROXY_TRANSFORM_H_
#define CAVEMAN_PROXY_TRANSFORM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "json_spans.h"
#include "live_zone.h"
#include "prefix_cache.h"
#include "routes.h"

namespace caveman::proxy {

inline constexpr std::size_t kMaxDisclosedHandles = 8;
// An uncached prompt pays for the caveman_retrieve tool the proxy injects on every request once a
// marker is in it (about 250 o200k tokens), so the first block compressed there must save more
// than the tool costs over a few turns.
inline constexpr std::int64_t kUncachedFirstMarkerTokens = 1000;
// The marker appended to a compressed block ("\n<<ccr:ccr_…>>", 28 o200k tokens): a view
// saving no more than this (a short Read whose gutter thinned) would make the prompt longer.
inline constexpr std::int64_t kMarkerTokens = 32;

struct TransformOutcome {
  bool changed = false;
  std::string body;                 // the body to send when changed
  std::int64_t tokens_before = 0;   // blocks newly compressed in this request only
  std::int64_t tokens_after = 0;
  int compressed_blocks = 0;
  int reused_blocks = 0;            // prefix-cache substitutions
  int recompacted_blocks = 0;       // frozen tool results compacted after a lapse (knobs.recompact)
  std::int64_t recompact_saved_tokens = 0;
  // Answered frozen results a lapse would stub, estimated (LifetimeBook::note_compactable).
  std::int64_t compactable_tokens = 0;
  std::vector<std::string> handles; // unique, in body order
  std::string error;                // last store/cache problem (the block kept its bytes)
};

// The engine knobs caveman.yaml's `compress:` block sets (docs/proxy.md).
struct CompressKnobs {
  std::int64_t budget_tokens = caveman::kDefaultBudgetTokens;  // → Options::budget_tokens
  std::int64_t min_saving_tokens = 0;                 // → Options::min_lossy_saving_tokens
  std::int64_t context_tokens = 0;                    // → Options::context_tokens
  bool context_cached = true;                         // → Options::context_cached
  bool reuse_only = false;  // re-substitute blocks compressed before; compress none anew
  // Expiry-aligned re-compaction: the session's cached prefix has lapsed, so frozen tool
  // results are compressed at kRecompactBudgetTokens — a miss anew, a block compressed before
  // again from its original (same handle, kept when it saves a quarter) — and answered ones
  // still over kRecompactStubTokens become stubs; the prefix cache then keeps later turns
  // byte-identical. Never the live zone's own blocks, user text, system or tools.
  bool recompact = false;
};

inline constexpr std::int64_t kRecompactBudgetTokens = 2000;
// An answered frozen result whose view still costs more than this after a lapse becomes a stub: its
// first kStubHeadLines lines (each at most kStubHeadLineBytes) and one marker stating the rest by
// line range (docs/formats.md#markers); the handle returns all of it.
inline constexpr std::int64_t kRecompactStubTokens = 200;
inline constexpr std::size_t kStubHeadLines = 3;
inline constexpr std::size_t kStubHeadLineBytes = 240;

// `original`'s stub: its head and "… lines A–B elided (caveman): …"; nullopt when the head
// would be all of it.
std::optional<std::string> frozen_stub(std::string_view original);

// Whether the provider caches this request's prompt: OpenAI and Gemini cache long prefixes on
// their own, an Anthropic Messages request only up to a `cache_control` breakpoint.
bool prompt_cached(Endpoint endpoint, std::string_view body);

// The knobs for one request of `request_bytes`: the prompt's size, estimated at 4 bytes a
// token, is the context a lossy view of source code is weighed against (docs/proxy.md,
// "Compress mode"); `cached` when the provider caches the prompt.
CompressKnobs knobs_for_request(std::int64_t budget_tokens, std::int64_t min_saving_tokens,
                                std::size_t request_bytes, bool cached);

// The engine options the proxy compresses a live block with (compress and the estimate).
Options block_options(const CompressKnobs& knobs, const std::string& query);

class Transformer {
 public:
  // None of the pointers is owned; `store` and `cache` must be non-null.
  Transformer(const Engine* engine, ccr::Store* store, PrefixCache* cache, CompressKnobs knobs = {})
      : engine_(engine), store_(store), cache_(cache), knobs_(knobs) {}

  TransformOutcome transform(std::string_view body, const JsonDoc& doc, const LiveZone& zone) const;

 private:
  std::optional<std::string> tighten(const std::string& original, const std::string& sent,
                                     const std::string& key, const std::string& query,
                                     const Candidate& c, TransformOutcome* out) const;
  CompressKnobs recompact_knobs() const;
  CompressResult recompacted(const std::string& original, const Options& options,
                             bool answered) const;

  const Engine* engine_;
  ccr::Store* store_;
  PrefixCache* cache_;
  CompressKnobs knobs_;
};

// The row's recovery_handle: the newest kMaxDisclosedHandles handles, comma-joined, with a
// leading "+N" counting older ones.
std::string join_handles(const std::vector<std::string>& handles);

// "…<<ccr:ccr_x>>" → "ccr_x" (the marker ends a replacement), else "".
std::string handle_from_replacement(std::string_view replacement);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_TRANSFORM_H_
