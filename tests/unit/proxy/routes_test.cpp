#include "routes.h"

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "url.h"

namespace caveman::proxy {
namespace {

Config test_config() {
  Result<Config> c = parse_config(R"(
providers:
  anthropic:
    base_url: http://127.0.0.1:18001
  gemini:
    base_url: https://gem.example/base/
compat:
  ollama:
    base_url: http://127.0.0.1:11434/v1
  openrouter:
    base_url: https://openrouter.ai/api/v1
)",
                                  map_env({}), "/h", "/h/caveman.yaml");
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  return *c;
}

Route must_match(std::string_view target, const Config& config) {
  Result<Route> r = match_route("POST", target, config);
  EXPECT_TRUE(r.ok()) << target << ": " << r.status().ToString();
  return r.ok() ? *r : Route{};
}

TEST(ProxyRoutes, AnthropicRoutesKeepTheQueryString) {
  Config c = test_config();
  Route r = must_match("/v1/messages?beta=true", c);
  EXPECT_EQ(r.provider, Provider::kAnthropic);
  EXPECT_EQ(r.endpoint, Endpoint::kMessages);
  EXPECT_EQ(r.upstream_url, "http://127.0.0.1:18001/v1/messages?beta=true");
  EXPECT_EQ(r.origin, "http://127.0.0.1:18001");
  EXPECT_EQ(r.upstream_host, "127.0.0.1");
  EXPECT_EQ(r.upstream_port, 18001);
  Route count = must_match("/anthropic/v1/messages/count_tokens", c);
  EXPECT_EQ(count.endpoint, Endpoint::kCountTokens);
  EXPECT_EQ(count.upstream_url, "http://127.0.0.1:18001/v1/messages/count_tokens");
}

TEST(ProxyRoutes, OpenAIRoutesWithAndWithoutPrefix) {
  Config c = test_config();
  struct Case {
    const char* target;
    Endpoint endpoint;
    const char* url;
  } cases[] = {
      {"/v1/chat/completions", Endpoint::kChatCompletions, "https://api.openai.com/v1/chat/completions"},
      {"/openai/v1/chat/completions", Endpoint::kChatCompletions, "https://api.openai.com/v1/chat/completions"},
      {"/v1/responses", Endpoint::kResponses, "https://api.openai.com/v1/responses"},
      {"/openai/v1/responses?x=1", Endpoint::kResponses, "https://api.openai.com/v1/responses?x=1"},
      {"/v1/embeddings", Endpoint::kEmbeddings, "https://api.openai.com/v1/embeddings"},
  };
  for (const Case& k : cases) {
    Route r = must_match(k.target, c);
    EXPECT_EQ(r.provider, Provider::kOpenAI) << k.target;
    EXPECT_EQ(r.endpoint, k.endpoint) << k.target;
    EXPECT_EQ(r.upstream_url, k.url) << k.target;
  }
}

TEST(ProxyRoutes, GeminiRoutesNameTheModelAndJoinTheBasePath) {
  Config c = test_config();
  Route r = must_match("/v1beta/models/gemini-2.0-flash:generateContent", c);
  EXPECT_EQ(r.provider, Provider::kGemini);
  EXPECT_EQ(r.endpoint, Endpoint::kGenerateContent);
  EXPECT_EQ(r.model, "gemini-2.0-flash");
  EXPECT_EQ(r.upstream_url, "https://gem.example/base/v1beta/models/gemini-2.0-flash:generateContent");
  Route s = must_match("/gemini/v1beta/models/m1:streamGenerateContent?alt=sse", c);
  EXPECT_EQ(s.endpoint, Endpoint::kStreamGenerate);
  EXPECT_EQ(s.upstream_url, "https://gem.example/base/v1beta/models/m1:streamGenerateContent?alt=sse");
  EXPECT_EQ(must_match("/v1beta/models/m1:countTokens", c).endpoint, Endpoint::kGeminiCountTokens);
  for (const char* bad : {"/v1beta/models/:generateContent", "/v1beta/models/a/b:generateContent",
                          "/v1beta/models/m1:embedContent", "/v1beta/models/m1"}) {
    EXPECT_EQ(match_route("POST", bad, c).status().error_code(), "cave_route_not_found") << bad;
  }
}

TEST(ProxyRoutes, CompatMountsJoinOverlappingPaths) {
  Config c = test_config();
  Route r = must_match("/compat/ollama/v1/chat/completions", c);
  EXPECT_EQ(r.provider, Provider::kCompat);
  EXPECT_EQ(r.compat_name, "ollama");
  EXPECT_EQ(r.endpoint, Endpoint::kChatCompletions);
  EXPECT_EQ(r.upstream_url, "http://127.0.0.1:11434/v1/chat/completions");
  Route r2 = must_match("/compat/ollama/chat/completions?q=1", c);
  EXPECT_EQ(r2.upstream_url, "http://127.0.0.1:11434/v1/chat/completions?q=1");
  Route r3 = must_match("/compat/openrouter/v1/responses", c);
  EXPECT_EQ(r3.upstream_url, "https://openrouter.ai/api/v1/responses");
  EXPECT_EQ(r3.endpoint, Endpoint::kResponses);
  EXPECT_EQ(must_match("/compat/ollama/api/generate", c).endpoint, Endpoint::kOther);
}

TEST(ProxyRoutes, CompatPathsCannotSmuggleSeparatorsOrDotSegments) {
  Config c = test_config();
  for (const char* bad : {"/compat/ollama/..%2Fopenrouter/v1/chat", "/compat/ollama/a%2fb",
                          "/compat/ollama/a%5Cb", "/compat/ollama/../x", "/compat/ollama/./x",
                          "/compat/ollama//x", "/compat/ollama", "/compat/ollama/",
                          "/compat/unknown/v1/chat/completions", "/compat/ollama/%2e%2e/x"}) {
    Result<Route> r = match_route("POST", bad, c);
    EXPECT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().error_code(), "cave_route_not_found") << bad;
  }
}

