#include "config.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace caveman::proxy {
namespace {

Result<Config> parse(std::string_view yaml, std::map<std::string, std::string> env = {}) {
  return parse_config(yaml, map_env(std::move(env)), "/tmp/home", "/tmp/home/caveman.yaml");
}

TEST(ProxyConfig, DefaultsAreRecordOnLoopback8787) {
  Result<Config> c = parse("");
  ASSERT_OK(c);
  EXPECT_EQ(c->mode, "record");
  EXPECT_EQ(c->listen_host, "127.0.0.1");
  EXPECT_EQ(c->listen_port, 8787);
  EXPECT_EQ(c->label, "local");
  EXPECT_EQ(c->min_bytes, 512);
  EXPECT_EQ(c->max_request_bytes, 32LL * 1024 * 1024);
  EXPECT_EQ(c->upstream_timeout_ms, 900000);
  EXPECT_EQ(c->provider_base_urls.at("anthropic"), "https://api.anthropic.com");
  EXPECT_EQ(c->provider_base_urls.at("openai"), "https://api.openai.com");
  EXPECT_EQ(c->provider_base_urls.at("gemini"), "https://generativelanguage.googleapis.com");
  EXPECT_EQ(c->db_path, "/tmp/home/caveman.db");
  EXPECT_FALSE(c->recovery_via_mcp);
}

TEST(ProxyConfig, ReadsEveryYamlKey) {
  Result<Config> c = parse(R"(
label: team-a
mode: compress
listen: localhost:9999
providers:
  anthropic:
    base_url: http://127.0.0.1:18001
compat:
  zeta:
    base_url: http://127.0.0.1:11434/v1
  ollama:
    base_url: http://127.0.0.1:11434/v1
    api_key_env: OLLAMA_KEY
compress:
  min_bytes: 100
upstream:
  timeout_ms: 1234
  connect_timeout_ms: 55
server:
  threads: 7
  max_queue: 9
)");
  ASSERT_OK(c);
  EXPECT_EQ(c->label, "team-a");
  EXPECT_EQ(c->mode, "compress");
  EXPECT_EQ(c->listen_host, "127.0.0.1");
  EXPECT_EQ(c->listen_port, 9999);
  EXPECT_EQ(c->provider_base_urls.at("anthropic"), "http://127.0.0.1:18001");
  ASSERT_EQ(c->compat.size(), 2u);
  EXPECT_EQ(c->compat[0].name, "ollama");  // sorted by name
  EXPECT_EQ(c->compat[0].api_key_env, "OLLAMA_KEY");
  EXPECT_EQ(c->compat[1].name, "zeta");
  EXPECT_EQ(c->min_bytes, 100);
  EXPECT_EQ(c->upstream_timeout_ms, 1234);
  EXPECT_EQ(c->connect_timeout_ms, 55);
  EXPECT_EQ(c->worker_threads, 7);
  EXPECT_EQ(c->max_queued, 9);
}

TEST(ProxyConfig, EnvironmentWinsOverYaml) {
  Result<Config> c = parse("mode: compress\nlisten: 127.0.0.1:1\nlabel: yaml\n",
                           {{"CAVEMAN_MODE", "record"},
                            {"CAVEMAN_LISTEN", "[::1]:8788"},
                            {"CAVEMAN_LABEL", "env"},
                            {"CAVEMAN_RECOVERY", "mcp"},
                            {"CAVE_MAX_REQUEST_BYTES", "1000"},
                            {"CAVE_GATEWAY_UPSTREAM_TIMEOUT_MS", "42"},
                            {"CAVEMAN_DB", "/x/y.db"},
                            {"CAVE_SSRF_ALLOWLIST", "127.0.0.1"}});
  ASSERT_OK(c);
  EXPECT_EQ(c->mode, "record");
  EXPECT_EQ(c->listen_host, "::1");
  EXPECT_EQ(c->listen_port, 8788);
  EXPECT_EQ(c->label, "env");
  EXPECT_TRUE(c->recovery_via_mcp);
  EXPECT_EQ(c->max_request_bytes, 1000);
  EXPECT_EQ(c->upstream_timeout_ms, 42);
  EXPECT_EQ(c->db_path, "/x/y.db");
  EXPECT_EQ(c->ssrf_allowlist, "127.0.0.1");
}

TEST(ProxyConfig, CompressEngineKnobsHaveProxyDefaultsYamlAndEnv) {
  Result<Config> d = parse("");
  ASSERT_OK(d);
  EXPECT_EQ(d->budget_tokens, 25000);     // the engine's default budget
  EXPECT_EQ(d->min_saving_tokens, 256);   // one retrieve costs more than a smaller saving
  Result<Config> y = parse("compress:\n  budget_tokens: 9000\n  min_saving_tokens: 0\n");
  ASSERT_OK(y);
  EXPECT_EQ(y->budget_tokens, 9000);
  EXPECT_EQ(y->min_saving_tokens, 0);
  Result<Config> e = parse("compress:\n  budget_tokens: 9000\n",
                           {{"CAVEMAN_COMPRESS_BUDGET_TOKENS", "0"},
                            {"CAVEMAN_COMPRESS_MIN_SAVING_TOKENS", "512"}});
  ASSERT_OK(e);
  EXPECT_EQ(e->budget_tokens, 0);  // 0 = no budget
  EXPECT_EQ(e->min_saving_tokens, 512);
  EXPECT_FALSE(parse("compress:\n  budget_tokens: lots\n").ok());
  EXPECT_FALSE(parse("", {{"CAVEMAN_COMPRESS_MIN_SAVING_TOKENS", "-1"}}).ok());
}

TEST(ProxyConfig, OptimizersCanaryAndEstimateSwitches) {
  Result<Config> d = parse("mode: active\n");
  ASSERT_OK(d);
  EXPECT_EQ(d->mode, "active");
  EXPECT_TRUE(optimizer_enabled(*d, kOptimizerAnthropicBreakpoints));  // absent = on
  EXPECT_TRUE(optimizer_enabled(*d, kOptimizerOpenaiCacheKey));
  EXPECT_EQ(d->canary_percent, 10);
  EXPECT_TRUE(d->observe_estimate);
  Result<Config> c = parse(
      "optimizers:\n  anthropic-cache-breakpoints: false\ncanary:\n  percent: 50\n"
      "estimate:\n  record: false\n");
  ASSERT_OK(c);
  EXPECT_FALSE(optimizer_enabled(*c, kOptimizerAnthropicBreakpoints));
  EXPECT_TRUE(optimizer_enabled(*c, kOptimizerOpenaiCacheKey));
  EXPECT_EQ(c->canary_percent, 50);
  EXPECT_FALSE(c->observe_estimate);
  Result<Config> e = parse("", {{"CAVEMAN_CANARY_PERCENT", "100"}, {"CAVEMAN_OBSERVE_ESTIMATE", "0"}});
  ASSERT_OK(e);
  EXPECT_EQ(e->canary_percent, 100);
  EXPECT_FALSE(e->observe_estimate);
  EXPECT_FALSE(parse("canary:\n  percent: 101\n").ok());
  EXPECT_FALSE(parse("optimizers:\n  openai-prompt-cache-key: maybe\n").ok());
}

TEST(ProxyConfig, ReadsTheOutboundProxyAsCurlDoes) {
  Result<Config> none = parse("");
  ASSERT_OK(none);
  EXPECT_FALSE(none->https_proxy.has_value());
  // The lowercase name wins, as in curl.
  Result<Config> c = parse("", {{"https_proxy", "http://u:p@127.0.0.1:3128"},
                               {"HTTPS_PROXY", "http://ignored:1"},
                               {"NO_PROXY", "localhost,.corp"}});
  ASSERT_OK(c);
  ASSERT_TRUE(c->https_proxy.has_value());
  EXPECT_EQ(c->https_proxy->host, "127.0.0.1");
  EXPECT_EQ(c->https_proxy->port, 3128);
  EXPECT_EQ(c->https_proxy->user, "u");
  EXPECT_EQ(c->no_proxy, "localhost,.corp");
  Result<Config> bad = parse("", {{"HTTPS_PROXY", "socks5://127.0.0.1:1080"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().error_code(), "cave_invalid_config");
}

TEST(ProxyConfig, UnknownModeIsRecord) {
  for (const char* mode : {"Compress", "turbo", "compres", "RECORD"}) {
    Result<Config> c = parse(std::string("mode: ") + mode + "\n");
    ASSERT_OK(c);
    EXPECT_EQ(c->mode, "record") << mode;
  }
  EXPECT_EQ(normalize_mode("pixel"), "pixel");
  EXPECT_EQ(normalize_mode("shadow"), "shadow");
}

TEST(ProxyConfig, NonLoopbackListenIsRefused) {
  for (const char* listen : {"0.0.0.0:8787", "192.168.1.5:8787", "example.com:80", "[::]:8787"}) {
    Result<Config> c = parse("", {{"CAVEMAN_LISTEN", listen}});
    ASSERT_FALSE(c.ok()) << listen;
    EXPECT_EQ(c.status().error_code(), "cave_listen_not_loopback") << listen;
  }
  for (const char* listen : {"127.0.0.2:8787", "LOCALHOST:1", "[::1]:2", "127.0.0.1:0"}) {
    EXPECT_OK(parse("", {{"CAVEMAN_LISTEN", listen}})) ;
  }
}

TEST(ProxyConfig, MalformedListenAndNumbersAreConfigErrors) {
  for (const char* listen : {"8787", "127.0.0.1:", "127.0.0.1:99999", "127.0.0.1:x", "::1:80"}) {
    Result<Config> c = parse("", {{"CAVEMAN_LISTEN", listen}});
    ASSERT_FALSE(c.ok()) << listen;
    EXPECT_EQ(c.status().error_code(), "cave_invalid_config") << listen;
  }
  EXPECT_FALSE(parse("compress:\n  min_bytes: -3\n").ok());
  EXPECT_FALSE(parse("", {{"CAVE_MAX_REQUEST_BYTES", "12abc"}}).ok());
}

TEST(ProxyConfig, BadYamlAndCompatEntriesAreRejected) {
  EXPECT_EQ(parse("mode: [unclosed\n").status().error_code(), "cave_invalid_config");
  EXPECT_EQ(parse("- a\n- b\n").status().error_code(), "cave_invalid_config");
  EXPECT_FALSE(parse("compat:\n  Bad_Name:\n    base_url: http://x\n").ok());
  EXPECT_FALSE(parse("compat:\n  ok:\n    api_key_env: K\n").ok());  // base_url required
  EXPECT_FALSE(parse("compat:\n  ok:\n    base_url: ftp://x\n").ok());
  EXPECT_FALSE(parse("providers:\n  openai:\n    base_url: not-a-url\n").ok());
}

TEST(ProxyConfig, LoadConfigReadsTheFileAndToleratesItsAbsence) {
  testing::TempDir dir;
  Result<Config> none = load_config(map_env({{"CAVEMAN_HOME", dir.path()}}));
  ASSERT_OK(none);
  EXPECT_EQ(none->mode, "record");
  EXPECT_EQ(none->home, dir.path());
  testing::write_file(dir.file("caveman.yaml"), "mode: compress\nlabel: filed\n");
  Result<Config> filed = load_config(map_env({{"CAVEMAN_HOME", dir.path()}}));
  ASSERT_OK(filed);
  EXPECT_EQ(filed->mode, "compress");
  EXPECT_EQ(filed->label, "filed");
  testing::write_file(dir.file("other.yaml"), "label: other\n");
  Result<Config> other =
      load_config(map_env({{"CAVEMAN_HOME", dir.path()}, {"CAVEMAN_CONFIG", dir.file("other.yaml")}}));
  ASSERT_OK(other);
  EXPECT_EQ(other->label, "other");
}

}  // namespace
}  // namespace caveman::proxy
