#include "prices.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <string>

#include "prices_data.h"

namespace caveman::proxy {
namespace {

const nlohmann::json& table() {
  static const nlohmann::json kTable =
      nlohmann::json::parse(embedded_prices_json(), nullptr, /*allow_exceptions=*/false);
  return kTable;
}

double rate(const nlohmann::json& row, const char* key) {
  auto it = row.find(key);
  return it != row.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::optional<ModelPrice> row_price(const nlohmann::json& models, const std::string& id) {
  auto it = models.find(id);
  if (it == models.end() || !it->is_object()) return std::nullopt;
  ModelPrice p{rate(*it, "input"),  rate(*it, "cache_write_5m"), rate(*it, "cache_read"),
               rate(*it, "output"), rate(*it, "cache_write_1h"), false};
  if (auto r = it->find("cache_retention"); r != it->end() && r->is_array()) {
    p.retention_24h = std::find(r->begin(), r->end(), "24h") != r->end();
  }
  return p;
}

// "claude-sonnet-4-6-20260101" → "claude-sonnet-4-6"; "gpt-4.1-2025-04-14" → "gpt-4.1".
std::string undated(std::string id) {
  auto digits = [&](std::size_t from, std::size_t n) {
    return from + n <= id.size() &&
           std::all_of(id.begin() + static_cast<long>(from), id.begin() + static_cast<long>(from + n),
                       [](unsigned char c) { return std::isdigit(c) != 0; });
  };
  if (id.size() > 9 && id[id.size() - 9] == '-' && digits(id.size() - 8, 8)) return id.substr(0, id.size() - 9);
  if (id.size() > 11 && id[id.size() - 11] == '-' && digits(id.size() - 10, 4) && id[id.size() - 6] == '-' &&
      digits(id.size() - 5, 2) && id[id.size() - 3] == '-' && digits(id.size() - 2, 2)) {
    return id.substr(0, id.size() - 11);
  }
  return id;
}

}  // namespace

std::optional<ModelPrice> find_price(std::string_view provider, std::string_view model) {
  const nlohmann::json& t = table();
  std::string section = provider == "compat" ? "openai" : std::string(provider);
  if (t.is_discarded() || !t.contains(section)) return std::nullopt;
  const nlohmann::json& models = t[section]["models"];
  const nlohmann::json& aliases = t[section].value("aliases", nlohmann::json::object());
  for (std::string id : {std::string(model), undated(std::string(model))}) {
    if (auto alias = aliases.find(id); alias != aliases.end() && alias->is_string()) id = *alias;
    if (auto p = row_price(models, id)) return p;
  }
  return std::nullopt;
}

std::int64_t uncached_input(std::string_view provider, const UsageTokens& u) {
  if (provider == "anthropic") return u.input;
  return std::max<std::int64_t>(0, u.input - u.cache_read);
}

Dollars price_usage(std::string_view provider, const ModelPrice& price, const UsageTokens& u) {
  constexpr double kPerToken = 1e-6;
  Dollars d;
  d.input = static_cast<double>(uncached_input(provider, u)) * price.input * kPerToken;
  d.cache_read = static_cast<double>(u.cache_read) * price.cache_read * kPerToken;
  double write_rate = price.cache_write_5m > 0 ? price.cache_write_5m : price.input;
  double write_1h_rate = price.cache_write_1h > 0 ? price.cache_write_1h : write_rate;
  std::int64_t one_hour = std::clamp<std::int64_t>(u.cache_write_1h, 0, u.cache_write);
  d.cache_write = (static_cast<double>(u.cache_write - one_hour) * write_rate +
                   static_cast<double>(one_hour) * write_1h_rate) *
                  kPerToken;
  d.output = static_cast<double>(u.output) * price.output * kPerToken;
  return d;
}

}  // namespace caveman::proxy
