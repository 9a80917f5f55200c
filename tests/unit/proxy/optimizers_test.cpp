// The frontier planner, prompt_cache_key, prefix components, the session book (cache-bust
// monitor, guard, canary) and the embedded price table.
#include "optimizers.h"

#include <gtest/gtest.h>

#include "cost_modes.h"
#include "prices.h"
#include "session_book.h"

namespace caveman::proxy {
namespace {

std::string plan_and_apply(const std::string& body, BreakpointPlan* plan_out = nullptr) {
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  EXPECT_TRUE(doc);
  BreakpointPlan plan = plan_breakpoints(body, *doc);
  std::string out = apply_splices(body, plan.splices);
  EXPECT_TRUE(JsonDoc::parse(out)) << out;
  if (plan_out != nullptr) *plan_out = plan;
  return out;
}

int count(const std::string& s, std::string_view needle) {
  int n = 0;
  for (std::size_t at = s.find(needle); at != std::string::npos; at = s.find(needle, at + 1)) ++n;
  return n;
}

// An SDK agent sends no cache_control: the planner marks the last message (frontier), the
// end of the system prompt and the message before the last.
TEST(FrontierPlanner, SdkAgentGetsThreeBreakpoints) {
  std::string body = R"({"model":"claude-sonnet-4-6","max_tokens":9,"tools":[{"name":"a","input_schema":{}}],)"
                     R"("system":"You are terse.","messages":[{"role":"user","content":"hi"},)"
                     R"({"role":"assistant","content":[{"type":"thinking","thinking":"x","signature":"s"},{"type":"tool_use","id":"t","name":"a","input":{}}]},)"
                     R"({"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"out"}]}]})";
  BreakpointPlan plan;
  std::string out = plan_and_apply(body, &plan);
  EXPECT_EQ(plan.existing, 0);
  EXPECT_EQ(plan.added, 3);
  EXPECT_EQ(count(out, "cache_control"), 3);
  // The system string became one text block carrying the breakpoint.
  EXPECT_NE(out.find(R"("system":[{"type":"text","text":"You are terse.","cache_control":{"type":"ephemeral"}}])"),
            std::string::npos) << out;
  EXPECT_NE(out.find(R"("content":"out","cache_control":{"type":"ephemeral"}})"), std::string::npos);
  EXPECT_NE(out.find(R"("input":{},"cache_control":{"type":"ephemeral"}})"), std::string::npos);  // not on thinking
  EXPECT_EQ(out.find(R"("signature":"s","cache_control")"), std::string::npos);
}

TEST(FrontierPlanner, NeverMovesTheClientsAndKeepsFourInTotal) {
  std::string cc = R"("cache_control":{"type":"ephemeral"})";
  std::string body = R"({"system":[{"type":"text","text":"s1",)" + cc + R"(},{"type":"text","text":"s2",)" + cc +
                     R"(}],"messages":[{"role":"user","content":[{"type":"text","text":"a",)" + cc +
                     R"(}]},{"role":"assistant","content":"b"},{"role":"user","content":"c"}]})";
  BreakpointPlan plan;
  std::string out = plan_and_apply(body, &plan);
  EXPECT_EQ(plan.existing, 3);
  EXPECT_EQ(plan.added, 1);  // the frontier only
  EXPECT_EQ(count(out, "cache_control"), 4);
  EXPECT_EQ(out.substr(0, body.find(R"("content":"c")")), body.substr(0, body.find(R"("content":"c")")));
  std::string full = R"({"messages":[{"role":"user","content":[)";
  for (int i = 0; i < 4; ++i) full += std::string(i ? "," : "") + R"({"type":"text","text":"x",)" + cc + "}";
  full += "]}]}";
  EXPECT_EQ(plan_and_apply(full), full);
}

