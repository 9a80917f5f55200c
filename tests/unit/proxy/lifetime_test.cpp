// The lifetime math (lifetime.h): the pause prior, the keepalive stopping rule and the
// 5-minute / 1-hour choice; and the planner's 1-hour breakpoints and OpenAI's 24h retention.
#include "lifetime.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "cost_modes.h"
#include "optimizers.h"
#include "prices.h"

namespace caveman::proxy {
namespace {

constexpr std::int64_t kMinute = 60LL * 1000;

// docs/economics.md, "Pause model": P(gap > 5 min) = 0.286, P(gap > 1 h) = 0.05.
TEST(PausePrior, MatchesTheBenchmarksMixture) {
  EXPECT_NEAR(prior_pause_survival(5 * kMinute), 0.286, 0.001);
  EXPECT_NEAR(prior_pause_survival(kOneHourMs), 0.05, 1e-9);
  EXPECT_DOUBLE_EQ(prior_pause_survival(0), 1.0);
  EXPECT_DOUBLE_EQ(prior_pause_survival(3 * kOneHourMs), 0.0);
}

TEST(PauseStats, ShortGapsAreNotPausesAndObservedPausesOutweighThePrior) {
  PauseStats s;
  s.add_gap(2000);  // the agent's own tool loop
  EXPECT_EQ(s.pauses(), 0);
  EXPECT_DOUBLE_EQ(s.survival(5 * kMinute), prior_pause_survival(5 * kMinute));
  for (int i = 0; i < 50; ++i) s.add_gap(20 * kMinute);  // a user who always takes 20 minutes
  EXPECT_GT(s.survival(15 * kMinute), 0.9);
  EXPECT_LT(s.survival(25 * kMinute), 0.1);
}

// The design note's table: one lapse costs 11.5 pings; under the prior the rule pings
// through most of the hour (S = 54 min, 12 pings: 0.216 P·r per pause vs 0.329 without).
TEST(KeepalivePlan, PriorPingsThroughTheHourAndSavesOverNothing) {
  PauseStats prior;
  GapCosts c{0.1, 1.15};
  int k = planned_pings(prior, kFiveMinutesMs, c, 12);
  EXPECT_GE(k, 10);
  EXPECT_NEAR(expected_pause_usd(prior, kFiveMinutesMs, c, 0), 0.329, 0.002);
  EXPECT_LT(expected_pause_usd(prior, kFiveMinutesMs, c, 12), 0.23);
  EXPECT_EQ(planned_pings(prior, kFiveMinutesMs, c, 0), 0);  // the cap is the cap
}

TEST(KeepalivePlan, NoPingsWhenTheyCostMoreThanALapse) {
  PauseStats prior;
  EXPECT_EQ(planned_pings(prior, kFiveMinutesMs, GapCosts{2.0, 1.15}, 12), 0);  // thinking budget
}

// A user who is always back within a minute rarely reaches a ping: pings are paid only
// while the pause lasts, so the expected cost per pause stays tiny.
TEST(KeepalivePlan, AQuickUserPaysAlmostNothingForThem) {
  PauseStats quick;
  for (int i = 0; i < 200; ++i) quick.add_gap(30LL * 1000);
  EXPECT_LT(expected_pause_usd(quick, kFiveMinutesMs, GapCosts{0.1, 1.15}, 12), 0.02);
}

TEST(KeepalivePlan, PingsAreSpacedByTheLifetimeLessTheMargin) {
  EXPECT_EQ(ping_offset_ms(1, kFiveMinutesMs), 4 * kMinute + 30LL * 1000);
  EXPECT_EQ(ping_offset_ms(3, kFiveMinutesMs), 13 * kMinute + 30LL * 1000);
  EXPECT_EQ(ping_offset_ms(1, kOneHourMs), 59 * kMinute + 30LL * 1000);
}

TtlInputs sonnet(double prefix, double tail, double premium, int cap) {
  return TtlInputs{prefix, tail, premium, 3e-6, 0.3e-6, 3.75e-6, 6e-6, 15e-6, cap};
}

TEST(TtlChoice, LongContextWithSmallTurnsTakesTheHour) {
  PauseStats prior;
  EXPECT_EQ(choose_ttl(prior, sonnet(100000, 3000, 500, 0)), CacheTtl::k1h);
  EXPECT_EQ(choose_ttl(prior, sonnet(100000, 3000, 500, 12)), CacheTtl::k1h);
}

TEST(TtlChoice, ShortPausesOrBigTurnsKeepFiveMinutes) {
  PauseStats quick;
  for (int i = 0; i < 200; ++i) {
    quick.add_gap(30LL * 1000);
    for (int r = 0; r < 4; ++r) quick.add_request();
  }
  PauseStats prior;
  EXPECT_EQ(choose_ttl(prior, sonnet(100000, 3000, 1000, 0)), CacheTtl::k1h);
  EXPECT_EQ(choose_ttl(quick, sonnet(100000, 3000, 1000, 0)), CacheTtl::k5m);
  // Each request writes half the prompt at the 2× rate: the premium dominates.
  EXPECT_EQ(choose_ttl(prior, sonnet(10000, 1000, 5000, 0)), CacheTtl::k5m);
  EXPECT_EQ(choose_ttl(prior, sonnet(0, 0, 0, 0)), CacheTtl::k5m);  // nothing known yet
  TtlInputs no_hour = sonnet(100000, 3000, 500, 0);
  no_hour.write_1h = 0;
  EXPECT_EQ(choose_ttl(prior, no_hour), CacheTtl::k5m);
}

// A lapse lets re-compaction stub the answered results: when they are a large part of the
// prefix, letting the prefix lapse at 5 minutes (no pings) is cheaper than keeping it, and
// the credit is what a lapse saves over the requests until the next one.
TEST(TtlChoice, ALargeCompactablePartPrefersLapsesToTheHour) {
  PauseStats seen;  // 40 requests so far, the prior's pauses
  for (int i = 0; i < 40; ++i) seen.add_request();
  TtlInputs in = sonnet(100000, 3000, 500, 12);
  ASSERT_EQ(choose_ttl(seen, in), CacheTtl::k1h);
  in.compactable_tokens = 60000;
  EXPECT_EQ(choose_ttl(seen, in), CacheTtl::k5m);
  EXPECT_EQ(choose_ttl(seen, in, CacheTtl::k1h), CacheTtl::k5m);  // negative costs: a real margin
  // The horizon: the requests made so far, at most those until a warm prefix would lapse.
  double until_lapse = seen.requests_per_pause() / std::max(seen.survival(kOneHourMs), 0.1);
  EXPECT_NEAR(compaction_horizon_requests(seen), std::min(40.0, until_lapse), 1e-9);
  EXPECT_EQ(compaction_horizon_requests(PauseStats{}), 0);  // a new session: no credit for reads
  EXPECT_NEAR(compaction_credit_usd(seen, 60000, 0.3e-6, 3.75e-6),
              60000 * (3.75e-6 + 0.3e-6 * compaction_horizon_requests(seen)), 1e-12);
  EXPECT_EQ(compaction_credit_usd(seen, 0, 0.3e-6, 3.75e-6), 0);
  // A 100k prefix: a ping reads it, a lapse writes it again. With the credit no ping pays.
  GapCosts plain{100000 * 0.3e-6, 100000 * (3.75e-6 - 0.3e-6)};
  ASSERT_GT(planned_pings(seen, kFiveMinutesMs, plain, 12), 0);
  GapCosts credited = plain;
  credited.lapse_usd -= compaction_credit_usd(seen, 60000, 0.3e-6, 3.75e-6);
  EXPECT_EQ(planned_pings(seen, kFiveMinutesMs, credited, 12), 0);
}

// Near the boundary the choice does not flip back and forth: a switch must win by 10%.
TEST(TtlChoice, ASwitchMustWinByTheHysteresis) {
  PauseStats prior;
  // Find a premium where 1 hour is barely cheaper, then check both directions hold.
  double lo = 0, hi = 20000;
  for (int i = 0; i < 60; ++i) {
    double mid = (lo + hi) / 2;
    (choose_ttl(prior, sonnet(100000, 3000, mid, 0)) == CacheTtl::k1h ? lo : hi) = mid;
  }
  TtlInputs edge = sonnet(100000, 3000, lo, 0);  // from 5 minutes: just takes the hour
  EXPECT_EQ(choose_ttl(prior, edge, CacheTtl::k5m), CacheTtl::k1h);
  EXPECT_EQ(choose_ttl(prior, edge, CacheTtl::k1h), CacheTtl::k1h);
  TtlInputs dearer = sonnet(100000, 3000, lo * 1.05, 0);  // a little dearer: the hour stays
  EXPECT_EQ(choose_ttl(prior, dearer, CacheTtl::k5m), CacheTtl::k5m);
  EXPECT_EQ(choose_ttl(prior, dearer, CacheTtl::k1h), CacheTtl::k1h);
}

std::string planned(const std::string& body, CacheTtl ttl, BreakpointPlan* plan) {
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  EXPECT_TRUE(doc);
  *plan = plan_breakpoints(body, *doc, ttl);
  std::string out = apply_splices(body, plan->splices);
  EXPECT_TRUE(JsonDoc::parse(out)) << out;
  return out;
}

// The provider's rule: in prompt order (tools → system → messages) no 1-hour breakpoint
// follows a 5-minute one. Returns the TTLs in order ("1h" / "5m").
std::vector<std::string> ttls_in_order(const std::string& body) {
  std::vector<std::string> out;
  std::optional<JsonDoc> doc = JsonDoc::parse(body);
  NodeId root = doc->root();
  auto visit = [&](NodeId value) {
    auto one = [&](NodeId block) {
      NodeId cc = doc->get(block, "cache_control");
      if (cc != kNoNode) out.push_back(doc->get_string(cc, "ttl") == "1h" ? "1h" : "5m");
    };
    if (doc->is(value, JsonKind::kArray)) {
      for (NodeId item : doc->node(value).items) one(item);
    }
  };
  visit(doc->get(root, "tools"));
  visit(doc->get(root, "system"));
  NodeId messages = doc->get(root, "messages");
  for (NodeId m : doc->node(messages).items) visit(doc->get(m, "content"));
  return out;
}

bool ordering_holds(const std::vector<std::string>& ttls) {
  bool seen_5m = false;
  for (const std::string& t : ttls) {
    if (t == "5m") seen_5m = true;
    if (t == "1h" && seen_5m) return false;
  }
  return true;
}

const std::string kCc = R"("cache_control":{"type":"ephemeral"})";

// Claude Code on an API key: 5-minute breakpoints on the system prompt and the last message.
const std::string kClaudeCodeBody =
    R"({"model":"claude-sonnet-4-6","max_tokens":9,"system":[{"type":"text","text":"sys",)" + kCc +
    R"(}],"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},)"
    R"({"role":"user","content":[{"type":"text","text":"c",)" +
    kCc + R"(}]}]})";

