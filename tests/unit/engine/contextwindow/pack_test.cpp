// Context packer (docs/spec/ranking.md#pack): budget never exceeded, original order kept, error
// items preferred, deterministic ties, exact token accounting.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "caveman/contextwindow.h"

namespace caveman::contextwindow {
namespace {

Item item(std::string id, std::string text, std::int64_t tokens = 0) {
  Item it;
  it.id = std::move(id);
  it.text = std::move(text);
  it.tokens = tokens;
  return it;
}

std::vector<std::string> ids(const PackResult& r) {
  std::vector<std::string> out;
  for (const PackedItem& p : r.items) out.push_back(p.id);
  return out;
}

TEST(PackTest, BudgetNeverExceededAndAccountingIsExact) {
  // A deterministic sweep of item sizes and budgets.
  std::uint64_t s = 12345;
  auto next = [&] { return s = s * 6364136223846793005ull + 1442695040888963407ull, s >> 33; };
  for (int round = 0; round < 300; ++round) {
    std::vector<Item> items;
    int n = static_cast<int>(next() % 30);
    std::int64_t total = 0;
    for (int i = 0; i < n; ++i) {
      std::int64_t t = static_cast<std::int64_t>(next() % 400);
      items.push_back(item("i" + std::to_string(i), "item text " + std::to_string(i), t));
      total += t > 0 ? t : 0;
    }
    PackOptions o;
    o.max_tokens = static_cast<std::int64_t>(1 + next() % 3000);
    o.reserve_tokens = static_cast<std::int64_t>(next() % 500);
    o.counter = &tokens::default_counter();
    PackResult r = pack("text", items, o);
    std::int64_t used = 0;
    for (const PackedItem& p : r.items) used += p.tokens;
    EXPECT_EQ(r.budget, std::max<std::int64_t>(0, o.max_tokens - o.reserve_tokens));
    EXPECT_LE(r.tokens_used, r.budget);
    EXPECT_EQ(r.tokens_used, used);
    // tokens_before counts given tokens, and counts the text of zero-token items.
    std::int64_t before = 0;
    for (const Item& it : items) {
      before += it.tokens > 0 ? it.tokens
                              : static_cast<std::int64_t>(tokens::default_counter().count(it.text));
    }
    EXPECT_EQ(r.tokens_before, before);
    EXPECT_EQ(r.tokens_saved, std::max<std::int64_t>(0, before - used));
    EXPECT_EQ(r.deferred, items.size() - r.items.size());
  }
}

TEST(PackTest, ZeroTokensAreCountedWithTheCounter) {
  std::vector<Item> items = {item("a", "hello world, this is some text")};
  PackResult r = pack("", items);
  ASSERT_EQ(r.items.size(), 1u);
  EXPECT_EQ(r.items[0].tokens,
            static_cast<std::int64_t>(tokens::default_counter().count(items[0].text)));
  EXPECT_EQ(r.tokens_used, r.items[0].tokens);
  EXPECT_EQ(r.budget, kDefaultMaxTokens);
}

TEST(PackTest, OriginalOrderIsKept) {
  std::vector<Item> items = {item("a", "unrelated notes", 10), item("b", "kafka consumer lag", 10),
                             item("c", "more unrelated", 10), item("d", "kafka lag alert", 10)};
  PackOptions o;
  o.max_tokens = 20;
  PackResult r = pack("kafka lag", items, o);
  EXPECT_EQ(ids(r), (std::vector<std::string>{"b", "d"}));
  EXPECT_LT(r.items[0].index, r.items[1].index);
  o.max_tokens = 1000;
  EXPECT_EQ(ids(pack("kafka lag", items, o)), (std::vector<std::string>{"a", "b", "c", "d"}));
}

TEST(PackTest, ErrorItemsArePreferred) {
  std::vector<Item> items = {
      item("ok1", "build step finished", 50), item("err", "linker: FATAL undefined symbol", 50),
      item("ok2", "build step started", 50), item("fail", "3 tests failed", 50)};
  PackOptions o;
  o.max_tokens = 100;
  PackResult r = pack("", items, o);
  EXPECT_EQ(ids(r), (std::vector<std::string>{"err", "fail"}));
  EXPECT_TRUE(has_error_signal("Traceback (most recent call last)"));
  EXPECT_TRUE(has_error_signal("security: REGRESSION found"));
  EXPECT_FALSE(has_error_signal("terrorism errors failing"));  // whole words only
}

TEST(PackTest, TiesBreakByIndexDeterministically) {
  std::vector<Item> items;
  for (int i = 0; i < 10; ++i) items.push_back(item("t" + std::to_string(i), "same text", 10));
  PackOptions o;
  o.max_tokens = 35;
  PackResult a = pack("same", items, o);
  EXPECT_EQ(ids(a), (std::vector<std::string>{"t0", "t1", "t2"}));
  for (int run = 0; run < 5; ++run) EXPECT_EQ(ids(pack("same", items, o)), ids(a));
}

TEST(PackTest, OversizedItemsAreSkippedSoSmallerOnesStillFit) {
  std::vector<Item> items = {item("big", "error kafka", 90), item("small", "kafka", 30),
                             item("tiny", "other", 5), item("empty", "", 0)};
  PackOptions o;
  o.max_tokens = 40;
  PackResult r = pack("kafka", items, o);
  EXPECT_EQ(ids(r), (std::vector<std::string>{"small", "tiny"}));
  EXPECT_EQ(r.tokens_used, 35);
  EXPECT_EQ(r.deferred, 2u);
}

TEST(PackTest, PinPriorityAndRecencyShapeTheScore) {
  auto t0 = Clock::time_point{} + std::chrono::hours(1000);
  std::vector<Item> items = {item("old", "note", 10), item("new", "note", 10),
                             item("pinned", "note", 10), item("prio", "note", 10)};
  items[0].timestamp = t0 - std::chrono::hours(24);
  items[1].timestamp = t0;
  items[2].pin = true;
  items[3].priority = 0.5;
  PackOptions o;
  o.max_tokens = 30;
  PackResult r = pack("", items, o);
  EXPECT_EQ(ids(r), (std::vector<std::string>{"new", "pinned", "prio"}));
  // now = latest timestamp: the newest item gets the full recency weight.
  EXPECT_DOUBLE_EQ(r.items[0].score, kDefaultRecencyWeight);
  EXPECT_DOUBLE_EQ(r.items[1].score, kPinBoost);
  EXPECT_DOUBLE_EQ(r.items[2].score, 0.5);
  // A future timestamp counts as age 0, not as a bonus above the weight.
  PackOptions past = o;
  past.now = t0 - std::chrono::hours(48);
  EXPECT_DOUBLE_EQ(static_score(items[1], past, *past.now), kDefaultRecencyWeight);
  // A real half-life: after 6 h the recency bonus is half the weight, after 12 h a quarter.
  EXPECT_NEAR(static_score(items[0], o, items[0].timestamp.value() + std::chrono::hours(6)),
              kDefaultRecencyWeight / 2, 1e-12);
  EXPECT_NEAR(static_score(items[0], o, items[0].timestamp.value() + std::chrono::hours(12)),
              kDefaultRecencyWeight / 4, 1e-12);
}

TEST(PackTest, ReserveLargerThanMaxPacksNothing) {
  std::vector<Item> items = {item("a", "x", 1)};
  PackOptions o;
  o.max_tokens = 10;
  o.reserve_tokens = 20;
  PackResult r = pack("", items, o);
  EXPECT_EQ(r.budget, 0);
  EXPECT_TRUE(r.items.empty());
  EXPECT_EQ(r.deferred, 1u);
  EXPECT_EQ(r.tokens_saved, 1);
}

}  // namespace
}  // namespace caveman::contextwindow