TEST(FrontierPlanner, NothingBeforeAClientOneHourBreakpointAndNoEmptyText) {
  std::string body = R"({"system":"sys","messages":[{"role":"user","content":[{"type":"text","text":"q",)"
                     R"("cache_control":{"type":"ephemeral","ttl":"1h"}},{"type":"text","text":""}]}]})";
  BreakpointPlan plan;
  std::string out = plan_and_apply(body, &plan);
  EXPECT_EQ(plan.added, 0) << out;  // system precedes the 1 h one; the last block is empty
  std::string automatic = R"({"cache_control":{"type":"ephemeral"},"system":"sys","messages":[{"role":"user","content":"q"}]})";
  out = plan_and_apply(automatic, &plan);
  EXPECT_EQ(plan.existing, 1);
  EXPECT_EQ(plan.added, 1);  // system only: the automatic breakpoint holds the frontier
}

TEST(PromptCacheKey, AddedOnceStablePerSessionClientKeyWins) {
  std::string turn1 = R"({"model":"gpt-4.1","messages":[{"role":"system","content":"s"},{"role":"user","content":"task"}]})";
  std::string turn2 = R"({"model":"gpt-4.1","messages":[{"role":"system","content":"s"},{"role":"user","content":"task"},{"role":"assistant","content":"ok"},{"role":"user","content":"more"}]})";
  auto doc1 = JsonDoc::parse(turn1);
  auto doc2 = JsonDoc::parse(turn2);
  std::uint64_t s1 = session_fingerprint(Endpoint::kChatCompletions, *doc1, "agent", "gpt-4.1", "");
  std::uint64_t s2 = session_fingerprint(Endpoint::kChatCompletions, *doc2, "agent", "gpt-4.1", "");
  EXPECT_EQ(s1, s2);
  EXPECT_NE(s1, session_fingerprint(Endpoint::kChatCompletions, *doc1, "other", "gpt-4.1", ""));
  std::string key = prompt_cache_key_to_add(*doc1, s1);
  ASSERT_EQ(key.size(), 21u);
  std::string out = apply_splices(turn1, {prompt_cache_key_splice(*doc1, key)});
  EXPECT_EQ(out, turn1.substr(0, turn1.size() - 1) + R"(,"prompt_cache_key":")" + key + "\"}");
  auto with_key = JsonDoc::parse(out);
  EXPECT_EQ(prompt_cache_key_to_add(*with_key, s1), "");
}

TEST(RunOptimizers, PaygOnlyAndEachCanBeSwitchedOff) {
  Config config;
  Route anthropic;
  anthropic.provider = Provider::kAnthropic;
  anthropic.endpoint = Endpoint::kMessages;
  std::string body = R"({"system":"s","messages":[{"role":"user","content":"q"}]})";
  OptimizerOutcome o =
      run_optimizers(config, anthropic, AuthMode::kPayg, body, OptimizerContext{1});
  ASSERT_EQ(o.ids.size(), 1u);
  EXPECT_EQ(o.ids[0], kOptimizerAnthropicBreakpoints);
  EXPECT_TRUE(run_optimizers(config, anthropic, AuthMode::kSubscription, body, OptimizerContext{1})
                  .ids.empty());
  EXPECT_TRUE(
      run_optimizers(config, anthropic, AuthMode::kOauth, body, OptimizerContext{1}).ids.empty());
  config.optimizers[std::string(kOptimizerAnthropicBreakpoints)] = false;
  EXPECT_TRUE(
      run_optimizers(config, anthropic, AuthMode::kPayg, body, OptimizerContext{1}).ids.empty());
  EXPECT_TRUE(run_optimizers(config, anthropic, AuthMode::kPayg, "{not json", OptimizerContext{1})
                  .ids.empty());
}

TEST(SessionBook, CacheBustNamesTheChangedComponent) {
  SessionBook book;
  auto comps = [](std::uint64_t tools, std::uint64_t system, std::vector<std::uint64_t> msgs) {
    return PrefixComponents{tools, system, std::move(msgs)};
  };
  EXPECT_FALSE(book.observe(7, comps(1, 2, {10})).bust);
  EXPECT_FALSE(book.observe(7, comps(1, 2, {10, 11, 12})).bust);  // appended
  BustReport r = book.observe(7, comps(1, 2, {10, 99, 12, 13}));
  EXPECT_TRUE(r.bust);
  EXPECT_EQ(r.component, "message:1");
  EXPECT_EQ(book.observe(7, comps(5, 2, {10, 99, 12, 13})).component, "tools");
  EXPECT_EQ(book.observe(7, comps(5, 3, {10, 99, 12, 13})).component, "system");
  EXPECT_EQ(book.observe(7, comps(5, 3, {10})).component, "history_truncated");
  EXPECT_FALSE(book.observe(8, comps(0, 0, {1})).bust);  // another session
}

