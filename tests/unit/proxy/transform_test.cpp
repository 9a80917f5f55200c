#include "transform.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/test_support.h"

namespace caveman::proxy {
namespace {

// A log the engine compresses well: many near-identical lines around one failure.
std::string big_log() {
  std::string s;
  for (int i = 0; i < 400; ++i) {
    s += "2025-06-24 14:36:" + std::to_string(10 + i % 50) + " INFO worker-" + std::to_string(i % 7) +
         " processed batch " + std::to_string(i) + " in 12ms status=ok\n";
    if (i == 217) s += "2025-06-24 14:40:01 ERROR worker-3 batch 217 failed: disk quota exceeded on /var/data\n";
  }
  return s;
}

// A log too small to save kUncachedFirstMarkerTokens, naming `worker`.
std::string small_log(const std::string& worker) {
  std::string s;
  for (int i = 0; i < 30; ++i)
    s += "2025-06-24 14:36:1" + std::to_string(i % 10) + " INFO " + worker + " processed batch " +
         std::to_string(i) + " status=ok\n";
  return s;
}

// A user turn holding one tool result, and a request of such turns (an assistant "ok" between).
std::string result_turn(const std::string& id, const std::string& text) {
  return R"({"role":"user","content":[{"type":"tool_result","tool_use_id":")" + id +
         R"(","content":)" + json_quote(text) + "}]}";
}
std::string request_of(const std::vector<std::string>& turns) {
  std::string s = R"({"model":"m","max_tokens":9,"messages":[)";
  for (std::size_t i = 0; i < turns.size(); ++i)
    s += (i ? R"(,{"role":"assistant","content":"ok"},)" : "") + turns[i];
  return s + "]}";
}

class ProxyTransform : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::unique_ptr<ccr::Store>> store = ccr::open_store(std::string(ccr::kMemoryPath));
    ASSERT_OK(store);
    store_ = std::shared_ptr<ccr::Store>(std::move(store).value());
    engine_ = std::make_unique<Engine>(store_);
    Result<std::unique_ptr<SqlitePrefixCache>> cache = SqlitePrefixCache::open(dir_.file("caveman.db"));
    ASSERT_OK(cache);
    cache_ = std::move(cache).value();
  }

  TransformOutcome run(Endpoint e, const std::string& body, std::size_t min_bytes = 512,
                       CompressKnobs knobs = {}) {
    std::optional<JsonDoc> doc = JsonDoc::parse(body);
    EXPECT_TRUE(doc);
    LiveZone zone = extract_live_zone(e, *doc, min_bytes);
    Transformer t(engine_.get(), store_.get(), cache_.get(), knobs);
    return t.transform(body, *doc, zone);
  }

  testing::TempDir dir_;
  std::shared_ptr<ccr::Store> store_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<SqlitePrefixCache> cache_;
};

// Checks that `after` equals `before` with exactly the byte range of the string literal
// `original_literal` replaced, and returns the decoded replacement.
std::string only_the_literal_changed(const std::string& before, const std::string& after,
                                     const std::string& original_literal) {
  std::size_t at = before.find(original_literal);
  EXPECT_NE(at, std::string::npos);
  std::string prefix = before.substr(0, at);
  std::string suffix = before.substr(at + original_literal.size());
  EXPECT_EQ(after.substr(0, prefix.size()), prefix);
  EXPECT_GE(after.size(), suffix.size());
  EXPECT_EQ(after.substr(after.size() - suffix.size()), suffix);
  std::string literal = after.substr(prefix.size(), after.size() - prefix.size() - suffix.size());
  std::optional<JsonDoc> doc = JsonDoc::parse(literal);
  EXPECT_TRUE(doc && doc->node(doc->root()).kind == JsonKind::kString) << literal;
  return doc ? doc->node(doc->root()).text : std::string();
}

