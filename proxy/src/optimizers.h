// Provider-native cost optimizers (modes recommend/shadow/canary/active; docs/proxy.md) and the
// request facts they and the cache-bust monitor share: a session's identity and the hashes of
// the frozen-prefix components (tools, system, each earlier message).
//
// `anthropic-cache-breakpoints` (the frontier planner) adds Anthropic `cache_control`
// breakpoints so that the stable prefix is cached: the last block of the last message (the
// frontier: written now, read by the next turn), the end of the system prompt (or of the tool
// catalog) and the last block of the message before the last one (a read point when the last
// turn has more than 20 blocks). It only adds: the client's own breakpoints are never moved or
// removed, at most 4 exist in total, none is placed before a client breakpoint with a 1 h TTL
// (a shorter TTL may not precede a longer one), never on thinking or empty text blocks. Per
// session it may choose 1-hour lifetimes (lifetime.h: choose_ttl).
// `openai-prompt-cache-key` adds a stable per-session `prompt_cache_key` when none was sent.
// Both splice bytes into the body (every other byte identical). Callers gate on auth: only
// pay-as-you-go API-key traffic. Pure functions; deterministic; thread-compatible.
#ifndef CAVEMAN_PROXY_OPTIMIZERS_H_
#define CAVEMAN_PROXY_OPTIMIZERS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "json_spans.h"
#include "lifetime.h"
#include "routes.h"

namespace caveman::proxy {

inline constexpr int kMaxAnthropicBreakpoints = 4;

struct BreakpointPlan {
  int existing = 0;  // the client's breakpoints (a top-level cache_control counts as one)
  int added = 0;
  int one_hour = 0;  // breakpoints (ours or the client's) given ttl "1h"
  std::vector<Splice> splices;
};

// The breakpoints the planner would add to an Anthropic Messages body. With `ttl` 1 hour,
// every breakpoint but the last in prompt order (tools → system → messages) gets ttl "1h"
// — the client's too, when it named no ttl — and the last keeps 5 minutes; nothing changes
// when the client named a ttl anywhere or asked for automatic caching.
BreakpointPlan plan_breakpoints(std::string_view body, const JsonDoc& doc,
                                CacheTtl ttl = CacheTtl::k5m);

// "cave-" + 16 hex digits of the session fingerprint; "" when the body already carries a
// prompt_cache_key (the client's key wins) or is not an object.
std::string prompt_cache_key_to_add(const JsonDoc& doc, std::uint64_t session);

// The splice adding `"prompt_cache_key":"<key>"` as the last member of the root object.
Splice prompt_cache_key_splice(const JsonDoc& doc, const std::string& key);

// Whether `"prompt_cache_retention":"24h"` goes into an OpenAI body: the model offers it
// (`retention_24h`, from the price table) and the client chose no retention of its own
// (`prompt_cache_retention`, or GPT-5.6's `prompt_cache_options`).
bool wants_retention_24h(const JsonDoc& doc, bool retention_24h);
Splice retention_24h_splice(const JsonDoc& doc);

// Deterministic 64-bit FNV-1a (stable across runs: prompt_cache_key must survive restarts).
std::uint64_t fnv1a(std::string_view data, std::uint64_t seed = 1469598103934665603ULL);

// Hash of a value's canonical form (white space ignored, `cache_control` members dropped, so
// a moved breakpoint does not count as a changed prefix).
std::uint64_t canonical_hash(const JsonDoc& doc, NodeId node);

// The frozen-prefix components of a request, per provider format.
struct PrefixComponents {
  std::uint64_t tools = 0;
  std::uint64_t system = 0;
  std::vector<std::uint64_t> messages;  // each message / input item / content, in order
};
PrefixComponents prefix_components(Endpoint endpoint, const JsonDoc& doc);

// A session's identity: the native session id when one was correlated, else the agent, model
// and first message (inferred: two sessions that open with the same words are one).
std::uint64_t session_fingerprint(Endpoint endpoint, const JsonDoc& doc, std::string_view agent,
                                  std::string_view model, std::string_view native_session);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_OPTIMIZERS_H_
