#include "headers.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace caveman::proxy {
namespace {

Route route_for(Provider p, std::string compat = "") {
  Route r;
  r.provider = p;
  r.compat_name = std::move(compat);
  return r;
}

Config config_with_compat() {
  Config c;
  c.compat.push_back(CompatMount{"ollama", "http://127.0.0.1:11434/v1", "OLLAMA_KEY"});
  c.compat.push_back(CompatMount{"lmstudio", "http://127.0.0.1:1234/v1", ""});
  return c;
}

MappedHeaders map(Provider p, const HeaderList& in, std::map<std::string, std::string> env = {},
                  std::string compat = "") {
  Result<MappedHeaders> m = map_request_headers(route_for(p, compat), in, config_with_compat(), map_env(env));
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return m.ok() ? *m : MappedHeaders{};
}

TEST(ProxyHeaders, CredentialsAreForwardedExactlyAsReceived) {
  MappedHeaders bearer = map(Provider::kAnthropic, {{"Authorization", "Bearer sk-ant-oat01-abc"}},
                             {{"ANTHROPIC_API_KEY", "sk-ant-api-env"}});
  EXPECT_EQ(find_header(bearer.upstream, "authorization"), "Bearer sk-ant-oat01-abc");
  EXPECT_FALSE(find_header(bearer.upstream, "x-api-key"));  // Bearer stays Bearer
  EXPECT_EQ(bearer.credential_source, "request");

  MappedHeaders key = map(Provider::kAnthropic, {{"x-api-key", "sk-ant-api03-xyz"}});
  EXPECT_EQ(find_header(key.upstream, "x-api-key"), "sk-ant-api03-xyz");
  EXPECT_FALSE(find_header(key.upstream, "authorization"));

  MappedHeaders goog = map(Provider::kGemini, {{"x-goog-api-key", "AIzaSecret"}}, {{"GEMINI_API_KEY", "AIzaEnv"}});
  EXPECT_EQ(find_header(goog.upstream, "x-goog-api-key"), "AIzaSecret");

  MappedHeaders oai = map(Provider::kOpenAI, {{"Authorization", "Bearer sk-proj-1"}});
  EXPECT_EQ(find_header(oai.upstream, "Authorization"), "Bearer sk-proj-1");
}

TEST(ProxyHeaders, EnvKeysFillInOnlyWhenTheRequestHasNone) {
  std::map<std::string, std::string> env = {{"ANTHROPIC_API_KEY", "sk-ant-api-e"},
                                            {"OPENAI_API_KEY", "sk-e"},
                                            {"GOOGLE_API_KEY", "AIzaG"},
                                            {"OLLAMA_KEY", "ollama-k"}};
  MappedHeaders a = map(Provider::kAnthropic, {}, env);
  EXPECT_EQ(find_header(a.upstream, "x-api-key"), "sk-ant-api-e");
  EXPECT_EQ(a.credential_source, "env:ANTHROPIC_API_KEY");
  MappedHeaders o = map(Provider::kOpenAI, {}, env);
  EXPECT_EQ(find_header(o.upstream, "authorization"), "Bearer sk-e");
  MappedHeaders g = map(Provider::kGemini, {}, env);  // GEMINI_API_KEY unset → GOOGLE_API_KEY
  EXPECT_EQ(find_header(g.upstream, "x-goog-api-key"), "AIzaG");
  MappedHeaders c = map(Provider::kCompat, {}, env, "ollama");
  EXPECT_EQ(find_header(c.upstream, "authorization"), "Bearer ollama-k");
  MappedHeaders none = map(Provider::kCompat, {}, env, "lmstudio");  // empty api_key_env
  EXPECT_FALSE(find_header(none.upstream, "authorization"));
  EXPECT_EQ(none.credential_source, "none");
  // The placeholder some clients send is replaced by the env key.
  MappedHeaders ph = map(Provider::kOpenAI, {{"Authorization", "Bearer no-key-required"}}, env);
  EXPECT_EQ(find_header(ph.upstream, "authorization"), "Bearer sk-e");
}

TEST(ProxyHeaders, OnlyAllowlistedHeadersReachTheProvider) {
  HeaderList in = {{"Content-Type", "application/json"},
                   {"Accept", "text/event-stream"},
                   {"Accept-Encoding", "gzip"},
                   {"User-Agent", "Anthropic/JS 1.14.0"},
                   {"anthropic-version", "2026-10-21"},
                   {"anthropic-beta", "a,b"},
                   {"X-Stainless-Lang", "js"},
                   {"OpenAI-Organization", "org-1"},
                   {"idempotency-key", "k1"},
                   {"Cookie", "session=1"},
                   {"Host", "127.0.0.1:8787"},
                   {"x-caveman-bypass", "1"},
                   {"x-cave-agent", "claude"},
                   {"Connection", "keep-alive"},
                   {"traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
                   {"x-forwarded-for", "1.2.3.4"}};
  MappedHeaders m = map(Provider::kAnthropic, in);
  HeaderList expected_kept = {{"Content-Type", "application/json"},
                              {"Accept", "text/event-stream"},
                              {"Accept-Encoding", "gzip"},
                              {"User-Agent", "Anthropic/JS 1.14.0"},
                              {"anthropic-version", "2026-10-21"},
                              {"anthropic-beta", "a,b"},
                              {"X-Stainless-Lang", "js"},
                              {"OpenAI-Organization", "org-1"},
                              {"idempotency-key", "k1"}};
  EXPECT_EQ(m.upstream, expected_kept);
  Result<MappedHeaders> traced = map_request_headers(
      route_for(Provider::kOpenAI), in, Config{}, map_env({{"CAVE_PROPAGATE_TRACE_HEADERS_UPSTREAM", "1"}}));
  ASSERT_OK(traced);
  EXPECT_TRUE(find_header(traced->upstream, "traceparent"));
}

TEST(ProxyHeaders, AnthropicVersionIsAddedWhenAbsent) {
  MappedHeaders m = map(Provider::kAnthropic, {{"x-api-key", "k"}});
  EXPECT_EQ(find_header(m.upstream, "anthropic-version"), "2023-06-01");
  MappedHeaders o = map(Provider::kOpenAI, {});
  EXPECT_FALSE(find_header(o.upstream, "anthropic-version"));
}

TEST(ProxyHeaders, GeminiOAuthNeedsAQuotaProject) {
  Result<MappedHeaders> bad = map_request_headers(route_for(Provider::kGemini),
                                                  {{"Authorization", "Bearer ya29.token"}}, Config{}, map_env({}));
  EXPECT_EQ(bad.status().error_code(), "cave_header_mapping_failed");
  EXPECT_EQ(bad.status().message().find("ya29"), std::string::npos);  // no credential in errors
  Result<MappedHeaders> good = map_request_headers(
      route_for(Provider::kGemini),
      {{"Authorization", "Bearer ya29.token"}, {"x-goog-user-project", "my-proj"}}, Config{}, map_env({}));
  ASSERT_OK(good);
  EXPECT_EQ(find_header(good->upstream, "x-goog-user-project"), "my-proj");
}

TEST(ProxyHeaders, AuthModeFollowsHeaderShape) {
  EXPECT_EQ(classify_auth({{"Authorization", "Bearer sk-ant-oat01-x"}}, ""), AuthMode::kSubscription);
  EXPECT_EQ(classify_auth({{"Authorization", "Bearer sk-proj-x"}}, ""), AuthMode::kPayg);
  EXPECT_EQ(classify_auth({{"Authorization", "Bearer ya29.x"}}, ""), AuthMode::kOauth);
  EXPECT_EQ(classify_auth({{"Authorization", "Bearer a.b.c"}}, ""), AuthMode::kOauth);
  EXPECT_EQ(classify_auth({{"Authorization", "Bearer opaque"}}, ""), AuthMode::kOauth);
  EXPECT_EQ(classify_auth({{"Authorization", "Basic dTpw"}}, ""), AuthMode::kOauth);
  EXPECT_EQ(classify_auth({{"x-api-key", "sk-ant-api03-x"}}, ""), AuthMode::kPayg);
  EXPECT_EQ(classify_auth({{"x-goog-api-key", "AIza"}}, ""), AuthMode::kPayg);
  EXPECT_EQ(classify_auth({{"x-api-key", "k"}, {"User-Agent", "claude-cli/2.1.197 (external, cli)"}}, ""),
            AuthMode::kSubscription);
  EXPECT_EQ(classify_auth({}, "sk-env"), AuthMode::kPayg);
  EXPECT_EQ(classify_auth({}, ""), AuthMode::kUnknown);
}

TEST(ProxyHeaders, ResponseHeadersLoseHopByHopAndCaveHeaders) {
  HeaderList up = {{"Content-Type", "application/json"},
                   {"Content-Length", "12"},
                   {"Transfer-Encoding", "chunked"},
                   {"Connection", "keep-alive, X-Private"},
                   {"Keep-Alive", "timeout=5"},
                   {"X-Private", "1"},
                   {"Proxy-Authenticate", "x"},
                   {"x-cave-mode", "spoofed"},
                   {"X-Caveman-Recovery-Handle", "spoofed"},
                   {"request-id", "req_1"},
                   {"Content-Encoding", "gzip"},
                   {"anthropic-ratelimit-requests-remaining", "9"}};
  HeaderList expected = {{"request-id", "req_1"},
                         {"Content-Encoding", "gzip"},
                         {"anthropic-ratelimit-requests-remaining", "9"}};
  EXPECT_EQ(filter_response_headers(up), expected);
}

TEST(ProxyHeaders, ListValuesSplitOnCommasWithWhiteSpaceTrimmed) {
  using Tokens = std::vector<std::string_view>;
  EXPECT_EQ(header_list_tokens("keep-alive, Close"), (Tokens{"keep-alive", "Close"}));
  EXPECT_EQ(header_list_tokens(" gzip ,\tchunked\t"), (Tokens{"gzip", "chunked"}));
  EXPECT_EQ(header_list_tokens(",, x ,"), (Tokens{"x"}));
  EXPECT_TRUE(header_list_tokens(" \t ").empty());
  EXPECT_EQ(trim_ows("\t a b \t"), "a b");
}

}  // namespace
}  // namespace caveman::proxy

namespace caveman::proxy {
namespace {

// Issue 37: Claude Code's user agent makes the row `subscription`; its credential decides
// whether it is billed per token (the cost features' pay-as-you-go).
TEST(ProxyHeaders, AnApiKeyCredentialIsPayAsYouGoWhateverTheUserAgent) {
  HeaderList cli_key = {{"user-agent", "claude-cli/2.1.332 (external, cli)"},
                        {"x-api-key", "sk-ant-api03-x"}};
  EXPECT_EQ(classify_auth(cli_key, ""), AuthMode::kSubscription);
  EXPECT_TRUE(api_key_credential(cli_key));
  HeaderList cli_oauth = {{"user-agent", "claude-cli/2.1.332"},
                          {"authorization", "Bearer sk-ant-oat01-x"}};
  EXPECT_FALSE(api_key_credential(cli_oauth));
  EXPECT_FALSE(api_key_credential({{"authorization", "Bearer eyJ.a.b"}}));
  EXPECT_TRUE(api_key_credential({{"authorization", "Bearer sk-proj-x"}}));
  EXPECT_FALSE(api_key_credential({{"x-api-key", "no-key-required"}}));
  EXPECT_FALSE(api_key_credential({}));
}

}  // namespace
}  // namespace caveman::proxy