TEST_F(ProxyTransform, AnthropicToolResultIsSplicedWithAMarkerAndStoredExactly) {
  std::string log = big_log();
  std::string lit = json_quote(log);
  std::string body = R"({"model":"m","max_tokens":9,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":)" +
                     lit + R"(},{"type":"text","text":"why did batch 217 fail?"}]}],"stream":true})";
  TransformOutcome out = run(Endpoint::kMessages, body);
  ASSERT_TRUE(out.changed);
  EXPECT_LT(out.body.size(), body.size());
  EXPECT_EQ(out.compressed_blocks, 1);
  EXPECT_LT(out.tokens_after, out.tokens_before);
  ASSERT_EQ(out.handles.size(), 1u);
  std::string replacement = only_the_literal_changed(body, out.body, lit);
  std::string marker = "\n<<ccr:" + out.handles[0] + ">>";
  ASSERT_GE(replacement.size(), marker.size());
  EXPECT_EQ(replacement.substr(replacement.size() - marker.size()), marker);
  EXPECT_NE(replacement.find("disk quota exceeded"), std::string::npos);  // the failure survives
  Result<std::string> original = store_->get(out.handles[0]);
  ASSERT_OK(original);
  EXPECT_EQ(*original, log);
  EXPECT_EQ(out.handles[0], ccr::handle_for(log));
}

TEST_F(ProxyTransform, TheNextTurnResendsTheSamePrefixBytes) {
  std::string lit = json_quote(big_log());
  std::string turn1 = R"({"model":"m","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":)" +
                      lit + R"(}]}]})";
  TransformOutcome first = run(Endpoint::kMessages, turn1);
  ASSERT_TRUE(first.changed);
  std::string turn2 = turn1.substr(0, turn1.size() - 2) +
                      R"(,{"role":"assistant","content":[{"type":"text","text":"It failed."}]},{"role":"user","content":"and batch 3?"}]})";
  TransformOutcome second = run(Endpoint::kMessages, turn2);
  ASSERT_TRUE(second.changed);
  EXPECT_EQ(second.compressed_blocks, 0);  // nothing new: the frozen block comes from the cache
  EXPECT_EQ(second.reused_blocks, 1);
  std::string common = first.body.substr(0, first.body.size() - 2);  // up to the end of message 0
  EXPECT_EQ(second.body.substr(0, common.size()), common);
  EXPECT_EQ(second.handles, first.handles);
}

TEST_F(ProxyTransform, FrozenBlocksAreNeverCompressedAnew) {
  std::string lit = json_quote(big_log());
  std::string body = R"({"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":)" + lit +
                     R"(}]},{"role":"assistant","content":"ok"},{"role":"user","content":"next"}]})";
  TransformOutcome out = run(Endpoint::kMessages, body);
  EXPECT_FALSE(out.changed);
  EXPECT_EQ(cache_->size_for_testing(), 0u);
}

TEST_F(ProxyTransform, SmallOrIncompressibleBlocksStayOriginal) {
  std::string body = R"({"messages":[{"role":"user","content":"short question"}]})";
  EXPECT_FALSE(run(Endpoint::kMessages, body).changed);
  // Random-looking text the engine cannot shrink.
  std::string noise;
  unsigned x = 12345;
  for (int i = 0; i < 3000; ++i) {
    x = x * 1103515245 + 12345;
    noise.push_back(static_cast<char>('a' + (x >> 16) % 26));
    if (i % 9 == 8) noise.push_back(' ');
  }
  std::string body2 = R"({"messages":[{"role":"user","content":)" + json_quote(noise) + "}]}";
  EXPECT_FALSE(run(Endpoint::kMessages, body2).changed);
}

