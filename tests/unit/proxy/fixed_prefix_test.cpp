// Issue 37, scope 5: what the proxy adds to an agent's fixed prefix, kept small. The injected
// caveman_retrieve tool (server-side recovery) is re-read on every turn of every session that
// gets it: its o200k tokens per wire format are pinned here (docs/economics.md, "The proxy's
// own additions to the fixed prefix").
#include <gtest/gtest.h>

#include <cstdio>

#include "caveman/tokens.h"
#include "retrieve_loop.h"

namespace caveman::proxy {
namespace {

std::int64_t added_tokens(Endpoint e, const std::string& body) {
  Result<std::string> with_tool = inject_retrieve_tool(e, body);
  EXPECT_TRUE(with_tool.ok());
  const tokens::Counter& c = tokens::default_counter();
  return static_cast<std::int64_t>(c.count(*with_tool)) - static_cast<std::int64_t>(c.count(body));
}

TEST(FixedPrefix, TheInjectedRetrieveToolStaysUnder300Tokens) {
  struct Case {
    const char* name;
    Endpoint endpoint;
    std::string body;
  } cases[] = {
      {"anthropic messages", Endpoint::kMessages,
       R"({"model":"m","max_tokens":9,"tools":[{"name":"a","input_schema":{}}],"messages":[]})"},
      {"openai chat", Endpoint::kChatCompletions,
       R"({"model":"m","tools":[{"type":"function","function":{"name":"a"}}],"messages":[]})"},
      {"openai responses", Endpoint::kResponses, R"({"model":"m","tools":[],"input":"x"})"},
      {"gemini", Endpoint::kGenerateContent, R"({"contents":[],"tools":[]})"},
  };
  for (const Case& c : cases) {
    std::int64_t n = added_tokens(c.endpoint, c.body);
    std::printf("caveman_retrieve injected into %s: +%lld o200k tokens\n", c.name,
                static_cast<long long>(n));
    EXPECT_GT(n, 50) << c.name;
    EXPECT_LT(n, 300) << c.name;
  }
}

}  // namespace
}  // namespace caveman::proxy
