#include "config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "caveman/base/codes.h"
#include "caveman/base/net.h"
#include "caveman/base/paths.h"
#include "url.h"

namespace caveman::proxy {
namespace {

constexpr std::string_view kModes[] = {"record", "compress", "pixel", "recommend",
                                       "shadow", "canary",   "active"};

Status invalid(std::string message) {
  return Status::InvalidArgument(codes::kInvalidConfig, std::move(message));
}

// Non-negative integer option; `what` names it in errors.
Status parse_count(std::string_view text, std::string_view what, std::int64_t min,
                   std::int64_t* out) {
  if (text.empty() || text.size() > 15) return invalid(std::string(what) + " must be an integer");
  std::int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return invalid(std::string(what) + " must be an integer");
    v = v * 10 + (c - '0');
  }
  if (v < min) {
    return invalid(std::string(what) + " must be at least " + std::to_string(min));
  }
  *out = v;
  return Status::Ok();
}

// The count in environment variable `name` into `*out` when it is set (parse_count's checks).
Status env_count(const EnvLookup& env, std::string_view name, std::int64_t min, std::int64_t* out) {
  std::optional<std::string> v = env(name);
  return v ? parse_count(*v, name, min, out) : Status::Ok();
}

std::string scalar(const YAML::Node& node) {
  return node && node.IsScalar() ? node.Scalar() : std::string();
}

bool parse_bool(std::string_view v, bool* out) {
  if (v == "true" || v == "on" || v == "yes" || v == "1") return *out = true, true;
  if (v == "false" || v == "off" || v == "no" || v == "0") return *out = false, true;
  return false;
}

// keepalive: {enabled: bool, oauth: bool, max_pings: N}; recompact: {enabled: bool}.
Status apply_keepalive_yaml(const YAML::Node& root, Config* config) {
  if (YAML::Node r = root["recompact"]; r && r.IsMap()) {
    if (auto v = scalar(r["enabled"]); !v.empty() && !parse_bool(v, &config->recompact_enabled)) {
      return invalid("recompact.enabled must be true or false");
    }
  }
  YAML::Node k = root["keepalive"];
  if (!k || !k.IsMap()) return Status::Ok();
  if (auto v = scalar(k["enabled"]); !v.empty() && !parse_bool(v, &config->keepalive_enabled)) {
    return invalid("keepalive.enabled must be true or false");
  }
  if (auto v = scalar(k["oauth"]); !v.empty() && !parse_bool(v, &config->keepalive_oauth)) {
    return invalid("keepalive.oauth must be true or false");
  }
  if (auto v = scalar(k["max_pings"]); !v.empty()) {
    std::int64_t n = 0;
    CAVEMAN_RETURN_IF_ERROR(parse_count(v, "keepalive.max_pings", 0, &n));
    if (n > 1000) return invalid("keepalive.max_pings must be 0..1000");
    config->keepalive_max_pings = static_cast<int>(n);
  }
  return Status::Ok();
}

// optimizers: {id: bool}, canary: {percent: N}, estimate: {record: bool}, keepalive.
Status apply_optimizer_yaml(const YAML::Node& root, Config* config) {
  if (YAML::Node opt = root["optimizers"]; opt && opt.IsMap()) {
    for (const auto& entry : opt) {
      std::string id = entry.first.as<std::string>();
      bool on = true;
      if (!parse_bool(scalar(entry.second), &on)) {
        return invalid("optimizers." + id + " must be true or false");
      }
      config->optimizers[id] = on;
    }
  }
  if (YAML::Node canary = root["canary"]; canary && canary.IsMap()) {
    if (auto v = scalar(canary["percent"]); !v.empty()) {
      std::int64_t p = 0;
      CAVEMAN_RETURN_IF_ERROR(parse_count(v, "canary.percent", 0, &p));
      if (p > 100) return invalid("canary.percent must be 0..100");
      config->canary_percent = static_cast<int>(p);
    }
  }
  if (YAML::Node estimate = root["estimate"]; estimate && estimate.IsMap()) {
    if (auto v = scalar(estimate["record"]); !v.empty() && !parse_bool(v, &config->observe_estimate)) {
      return invalid("estimate.record must be true or false");
    }
  }
  return apply_keepalive_yaml(root, config);
}

// Applies the YAML document to `config`.
Status apply_yaml(std::string_view yaml, Config* config) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    return invalid(std::string("caveman.yaml: ") + e.what());
  }
  if (!root || root.IsNull()) return Status::Ok();
  if (!root.IsMap()) return invalid("caveman.yaml: the top level must be a mapping");
  try {
    if (auto v = scalar(root["label"]); !v.empty()) config->label = v;
    if (auto v = scalar(root["mode"]); !v.empty()) config->mode = v;
    if (auto v = scalar(root["listen"]); !v.empty()) config->listen = v;
    if (YAML::Node providers = root["providers"]; providers && providers.IsMap()) {
      for (const auto& entry : providers) {
        std::string name = entry.first.as<std::string>();
        std::string base = scalar(entry.second["base_url"]);
        if (base.empty()) continue;
        if (!parse_url(base)) {
          return invalid("providers." + name + ".base_url is not an absolute http(s) URL");
        }
        config->provider_base_urls[name] = base;
      }
    }
    if (YAML::Node compat = root["compat"]; compat && compat.IsMap()) {
      for (const auto& entry : compat) {
        CompatMount mount;
        mount.name = entry.first.as<std::string>();
        if (!valid_route_name(mount.name)) {
          return invalid("compat name \"" + mount.name + "\" must match ^[a-z0-9][a-z0-9._-]{0,63}$");
        }
        mount.base_url = scalar(entry.second["base_url"]);
        if (mount.base_url.empty() || !parse_url(mount.base_url)) {
          return invalid("compat." + mount.name + ".base_url must be an absolute http(s) URL");
        }
        mount.api_key_env = scalar(entry.second["api_key_env"]);
        config->compat.push_back(std::move(mount));
      }
    }
    if (YAML::Node compress = root["compress"]; compress && compress.IsMap()) {
      if (auto v = scalar(compress["min_bytes"]); !v.empty()) {
        CAVEMAN_RETURN_IF_ERROR(parse_count(v, "compress.min_bytes", 1, &config->min_bytes));
      }
      if (auto v = scalar(compress["budget_tokens"]); !v.empty()) {
        CAVEMAN_RETURN_IF_ERROR(parse_count(v, "compress.budget_tokens", 0, &config->budget_tokens));
      }
      if (auto v = scalar(compress["min_saving_tokens"]); !v.empty()) {
        CAVEMAN_RETURN_IF_ERROR(
            parse_count(v, "compress.min_saving_tokens", 0, &config->min_saving_tokens));
      }
    }
    CAVEMAN_RETURN_IF_ERROR(apply_optimizer_yaml(root, config));
    if (YAML::Node upstream = root["upstream"]; upstream && upstream.IsMap()) {
      if (auto v = scalar(upstream["timeout_ms"]); !v.empty()) {
        CAVEMAN_RETURN_IF_ERROR(parse_count(v, "upstream.timeout_ms", 1, &config->upstream_timeout_ms));
      }
      if (auto v = scalar(upstream["connect_timeout_ms"]); !v.empty()) {
        CAVEMAN_RETURN_IF_ERROR(
            parse_count(v, "upstream.connect_timeout_ms", 1, &config->connect_timeout_ms));
      }
    }
    if (YAML::Node server = root["server"]; server && server.IsMap()) {
      std::int64_t n = 0;
      if (auto v = scalar(server["threads"]); !v.empty()) {
        CAVEMAN_RETURN_IF_ERROR(parse_count(v, "server.threads", 1, &n));
        config->worker_threads = static_cast<int>(std::min<std::int64_t>(n, 4096));
      }
      if (auto v = scalar(server["max_queue"]); !v.empty()) {
        CAVEMAN_RETURN_IF_ERROR(parse_count(v, "server.max_queue", 1, &n));
        config->max_queued = static_cast<int>(std::min<std::int64_t>(n, 1 << 20));
      }
    }
  } catch (const YAML::Exception& e) {
    return invalid(std::string("caveman.yaml: ") + e.what());
  }
  return Status::Ok();
}

}  // namespace