TEST_F(ProxyTransform, EveryProviderShapeIsSplicedInPlace) {
  std::string lit = json_quote(big_log());
  struct Case {
    Endpoint endpoint;
    std::string body;
  } cases[] = {
      {Endpoint::kChatCompletions,
       R"({"model":"g","messages":[{"role":"user","content":"check"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":)" +
           lit + "}]}"},
      {Endpoint::kResponses,
       R"({"model":"g","input":[{"role":"user","content":"check"},{"type":"function_call","call_id":"f1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"f1","output":)" +
           lit + "}]}"},
      {Endpoint::kGenerateContent,
       R"({"contents":[{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":)" + lit +
           R"(}}},{"text":"check"}]}]})"},
  };
  for (const Case& c : cases) {
    TransformOutcome out = run(c.endpoint, c.body);
    ASSERT_TRUE(out.changed) << static_cast<int>(c.endpoint);
    std::string replacement = only_the_literal_changed(c.body, out.body, lit);
    EXPECT_NE(replacement.find("<<ccr:ccr_"), std::string::npos);
  }
}

TEST_F(ProxyTransform, FirstWriteWinsInThePrefixCache) {
  std::string key = prefix_cache_key(kUnlockedScope, "original");
  Result<std::string> a = cache_->remember(key, "ccr_a", "first");
  Result<std::string> b = cache_->remember(key, "ccr_b", "second");
  ASSERT_OK(a);
  ASSERT_OK(b);
  EXPECT_EQ(*a, "first");
  EXPECT_EQ(*b, "first");
  EXPECT_EQ(cache_->lookup(key), "first");
  EXPECT_EQ(cache_->lookup(prefix_cache_key("locked:x", "original")), std::nullopt);
}

TEST(ProxyPrefixCache, EvictsLeastRecentlyUsedBeyondCapacity) {
  testing::TempDir dir;
  Result<std::unique_ptr<SqlitePrefixCache>> opened = SqlitePrefixCache::open(dir.file("c.db"), 3);
  ASSERT_OK(opened);
  SqlitePrefixCache& cache = **opened;
  ASSERT_OK(cache.remember("k1", "h", "v1"));
  ASSERT_OK(cache.remember("k2", "h", "v2"));
  ASSERT_OK(cache.remember("k3", "h", "v3"));
  EXPECT_EQ(cache.lookup("k1"), "v1");  // touch k1: k2 is now the least recently used
  ASSERT_OK(cache.remember("k4", "h", "v4"));
  EXPECT_EQ(cache.size_for_testing(), 3u);
  EXPECT_EQ(cache.lookup("k2"), std::nullopt);
  EXPECT_EQ(cache.lookup("k1"), "v1");
  EXPECT_EQ(cache.lookup("k3"), "v3");
  EXPECT_EQ(cache.lookup("k4"), "v4");
  // A second process (connection) sees the same rows.
  Result<std::unique_ptr<SqlitePrefixCache>> other = SqlitePrefixCache::open(dir.file("c.db"), 3);
  ASSERT_OK(other);
  EXPECT_EQ((*other)->lookup("k4"), "v4");
}

TEST(ProxyTransformHelpers, HandlesAreJoinedNewestLast) {
  EXPECT_EQ(join_handles({}), "");
  EXPECT_EQ(join_handles({"a", "b"}), "a,b");
  std::vector<std::string> ten = {"h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7", "h8", "h9"};
  EXPECT_EQ(join_handles(ten), "+2,h2,h3,h4,h5,h6,h7,h8,h9");
  EXPECT_EQ(handle_from_replacement("text\n<<ccr:ccr_abc>>"), "ccr_abc");
  EXPECT_EQ(handle_from_replacement("text without marker"), "");
}

