// List prices for dollar figures (would_save_usd, the bill-protection guard, `caveman stats`):
// bench/prices.json, embedded at build time (one source of truth with the billing stand-in,
// tests/e2e/lib/billing.mjs). USD per million tokens, standard tier.
//
// find_price() resolves a model id as billing.mjs does: exact row, alias, then a dated id
// (`claude-sonnet-4-6-20260101`, `gpt-4.1-2025-04-14`) by its undated prefix. An unknown model
// is nullopt (unpriced), never $0. Token conventions differ: Anthropic's input_tokens exclude
// cache reads and writes, OpenAI's and Gemini's include the cached part. Pure functions.
#ifndef CAVEMAN_PROXY_PRICES_H_
#define CAVEMAN_PROXY_PRICES_H_

#include <cstdint>
#include <optional>
#include <string_view>

namespace caveman::proxy {

struct ModelPrice {
  double input = 0;
  double cache_write_5m = 0;  // 0 where the provider charges no write (OpenAI)
  double cache_read = 0;
  double output = 0;
  double cache_write_1h = 0;   // 0 where there is no 1-hour cache
  bool retention_24h = false;  // OpenAI: the model accepts prompt_cache_retention "24h"
};

// `provider`: "anthropic", "openai", "gemini" or "compat" (OpenAI's table).
std::optional<ModelPrice> find_price(std::string_view provider, std::string_view model);

struct UsageTokens {
  std::int64_t input = 0;  // as the provider reported it
  std::int64_t output = 0;
  std::int64_t cache_read = 0;
  std::int64_t cache_write = 0;     // all writes, 5-minute and 1-hour
  std::int64_t cache_write_1h = 0;  // the 1-hour part (Anthropic's ephemeral_1h_input_tokens)
};

struct Dollars {
  double input = 0;  // uncached input
  double cache_read = 0;
  double cache_write = 0;  // the 1-hour part at the 1-hour rate, the rest at the 5-minute rate
  double output = 0;
  double total() const { return input + cache_read + cache_write + output; }
};

// Uncached input tokens under the provider's convention.
std::int64_t uncached_input(std::string_view provider, const UsageTokens& u);
Dollars price_usage(std::string_view provider, const ModelPrice& price, const UsageTokens& u);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_PRICES_H_
