// caveman-proxy configuration: caveman.yaml plus environment overrides
// (docs/proxy.md#configuration).
//
// load_config() resolves the state home, reads `$CAVEMAN_CONFIG` or `<home>/caveman.yaml`
// (a missing file means defaults: record mode on 127.0.0.1:8787), applies the env
// overrides and validates. The environment is read through an EnvLookup so tests can pass
// a map. Errors are Status values: codes::kListenNotLoopback (a listen host that is not
// loopback: there is no inbound authentication), codes::kInvalidConfig (bad YAML, a bad
// compat entry, a bad number). Config is a plain value, safe to share read-only.
#ifndef CAVEMAN_PROXY_CONFIG_H_
#define CAVEMAN_PROXY_CONFIG_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/base/env.h"
#include "caveman/engine.h"
#include "caveman/status.h"
#include "outbound_proxy.h"

namespace caveman::proxy {

// The environment seam lives in the base layer (unset and empty both read as nullopt).
using base::EnvLookup;
using base::map_env;
using base::process_env;

inline constexpr std::string_view kDefaultListen = "127.0.0.1:8787";
inline constexpr std::int64_t kDefaultMaxRequestBytes = 32LL * 1024 * 1024;
inline constexpr std::int64_t kDefaultUpstreamTimeoutMs = 900000;  // 15 min: long LLM calls
inline constexpr std::int64_t kDefaultConnectTimeoutMs = 10000;
inline constexpr std::int64_t kDefaultMinBytes = 512;
// A lossy view that saves fewer tokens passes through: one retrieve costs more than that.
inline constexpr std::int64_t kDefaultMinSavingTokens = 256;
inline constexpr int kDefaultCanaryPercent = 10;

// Provider-native optimizers (modes recommend/shadow/canary/active); each can be switched off.
inline constexpr std::string_view kOptimizerAnthropicBreakpoints = "anthropic-cache-breakpoints";
inline constexpr std::string_view kOptimizerOpenaiCacheKey = "openai-prompt-cache-key";
// Per-session 1-hour lifetimes for Anthropic breakpoints (lifetime.h: choose_ttl).
inline constexpr std::string_view kOptimizerAnthropicTtl = "anthropic-cache-ttl";
// prompt_cache_retention "24h" where the price table says the OpenAI model offers it.
inline constexpr std::string_view kOptimizerOpenaiRetention = "openai-prompt-cache-retention";

struct CompatMount {
  std::string name;         // ^[a-z0-9][a-z0-9._-]{0,63}$
  std::string base_url;     // absolute http(s) URL, may carry a path such as /v1
  std::string api_key_env;  // env var holding the key; empty = send no Authorization
};

struct Config {
  std::string home;         // CAVEMAN_HOME or ~/.caveman
  std::string config_path;  // the YAML file consulted (may not exist)
  std::string label = "local";
  std::string mode = "record";  // normalized: record|compress|pixel|recommend|shadow|canary|active
  std::string listen{kDefaultListen};
  std::string listen_host = "127.0.0.1";
  int listen_port = 8787;
  // Upstream origins by provider: anthropic, openai, gemini (defaults filled in).
  std::map<std::string, std::string> provider_base_urls;
  std::vector<CompatMount> compat;  // sorted by name
  std::int64_t min_bytes = kDefaultMinBytes;  // compress.min_bytes
  std::int64_t budget_tokens = caveman::kDefaultBudgetTokens;  // compress.budget_tokens (0 = none)
  std::int64_t min_saving_tokens = kDefaultMinSavingTokens;  // compress.min_saving_tokens
  std::map<std::string, bool> optimizers;  // optimizers: {id: bool}; absent = on
  int canary_percent = kDefaultCanaryPercent;  // canary.percent: share of sessions optimized
  bool observe_estimate = true;  // estimate.record (CAVEMAN_OBSERVE_ESTIMATE): would_save_*
  bool keepalive_enabled = true;   // keepalive.enabled: cache keepalive pings (lifetime_book.h)
  bool keepalive_oauth = false;    // keepalive.oauth: also on subscription/OAuth traffic
  int keepalive_max_pings = 12;    // keepalive.max_pings per pause
  bool recompact_enabled = true;   // recompact.enabled: expiry-aligned re-compaction
  bool test_clock_manual = false;  // CAVEMAN_TEST_CLOCK=manual: lifetimes on a test clock
  bool recovery_via_mcp = false;              // CAVEMAN_RECOVERY == "mcp"
  std::int64_t max_request_bytes = kDefaultMaxRequestBytes;
  std::int64_t upstream_timeout_ms = kDefaultUpstreamTimeoutMs;
  std::int64_t connect_timeout_ms = kDefaultConnectTimeoutMs;
  std::string ssrf_allowlist;     // CAVE_SSRF_ALLOWLIST, raw comma list
  std::optional<OutboundProxy> https_proxy;  // HTTPS_PROXY / https_proxy
  std::string no_proxy;                      // NO_PROXY / no_proxy, raw list
  int worker_threads = 64;        // connections served at once
  int max_queued = 1024;          // accepted connections waiting for a worker
  std::int64_t shutdown_grace_ms = 5000;
  std::string db_path;   // CAVEMAN_DB or <home>/caveman.db
  std::string owner = "start";  // CAVEMAN_PROXY_OWNER: start|wrap
};

// Whether optimizer `id` is on (absent from `optimizers:` = on).
bool optimizer_enabled(const Config& config, std::string_view id);

// Accepted modes pass through; anything else (typos, case) → "record".
std::string normalize_mode(std::string_view mode);

// Builds a Config from YAML text (may be empty) and the environment. `home` and
// `config_path` are copied into the result.
Result<Config> parse_config(std::string_view yaml, const EnvLookup& env, std::string home,
                            std::string config_path);

// Resolves home (created 0700), reads the YAML file if present, then parse_config().
Result<Config> load_config(const EnvLookup& env);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_CONFIG_H_