// Whether a retrieve re-reads the prompt at the cache price: Anthropic caches only up to a
// cache_control breakpoint, OpenAI and Gemini cache long prefixes on their own.
TEST(ProxyTransformHelpers, PromptCachedFollowsEachProvidersRule) {
  EXPECT_FALSE(
      prompt_cached(Endpoint::kMessages, R"({"messages":[{"role":"user","content":"hi"}]})"));
  EXPECT_TRUE(prompt_cached(
      Endpoint::kMessages,
      R"({"messages":[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}]})"));
  EXPECT_TRUE(prompt_cached(Endpoint::kChatCompletions, R"({"messages":[]})"));
  EXPECT_TRUE(prompt_cached(Endpoint::kGenerateContent, R"({"contents":[]})"));
  CompressKnobs k = knobs_for_request(100, 5, 4000, false);
  EXPECT_EQ(k.context_tokens, 1000);
  EXPECT_FALSE(block_options(k, "q").context_cached);
}

// In an uncached prompt the first marker brings the injected retrieve tool into every later
// request: a small saving is not worth it there, while a cached prompt takes it, and so does
// an uncached one that already holds a marker.
TEST_F(ProxyTransform, AnUncachedPromptsFirstMarkerMustPayForTheRetrieveTool) {
  std::string small = small_log("worker-1");
  auto body_with = [](const std::string& text, const std::string& before) {
    return R"({"model":"m","max_tokens":9,"messages":[{"role":"user","content":[{"type":"text","text":)" +
           json_quote(before) + R"(},{"type":"tool_result","tool_use_id":"t1","content":)" +
           json_quote(text) + R"(}]}]})";
  };
  CompressKnobs cached{25000, 0, 0, true};
  TransformOutcome on_cached = run(Endpoint::kMessages, body_with(small, "hi"), 512, cached);
  ASSERT_TRUE(on_cached.changed);
  ASSERT_LT(on_cached.tokens_before - on_cached.tokens_after, kUncachedFirstMarkerTokens);
  // Other bytes each time: the prefix cache re-substitutes a block it has seen, in any prompt.
  CompressKnobs uncached{25000, 0, 0, false};
  std::string other = small;
  other.replace(other.find("worker-1"), 8, "worker-2");
  EXPECT_FALSE(run(Endpoint::kMessages, body_with(other, "hi"), 512, uncached).changed);
  other.replace(other.find("worker-2"), 8, "worker-3");
  EXPECT_TRUE(run(Endpoint::kMessages, body_with(other, "earlier: <<ccr:ccr_0123>>"), 512, uncached)
                  .changed);
}

// The client re-sends its own bytes, so an uncached prompt's marker comes back only when the
// prefix cache re-substitutes an earlier block: that block counts as the marker, and the next
// new block need not pay for the retrieve tool again.
TEST_F(ProxyTransform, AMarkerReSubstitutedFromThePrefixCacheCountsInAnUncachedPrompt) {
  std::string first = result_turn("t1", big_log());
  CompressKnobs uncached{25000, 0, 0, false};
  ASSERT_TRUE(run(Endpoint::kMessages, request_of({first}), 512, uncached).changed);
  TransformOutcome second =
      run(Endpoint::kMessages, request_of({first, result_turn("t2", small_log("worker-4"))}), 512,
          uncached);
  EXPECT_EQ(second.reused_blocks, 1);
  EXPECT_EQ(second.compressed_blocks, 1);
}

// Once the guard stopped compression for a session, a block compressed before keeps its view
// (its original would rewrite the cached prefix) and no new block is compressed.
TEST_F(ProxyTransform, ReuseOnlyReSubstitutesEarlierBlocksAndCompressesNoNewOne) {
  std::string first = result_turn("t1", big_log());
  ASSERT_TRUE(run(Endpoint::kMessages, request_of({first})).changed);
  std::string other = big_log();
  other.replace(other.find("worker-3"), 8, "worker-9");
  CompressKnobs stopped;
  stopped.reuse_only = true;
  TransformOutcome out =
      run(Endpoint::kMessages, request_of({first, result_turn("t2", other)}), 512, stopped);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.reused_blocks, 1);
  EXPECT_EQ(out.compressed_blocks, 0);
  EXPECT_NE(out.body.find(json_quote(other)), std::string::npos);  // the new block as sent
}