bool optimizer_enabled(const Config& config, std::string_view id) {
  auto it = config.optimizers.find(std::string(id));
  return it == config.optimizers.end() || it->second;
}

std::string normalize_mode(std::string_view mode) {
  for (std::string_view m : kModes) {
    if (m == mode) return std::string(m);
  }
  return "record";
}

Result<Config> parse_config(std::string_view yaml, const EnvLookup& env, std::string home,
                            std::string config_path) {
  Config config;
  config.home = std::move(home);
  config.config_path = std::move(config_path);
  config.provider_base_urls = {{"anthropic", "https://api.anthropic.com"},
                               {"openai", "https://api.openai.com"},
                               {"gemini", "https://generativelanguage.googleapis.com"}};
  CAVEMAN_RETURN_IF_ERROR(apply_yaml(yaml, &config));

  if (auto v = env("CAVEMAN_LABEL")) config.label = *v;
  if (auto v = env("CAVEMAN_MODE")) config.mode = *v;
  if (auto v = env("CAVEMAN_LISTEN")) config.listen = *v;
  config.mode = normalize_mode(config.mode);
  CAVEMAN_ASSIGN_OR_RETURN(base::ListenAddress listen,
                           base::parse_loopback_listen(config.listen, codes::kInvalidConfig));
  config.listen_host = std::move(listen.host);
  config.listen_port = listen.port;

  config.recovery_via_mcp = env("CAVEMAN_RECOVERY").value_or("") == "mcp";
  CAVEMAN_RETURN_IF_ERROR(env_count(env, "CAVE_MAX_REQUEST_BYTES", 1, &config.max_request_bytes));
  CAVEMAN_RETURN_IF_ERROR(
      env_count(env, "CAVE_GATEWAY_UPSTREAM_TIMEOUT_MS", 1, &config.upstream_timeout_ms));
  CAVEMAN_RETURN_IF_ERROR(
      env_count(env, "CAVE_GATEWAY_CONNECT_TIMEOUT_MS", 1, &config.connect_timeout_ms));
  CAVEMAN_RETURN_IF_ERROR(env_count(env, "CAVEMAN_COMPRESS_MIN_BYTES", 1, &config.min_bytes));
  CAVEMAN_RETURN_IF_ERROR(
      env_count(env, "CAVEMAN_COMPRESS_BUDGET_TOKENS", 0, &config.budget_tokens));
  CAVEMAN_RETURN_IF_ERROR(
      env_count(env, "CAVEMAN_COMPRESS_MIN_SAVING_TOKENS", 0, &config.min_saving_tokens));
  if (auto v = env("CAVEMAN_CANARY_PERCENT")) {
    std::int64_t p = 0;
    CAVEMAN_RETURN_IF_ERROR(parse_count(*v, "CAVEMAN_CANARY_PERCENT", 0, &p));
    if (p > 100) return invalid("CAVEMAN_CANARY_PERCENT must be 0..100");
    config.canary_percent = static_cast<int>(p);
  }
  config.test_clock_manual = env("CAVEMAN_TEST_CLOCK").value_or("") == "manual";
  if (auto v = env("CAVEMAN_OBSERVE_ESTIMATE"); v && !parse_bool(*v, &config.observe_estimate)) {
    return invalid("CAVEMAN_OBSERVE_ESTIMATE must be true or false");
  }
  if (auto v = env("CAVEMAN_PROXY_THREADS")) {
    std::int64_t n = 0;
    CAVEMAN_RETURN_IF_ERROR(parse_count(*v, "CAVEMAN_PROXY_THREADS", 1, &n));
    config.worker_threads = static_cast<int>(std::min<std::int64_t>(n, 4096));
  }
  CAVEMAN_RETURN_IF_ERROR(
      env_count(env, "CAVEMAN_SHUTDOWN_GRACE_MS", 0, &config.shutdown_grace_ms));
  config.ssrf_allowlist = env("CAVE_SSRF_ALLOWLIST").value_or("");
  // Lowercase first, as curl reads them.
  std::optional<std::string> proxy = env("https_proxy");
  if (!proxy) proxy = env("HTTPS_PROXY");
  if (proxy) {
    Result<std::optional<OutboundProxy>> parsed = parse_outbound_proxy(*proxy);
    if (!parsed.ok()) return parsed.status();
    config.https_proxy = std::move(*parsed);
  }
  std::optional<std::string> no_proxy = env("no_proxy");
  config.no_proxy = no_proxy ? *no_proxy : env("NO_PROXY").value_or("");
  config.owner = env("CAVEMAN_PROXY_OWNER").value_or("start") == "wrap" ? "wrap" : "start";
  config.db_path = env("CAVEMAN_DB").value_or(config.home.empty() ? std::string(":memory:")
                                                                  : config.home + "/caveman.db");
  std::sort(config.compat.begin(), config.compat.end(),
            [](const CompatMount& a, const CompatMount& b) { return a.name < b.name; });
  return config;
}

Result<Config> load_config(const EnvLookup& env) {
  CAVEMAN_ASSIGN_OR_RETURN(std::string home,
                           base::ensure_caveman_home(env, codes::kHomeUnavailable));
  std::string path = env("CAVEMAN_CONFIG").value_or(home + "/caveman.yaml");
  std::string yaml;
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::ostringstream text;
    text << in.rdbuf();
    yaml = text.str();
  }
  return parse_config(yaml, env, std::move(home), std::move(path));
}

}  // namespace caveman::proxy