TEST(OneHourPlanner, AllButTheFrontierGetTheHourInOrder) {
  BreakpointPlan plan;
  std::string out = planned(kClaudeCodeBody, CacheTtl::k1h, &plan);
  std::vector<std::string> ttls = ttls_in_order(out);
  ASSERT_EQ(ttls.size(), 3u) << out;  // system, the message before the last, the frontier
  EXPECT_EQ(ttls, (std::vector<std::string>{"1h", "1h", "5m"})) << out;
  EXPECT_TRUE(ordering_holds(ttls));
  EXPECT_EQ(plan.one_hour, 2);
  EXPECT_EQ(plan.added, 1);
  // The client's own system breakpoint gained the ttl; nothing else of it moved.
  EXPECT_NE(out.find(R"("text":"sys","cache_control":{"type":"ephemeral","ttl":"1h"})"),
            std::string::npos)
      << out;
}

TEST(OneHourPlanner, FiveMinutesChangesNothingOfTheClients) {
  BreakpointPlan plan;
  std::string out = planned(kClaudeCodeBody, CacheTtl::k5m, &plan);
  EXPECT_EQ(plan.one_hour, 0);
  EXPECT_EQ(out.find("\"ttl\""), std::string::npos);
}

TEST(OneHourPlanner, AClientsOwnTtlStandsAndOrderingAlwaysHolds) {
  std::string with_ttl = kClaudeCodeBody;
  with_ttl.replace(with_ttl.find(kCc), kCc.size(),
                   R"("cache_control":{"type":"ephemeral","ttl":"5m"})");
  BreakpointPlan plan;
  std::string out = planned(with_ttl, CacheTtl::k1h, &plan);
  EXPECT_EQ(plan.one_hour, 0);
  EXPECT_TRUE(ordering_holds(ttls_in_order(out))) << out;
  // Many shapes: tools, string or block system, 1..6 messages, client breakpoints here and there.
  for (int messages = 1; messages <= 6; ++messages) {
    for (int mask = 0; mask < 8; ++mask) {
      std::string body = R"({"tools":[{"name":"t","input_schema":{})" +
                         std::string(mask & 1 ? "," + kCc : "") +
                         R"(}],"system":[{"type":"text","text":"s")" +
                         (mask & 2 ? "," + kCc : std::string()) + R"(}],"messages":[)";
      for (int i = 0; i < messages; ++i) {
        if (i > 0) body += ",";
        bool mark = (mask & 4) && i == messages / 2;
        body += R"({"role":")" + std::string(i % 2 ? "assistant" : "user") +
                R"(","content":[{"type":"text","text":"m)" + std::to_string(i) + "\"" +
                (mark ? "," + kCc : std::string()) + "}]}";
      }
      body += "]}";
      for (CacheTtl ttl : {CacheTtl::k5m, CacheTtl::k1h}) {
        std::string result = planned(body, ttl, &plan);
        std::vector<std::string> ttls = ttls_in_order(result);
        EXPECT_TRUE(ordering_holds(ttls)) << result;
        EXPECT_LE(ttls.size(), 4u);
      }
    }
  }
}

TEST(OneHourPlanner, AutomaticCachingIsLeftAlone) {
  std::string body =
      R"({"cache_control":{"type":"ephemeral"},"system":[{"type":"text","text":"s"}],)"
      R"("messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"},{"role":"user","content":"c"}]})";
  BreakpointPlan plan;
  std::string out = planned(body, CacheTtl::k1h, &plan);
  EXPECT_EQ(plan.one_hour, 0);
  EXPECT_EQ(out.find("\"ttl\""), std::string::npos);
}

Route openai_route() {
  Route r;
  r.provider = Provider::kOpenAI;
  r.endpoint = Endpoint::kResponses;
  return r;
}

TEST(OpenaiRetention, AddedOnlyWhereThePriceTableOffersItAndTheClientChoseNone) {
  ASSERT_TRUE(find_price("openai", "gpt-5.4"));
  EXPECT_TRUE(find_price("openai", "gpt-5.4")->retention_24h);
  EXPECT_TRUE(find_price("openai", "gpt-4.1-2025-04-14")->retention_24h);
  EXPECT_FALSE(find_price("openai", "gpt-5-mini")->retention_24h);
  EXPECT_FALSE(find_price("openai", "gpt-4.1-mini")->retention_24h);
  Config config;
  std::string body = R"({"model":"gpt-5.4","input":"hi"})";
  OptimizerOutcome o = run_optimizers(config, openai_route(), AuthMode::kPayg, body,
                                      OptimizerContext{7, CacheTtl::k5m, true});
  EXPECT_NE(o.body.find(R"("prompt_cache_retention":"24h")"), std::string::npos) << o.body;
  EXPECT_NE(std::find(o.ids.begin(), o.ids.end(), std::string(kOptimizerOpenaiRetention)),
            o.ids.end());
  o = run_optimizers(config, openai_route(), AuthMode::kPayg, body,
                     OptimizerContext{7, CacheTtl::k5m, false});
  EXPECT_EQ(o.body.find("prompt_cache_retention"), std::string::npos);
  std::string chose = R"({"model":"gpt-5.4","input":"hi","prompt_cache_retention":"in_memory"})";
  o = run_optimizers(config, openai_route(), AuthMode::kPayg, chose,
                     OptimizerContext{7, CacheTtl::k5m, true});
  EXPECT_EQ(o.body.find("24h"), std::string::npos);
  std::string options = R"({"model":"gpt-5.6","input":"hi","prompt_cache_options":{"ttl":"30m"}})";
  o = run_optimizers(config, openai_route(), AuthMode::kPayg, options,
                     OptimizerContext{7, CacheTtl::k5m, true});
  EXPECT_EQ(o.body.find("prompt_cache_retention"), std::string::npos);
  EXPECT_TRUE(run_optimizers(config, openai_route(), AuthMode::kOauth, body,
                             OptimizerContext{7, CacheTtl::k5m, true})
                  .ids.empty());
  config.optimizers[std::string(kOptimizerOpenaiRetention)] = false;
  o = run_optimizers(config, openai_route(), AuthMode::kPayg, body,
                     OptimizerContext{7, CacheTtl::k5m, true});
  EXPECT_EQ(o.body.find("prompt_cache_retention"), std::string::npos);
}

TEST(Prices, OneHourWritesAtTheirOwnRate) {
  ModelPrice p = *find_price("anthropic", "claude-sonnet-4-6");
  EXPECT_DOUBLE_EQ(p.cache_write_1h, 6);
  UsageTokens u{0, 0, 0, 1000000, 400000};
  EXPECT_NEAR(price_usage("anthropic", p, u).cache_write, 0.6 * 3.75 + 0.4 * 6, 1e-9);
}

}  // namespace
}  // namespace caveman::proxy