// compress.min_saving_tokens reaches the engine: a lossy view saving fewer tokens than the
// floor passes through (the block keeps its bytes); budget_tokens reaches it too.
TEST_F(ProxyTransform, CompressKnobsReachTheEngine) {
  std::string lit = json_quote(big_log());
  std::string body = R"({"model":"m","max_tokens":9,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":)" +
                     lit + R"(}]}]})";
  Options o = block_options(CompressKnobs{1234, 99}, "q");
  EXPECT_EQ(o.budget_tokens, 1234);
  EXPECT_EQ(o.min_lossy_saving_tokens, 99);
  EXPECT_TRUE(o.external_recovery);
  TransformOutcome small_floor = run(Endpoint::kMessages, body, 512, CompressKnobs{25000, 0});
  ASSERT_TRUE(small_floor.changed);
  std::int64_t saved = small_floor.tokens_before - small_floor.tokens_after;
  ASSERT_GT(saved, 0);
  // Another block (the prefix cache would re-substitute the first one as stored).
  std::string other = body;
  other.replace(other.find("disk quota"), 10, "disk QUOTA");
  TransformOutcome high_floor = run(Endpoint::kMessages, other, 512, CompressKnobs{25000, saved * 100});
  EXPECT_FALSE(high_floor.changed);
}

}  // namespace
}  // namespace caveman::proxy