TEST(SessionBook, GuardStopsCompressionOnceCompressedCostsMore) {
  SessionBook book;
  EXPECT_FALSE(book.charge(3, 2.0, 1.0));  // fewer than kGuardMinRequests so far
  EXPECT_FALSE(book.charge(3, 0.1, 1.0));
  EXPECT_FALSE(book.charge(3, 0.1, 1.0));  // 2.2 <= 3.0
  std::optional<std::string> why = book.charge(3, 5.0, 1.0);
  ASSERT_TRUE(why);
  EXPECT_NE(why->find("record estimate"), std::string::npos);
  EXPECT_EQ(book.stopped(3), why);
  Config config;
  config.mode = "active";
  CostPlan plan = plan_cost(config, false, 3, book);
  EXPECT_TRUE(plan.reuse_only);  // blocks compressed before keep their views: no prefix rewrite
  EXPECT_TRUE(plan.optimize);
  EXPECT_EQ(plan.guard_note, *why);
  EXPECT_FALSE(plan_cost(config, false, 4, book).reuse_only);
}

TEST(CostModes, EachModesPlan) {
  SessionBook book;
  Config c;
  auto plan = [&](const char* mode) {
    c.mode = mode;
    return plan_cost(c, false, 42, book);
  };
  EXPECT_TRUE(plan("record").estimate);
  EXPECT_FALSE(plan("record").compress);
  EXPECT_EQ(plan("recommend").preview, "recommend");
  EXPECT_EQ(plan("shadow").preview, "shadow");
  EXPECT_TRUE(plan("compress").compress);
  EXPECT_FALSE(plan("compress").optimize);
  EXPECT_TRUE(plan("active").optimize);
  c.canary_percent = 100;
  EXPECT_EQ(plan("canary").runtime_mode, "canary/active");
  c.canary_percent = 0;
  EXPECT_EQ(plan("canary").runtime_mode, "canary/record");
  int in = 0;
  for (std::uint64_t s = 1; s <= 1000; ++s) in += canary_selected(s * 2654435761ULL, 10) ? 1 : 0;
  EXPECT_GT(in, 60);
  EXPECT_LT(in, 140);
  c.mode = "active";
  EXPECT_FALSE(plan_cost(c, true, 42, book).optimize);  // x-caveman-bypass
}

TEST(Prices, EmbeddedTableResolvesDatedIdsAndPricesEachPart) {
  std::optional<ModelPrice> p = find_price("anthropic", "claude-sonnet-4-6-20260101");
  ASSERT_TRUE(p);
  EXPECT_DOUBLE_EQ(p->input, 3);
  EXPECT_DOUBLE_EQ(p->cache_write_5m, 3.75);
  EXPECT_DOUBLE_EQ(p->cache_read, 0.3);
  EXPECT_TRUE(find_price("anthropic", "claude-sonnet-4"));  // alias
  EXPECT_TRUE(find_price("openai", "gpt-4.1-2025-04-14"));
  EXPECT_FALSE(find_price("openai", "gpt-unknown"));
  Dollars a = price_usage("anthropic", *p, UsageTokens{1000, 100, 10000, 2000});
  EXPECT_NEAR(a.input, 0.003, 1e-12);
  EXPECT_NEAR(a.cache_read, 0.003, 1e-12);
  EXPECT_NEAR(a.cache_write, 0.0075, 1e-12);
  EXPECT_NEAR(a.output, 0.0015, 1e-12);
  ModelPrice o = *find_price("openai", "gpt-4.1");
  Dollars b = price_usage("openai", o, UsageTokens{3000, 0, 2048, 0});  // input includes cached
  EXPECT_NEAR(b.input, 952 * 2e-6, 1e-12);
  EXPECT_NEAR(b.cache_read, 2048 * 0.5e-6, 1e-12);
}

}  // namespace
}  // namespace caveman::proxy
