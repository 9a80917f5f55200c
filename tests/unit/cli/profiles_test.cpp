#include "profiles.h"

#include <gtest/gtest.h>

#include "profiles_data.h"
#include "support/test_support.h"

namespace caveman::cli {
namespace {

TEST(Profiles, EveryEmbeddedFileParses) {
  ASSERT_EQ(embedded_profile_texts().size(), 7u);  // claude codex gemini aider opencode qwen generic
  for (std::string_view text : embedded_profile_texts()) {
    EXPECT_OK(parse_profile(text));
  }
  EXPECT_EQ(builtin_profiles().size(), 7u);
}

TEST(Profiles, QwenCodeGoesThroughOpenAiBaseUrl) {
  const AgentProfile* qwen = find_profile("qwen");
  ASSERT_NE(qwen, nullptr);
  EXPECT_EQ(qwen->name, "Qwen Code");
  Environment env = wrap_environment(Environment({{"OPENAI_API_BASE", "x"}}), *qwen, "http://h:1/w/qwen");
  EXPECT_EQ(env.get("OPENAI_BASE_URL").value_or(""), "http://h:1/w/qwen/v1");
  EXPECT_FALSE(env.get("OPENAI_API_BASE").has_value());
}

TEST(Profiles, FoundByIdOrBinaryButNeverGeneric) {
  ASSERT_NE(find_profile("claude"), nullptr);
  EXPECT_EQ(find_profile("claude")->mcp, McpDelivery::kClaudeMcpConfig);
  EXPECT_EQ(find_profile("aider")->mcp, McpDelivery::kNone);
  EXPECT_EQ(find_profile("generic"), nullptr);
  EXPECT_EQ(find_profile("vim"), nullptr);
  EXPECT_EQ(generic_profile().id, "generic");
}

TEST(Profiles, RejectsMalformed) {
  EXPECT_FALSE(parse_profile("[]").ok());
  EXPECT_FALSE(parse_profile(R"({"id":"x","name":"x"})").ok());  // no binary
  EXPECT_FALSE(parse_profile(R"({"id":"x","name":"x","binary":"x","mcp":"maybe"})").ok());
  EXPECT_FALSE(parse_profile(R"({"id":"x","name":"x","binary":"x","env":{"A":1}})").ok());
}

TEST(Profiles, RendersEveryTemplateOccurrence) {
  EXPECT_EQ(render_template("{{base_url}}/v1 {{base_url}}", "http://h:1/w/a"),
            "http://h:1/w/a/v1 http://h:1/w/a");
  EXPECT_EQ(render_template("plain", "x"), "plain");
}

TEST(Profiles, ClaudeEnvironmentPointsAtAttributedGateway) {
  Environment base({{"PATH", "/bin"}, {"ANTHROPIC_BASE_URL", "https://elsewhere"}});
  Environment env = wrap_environment(base, *find_profile("claude"), "http://127.0.0.1:9/w/claude");
  EXPECT_EQ(env.get("ANTHROPIC_BASE_URL").value_or(""), "http://127.0.0.1:9/w/claude");
  EXPECT_EQ(env.get("OPENAI_BASE_URL").value_or(""), "http://127.0.0.1:9/w/claude/v1");
  EXPECT_EQ(env.get("ENABLE_TOOL_SEARCH").value_or(""), "auto");
  EXPECT_EQ(env.get("PATH").value_or(""), "/bin");
}

TEST(Profiles, LoopbackBypassesTheCallersProxy) {
  Environment plain = wrap_environment(Environment({{"PATH", "/bin"}}), *find_profile("claude"), "http://x");
  EXPECT_FALSE(plain.get("NO_PROXY").has_value());  // no proxy configured: nothing added
  Environment base({{"HTTPS_PROXY", "http://proxy.corp:3128"}, {"no_proxy", "corp.internal, localhost"}});
  Environment env = wrap_environment(base, *find_profile("claude"), "http://127.0.0.1:9/w/claude");
  EXPECT_EQ(env.get("no_proxy").value_or(""), "corp.internal, localhost,127.0.0.1,::1");
  EXPECT_EQ(env.get("NO_PROXY").value_or(""), "corp.internal, localhost,127.0.0.1,::1");
  EXPECT_EQ(env.get("HTTPS_PROXY").value_or(""), "http://proxy.corp:3128");
  Environment again = env;
  bypass_proxy_for_loopback(again);
  EXPECT_EQ(again.get("NO_PROXY"), env.get("NO_PROXY"));  // idempotent
}

TEST(Profiles, EnvIfUnsetKeepsTheCallersValue) {
  Environment base({{"ENABLE_TOOL_SEARCH", "false"}});
  Environment env = wrap_environment(base, *find_profile("claude"), "http://x");
  EXPECT_EQ(env.get("ENABLE_TOOL_SEARCH").value_or(""), "false");
}

TEST(Profiles, CodexUsesConfigOverridesNotBaseUrlVariables) {
  const AgentProfile& codex = *find_profile("codex");
  Environment env = wrap_environment(Environment(), codex, "http://h:1/w/codex");
  EXPECT_FALSE(env.get("OPENAI_BASE_URL").has_value());
  auto args = wrap_args(codex, "http://h:1/w/codex");
  ASSERT_EQ(args.size(), 4u);
  EXPECT_NE(args[1].find("base_url=\"http://h:1/w/codex/v1\""), std::string::npos);
}

TEST(Profiles, OpencodeConfigIsValidJsonAfterRendering) {
  Environment env = wrap_environment(Environment(), *find_profile("opencode"), "http://h:1/w/opencode");
  std::string cfg = env.get("OPENCODE_CONFIG_CONTENT").value_or("");
  EXPECT_NE(cfg.find("\"baseURL\":\"http://h:1/w/opencode/v1\""), std::string::npos);
}

}  // namespace
}  // namespace caveman::cli
