// recall.h: engine compression of hits and budget packing (docs/mem.md#recall).
#include "caveman/base/text.h"
#include "recall.h"

#include <gtest/gtest.h>

#include "caveman/ccr.h"
#include "mem_test_util.h"

namespace caveman::mem {
namespace {

const tokens::Counter& counter() { return tokens::default_counter(); }

Hit hit(const std::string& text, double score) {
  Hit h;
  h.memory.id = memory_id(text);
  h.memory.text = text;
  h.memory.created_at = "2026-01-01T00:00:00.000001Z";
  h.score = score;
  return h;
}

std::string words(int n, const std::string& word) {
  std::string s;
  for (int i = 0; i < n; ++i) s += word + std::to_string(i) + " ";
  return s;
}

TEST(FitPrefixTest, LongestUtf8SafePrefixWithinBudget) {
  const std::string text = "数据库迁移必须先在预发布环境执行，确认没有锁表后再在生产环境执行。" + words(50, "ünïcode");
  for (std::int64_t budget : {1, 2, 5, 17, 40, 100}) {
    std::string p = fit_prefix(text, budget, counter());
    EXPECT_LE(static_cast<std::int64_t>(counter().count(p)), budget) << budget;
    EXPECT_EQ(text.compare(0, p.size(), p), 0);
    EXPECT_TRUE(base::is_valid_utf8(p)) << budget;
    // One more code point would not fit (the prefix is maximal up to BPE wobble).
    std::size_t next = p.size() + 1;
    while (next < text.size() && (static_cast<unsigned char>(text[next]) & 0xC0) == 0x80) ++next;
    if (next <= text.size() && p.size() < text.size()) {
      EXPECT_GT(static_cast<std::int64_t>(counter().count(text.substr(0, next))), budget) << budget;
    }
  }
  EXPECT_EQ(fit_prefix(text, 1'000'000, counter()), text);
  EXPECT_EQ(fit_prefix(text, 0, counter()), "");
}

TEST(PackHitsTest, UnlimitedBudgetKeepsEveryHitInRankOrder) {
  std::vector<Hit> hits{hit(words(300, "a"), 3), hit(words(200, "b"), 2), hit("short", 1)};
  RecallResult r = pack_hits(hits, nullptr, counter(), 0, "q");
  ASSERT_EQ(r.hits.size(), 3u);
  EXPECT_EQ(r.hits[0].id, hits[0].memory.id);
  EXPECT_EQ(r.hits[2].text, "short");
  EXPECT_EQ(r.tokens_used, r.hits[0].tokens_added + r.hits[1].tokens_added + r.hits[2].tokens_added);
  EXPECT_FALSE(r.hits[0].truncated);
}

TEST(PackHitsTest, GreedyInRankOrderSkipsWhatDoesNotFit) {
  std::vector<Hit> hits{hit(words(20, "a"), 3), hit(words(200, "b"), 2), hit(words(10, "c"), 1)};
  const auto t0 = static_cast<std::int64_t>(counter().count(hits[0].memory.text));
  const auto t2 = static_cast<std::int64_t>(counter().count(hits[2].memory.text));
  RecallResult r = pack_hits(hits, nullptr, counter(), t0 + t2 + 5, "q");
  ASSERT_EQ(r.hits.size(), 2u);
  EXPECT_EQ(r.hits[0].id, hits[0].memory.id);
  EXPECT_EQ(r.hits[1].id, hits[2].memory.id);
  EXPECT_EQ(r.tokens_used, t0 + t2);
  EXPECT_EQ(r.candidates, 3u);
}

TEST(PackHitsTest, OversizeTopHitIsCutAndItsFullTextIsRecoverable) {
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_OK(store);
  Engine engine(std::shared_ptr<ccr::Store>(std::move(store).value()));
  const std::string text = "Decision record: " + words(400, "reason");
  RecallResult r = pack_hits({hit(text, 5), hit("small second hit", 1)}, &engine, counter(), 30, "decision");
  ASSERT_EQ(r.hits.size(), 1u);
  const RecallHit& h = r.hits[0];
  EXPECT_TRUE(h.truncated);
  EXPECT_LE(h.tokens_added, 30);
  EXPECT_GT(h.tokens_added, 20);
  ASSERT_FALSE(h.recovery_handle.empty());
  auto back = engine.retrieve(h.recovery_handle);
  ASSERT_OK(back);
  EXPECT_EQ(back.value(), text);
  EXPECT_EQ(r.tokens_used, h.tokens_added);
}

TEST(PackHitsTest, TruncationWithoutAStoreSaysSoInsteadOfFailing) {
  RecallResult r = pack_hits({hit(words(100, "x"), 1)}, nullptr, counter(), 10, "x");
  ASSERT_EQ(r.hits.size(), 1u);
  EXPECT_TRUE(r.hits[0].truncated);
  EXPECT_EQ(r.hits[0].error, "cave_ccr_unavailable");
}

TEST(PackHitsTest, LargeHitsAreCompressedThroughTheEngine) {
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_OK(store);
  Engine engine(std::shared_ptr<ccr::Store>(std::move(store).value()));
  std::string log;
  for (int i = 0; i < 300; ++i) {
    log += "2026-01-01T00:00:" + std::to_string(10 + i % 50) + "Z INFO worker=w1 step=" + std::to_string(i) +
           " status=ok\n";
  }
  log += "2026-01-01T00:09:59Z ERROR worker=w1 step=300 status=failed reason=disk full\n";
  RecallResult r = pack_hits({hit(log, 2)}, &engine, counter(), 0, "error");
  ASSERT_EQ(r.hits.size(), 1u);
  EXPECT_LT(r.hits[0].tokens_added, static_cast<std::int64_t>(counter().count(log)));
  EXPECT_NE(r.hits[0].text.find("disk full"), std::string::npos);
  ASSERT_FALSE(r.hits[0].recovery_handle.empty());
  EXPECT_EQ(engine.retrieve(r.hits[0].recovery_handle).value(), log);
}

}  // namespace
}  // namespace caveman::mem