TEST(ProxyRoutes, AgentPrefixAttributesAndRewrites) {
  Config c = test_config();
  Route r = must_match("/w/claude-code/v1/messages?beta=true", c);
  EXPECT_EQ(r.agent, "claude-code");
  EXPECT_EQ(r.path, "/v1/messages");
  EXPECT_EQ(r.upstream_url, "http://127.0.0.1:18001/v1/messages?beta=true");
  Route o = must_match("/w/codex.1_x/openai/v1/responses", c);
  EXPECT_EQ(o.agent, "codex.1_x");
  EXPECT_EQ(o.endpoint, Endpoint::kResponses);
  for (const char* bad : {"/w/Bad/v1/messages", "/w/-x/v1/messages", "/w//v1/messages", "/w/a/",
                          "/w/a", "/w/a%2Fb/v1/messages"}) {
    EXPECT_EQ(match_route("POST", bad, c).status().error_code(), "cave_route_not_found") << bad;
  }
  EXPECT_TRUE(valid_route_name(std::string(64, 'a')));
  EXPECT_FALSE(valid_route_name(std::string(65, 'a')));
}

TEST(ProxyRoutes, UnknownPathsAndMethodsAreNotFound) {
  Config c = test_config();
  EXPECT_EQ(match_route("GET", "/v1/messages", c).status().error_code(), "cave_route_not_found");
  EXPECT_EQ(match_route("PUT", "/v1/chat/completions", c).status().error_code(),
            "cave_route_not_found");
  for (const char* bad : {"/", "/v1/models", "/v1/messages/", "/v1/messagesx", "/openai/v1/messages",
                          "/anthropic/v1/chat/completions", "/v2/messages"}) {
    EXPECT_EQ(match_route("POST", bad, c).status().error_code(), "cave_route_not_found") << bad;
  }
}

TEST(ProxyRoutes, UnusableBaseUrlIsUpstreamUnavailable) {
  Config c = test_config();
  c.provider_base_urls["openai"] = "relative/path";
  EXPECT_EQ(match_route("POST", "/v1/responses", c).status().error_code(),
            "cave_upstream_unavailable");
}

TEST(ProxyUrl, ParsesOriginsAndRefusesOthers) {
  std::optional<Url> u = parse_url("HTTPS://Api.Example.com:8443/v1/");
  ASSERT_TRUE(u);
  EXPECT_EQ(u->scheme, "https");
  EXPECT_EQ(u->host, "api.example.com");
  EXPECT_EQ(u->port, 8443);
  EXPECT_EQ(u->path, "/v1");
  EXPECT_EQ(u->origin(), "https://api.example.com:8443");
  EXPECT_EQ(parse_url("http://[::1]:9/")->origin(), "http://[::1]:9");
  EXPECT_EQ(parse_url("http://h")->origin(), "http://h");
  for (const char* bad : {"h:80", "ftp://h", "http://", "http://u@h", "http://h:0", "http://h:70000",
                          "http://h/?q", "http://h#f", "http://a b"}) {
    EXPECT_FALSE(parse_url(bad)) << bad;
  }
  EXPECT_EQ(join_overlapping("/v1", "/v1/chat/completions"), "/v1/chat/completions");
  EXPECT_EQ(join_overlapping("/api/v1", "/v1/x"), "/api/v1/x");
  EXPECT_EQ(join_overlapping("", "/x"), "/x");
  EXPECT_EQ(join_overlapping("/a/b", "/c"), "/a/b/c");
}

}  // namespace
}  // namespace caveman::proxy