namespace caveman::proxy {
namespace {

// Issue 37, acceptance 4. After a lapse (knobs.recompact) a frozen tool result is compacted and
// remembered; the next request (warm again) re-sends exactly those bytes; the live block and
// user text are never touched by re-compaction; without a lapse frozen blocks never change.
TEST_F(ProxyTransform, RecompactionAfterALapseThenTheWarmPrefixStaysByteIdentical) {
  std::string old_result = big_log();
  std::string body =
      request_of({result_turn("t1", old_result), result_turn("t2", small_log("worker-9"))});
  // Warm: the frozen block (turn 1, answered) stays as the client sent it.
  TransformOutcome warm = run(Endpoint::kMessages, body);
  EXPECT_EQ(warm.recompacted_blocks, 0);
  std::string warm_sent = warm.changed ? warm.body : body;
  EXPECT_NE(warm_sent.find(json_quote(old_result)), std::string::npos);
  // Lapsed: re-compacted.
  CompressKnobs lapsed;
  lapsed.recompact = true;
  TransformOutcome first = run(Endpoint::kMessages, body, 512, lapsed);
  ASSERT_TRUE(first.changed);
  EXPECT_EQ(first.recompacted_blocks, 1);
  EXPECT_GT(first.recompact_saved_tokens, 0);
  EXPECT_EQ(first.body.find(json_quote(old_result)), std::string::npos);
  // The next turn, warm: the prefix it shares with the lapsed request is byte-identical.
  std::string next =
      request_of({result_turn("t1", old_result), result_turn("t2", small_log("worker-9")),
                  result_turn("t3", small_log("worker-4"))});
  TransformOutcome second = run(Endpoint::kMessages, next);
  ASSERT_TRUE(second.changed);
  EXPECT_EQ(second.recompacted_blocks, 0);
  std::string shared = first.body.substr(0, first.body.rfind(R"(,{"role":"assistant")"));
  EXPECT_EQ(second.body.substr(0, shared.size()), shared);
}

// An answered frozen result no view brings under kRecompactStubTokens (prose the engine keeps
// whole) becomes a stub after a lapse: its first lines, a marker stating the rest by line range,
// the handle; a warm request never stubs it, nor a lapse one of the current task's results.
TEST_F(ProxyTransform, RecompactionStubsALargeFrozenResultByLineRange) {
  static const char* const kWords[] = {"index",  "rebuild", "table",   "column",
                                       "vacuum", "lock",    "replica", "snapshot",
                                       "batch",  "quorum",  "shard",   "ledger"};
  std::string prose;
  std::uint32_t seed = 7;
  for (int i = 1; i <= 120; ++i) {
    for (int w = 0; w < 9; ++w) {
      seed = seed * 1103515245u + 12345u;
      prose += std::string(w ? " " : "") + kWords[(seed >> 16) % 12] +
               std::to_string((seed >> 8) % 1000);
    }
    prose += ".\n";
  }
  std::string next_task =
      R"({"role":"user","content":[{"type":"text","text":"Now the next task."}]})";
  std::string body =
      request_of({result_turn("t1", prose), next_task, result_turn("t2", small_log("worker-9"))});
  TransformOutcome warm = run(Endpoint::kMessages, body);
  EXPECT_EQ(warm.recompacted_blocks, 0);
  EXPECT_GT(warm.compactable_tokens, 500);  // what a lapse would take off
  CompressKnobs lapsed;
  lapsed.recompact = true;
  TransformOutcome out = run(Endpoint::kMessages, body, 512, lapsed);
  ASSERT_TRUE(out.changed);
  EXPECT_EQ(out.recompacted_blocks, 1);
  auto inner = [](const std::string& text) {
    std::string quoted = json_quote(text);
    return quoted.substr(1, quoted.size() - 2);
  };
  std::string head =
      prose.substr(0, prose.find('\n', prose.find('\n', prose.find('\n') + 1) + 1) + 1);
  EXPECT_NE(out.body.find(inner(head) + "… lines 4–120 elided (caveman)"), std::string::npos)
      << out.body.substr(0, 600);
  EXPECT_EQ(out.body.find(inner(prose.substr(head.size(), 40))), std::string::npos);
  ASSERT_FALSE(out.handles.empty());
  Result<std::string> original = store_->get(out.handles.front());
  ASSERT_OK(original);
  EXPECT_EQ(*original, prose);
  EXPECT_EQ(out.compactable_tokens, 0);
  // Not yet answered (no human text after it: the same task's result) it is never stubbed.
  std::string other = "x" + prose;  // not in the prefix cache yet
  std::string same_task =
      request_of({result_turn("t1", other), result_turn("t2", small_log("worker-9"))});
  EXPECT_EQ(run(Endpoint::kMessages, same_task, 512, lapsed).body.find("… lines 4–120 elided"),
            std::string::npos);
}

TEST(FrozenStub, KeepsWholeLinesAndStatesTheRest) {
  EXPECT_EQ(frozen_stub("a\nb\nc\n"), std::nullopt);  // the head would be all of it
  EXPECT_EQ(frozen_stub("a\nb\nc\nd"),
            "a\nb\nc\n… lines 4–4 elided (caveman): an earlier result, "
            "already answered; the handle below returns it …\n");
  std::string wide(kStubHeadLineBytes + 1, 'x');
  std::optional<std::string> stub = frozen_stub(wide + "\nshort\n");
  ASSERT_TRUE(stub);
  EXPECT_EQ(stub->rfind("… lines 1–2 elided", 0), 0u);  // a line too wide to quote is not cut
}

TEST_F(ProxyTransform, RecompactionNeverTouchesTheLiveZoneOrUserText) {
  std::string text_turn =
      R"({"role":"user","content":[{"type":"text","text":)" + json_quote(big_log()) + "}]}";
  std::string body = request_of({text_turn, result_turn("t2", small_log("worker-9"))});
  CompressKnobs lapsed;
  lapsed.recompact = true;
  lapsed.reuse_only = true;  // the guard stopped compression: nothing new at all
  EXPECT_FALSE(run(Endpoint::kMessages, body, 512, lapsed).changed);
  lapsed.reuse_only = false;
  TransformOutcome out = run(Endpoint::kMessages, body, 512, lapsed);
  EXPECT_EQ(out.recompacted_blocks, 0);  // frozen user text is not a tool result
}

}  // namespace
}  // namespace caveman::proxy
