// Engine::compress and simulate report exactly O200kCounter::count of the input and of the
// output, whether the input is counted inline or (1 MiB and more) on a second thread, and
// whether the output's lines come from the input's memoized segments or not.
#include <gtest/gtest.h>

#include <string>

#include "caveman/ccr.h"
#include "caveman/engine.h"
#include "caveman/tokens.h"

namespace caveman {
namespace {

std::string log_of(std::size_t min_bytes) {
  std::string s;
  for (int i = 0; s.size() < min_bytes; ++i) {
    s += "2026-11-30 04:" + std::to_string(10 + i % 50) + ":00 INFO worker " +
         std::to_string(i % 7) + " processed batch " + std::to_string(i) + " in " +
         std::to_string(3 + i % 11) + " ms\n";
    if (i % 997 == 0)
      s += "2026-11-30 04:00:00 ERROR worker 3 lost its lease on shard " + std::to_string(i) + "\n";
  }
  return s;
}

// Pretty-printed, as an API answers.
std::string json_of(std::size_t min_bytes) {
  std::string s = "{\n  \"results\": [\n";
  for (int i = 0; s.size() < min_bytes; ++i) {
    if (i > 0) s += ",\n";
    s += "    {\n      \"id\": " + std::to_string(i) + ",\n      \"status\": \"" +
         (i % 3 ? "shipped" : "pending") + "\",\n      \"amount\": " + std::to_string(i % 500) +
         "." + std::to_string(i % 100) + "\n    }";
  }
  s += "\n  ]\n}\n";
  return s;
}

void expect_exact_counts(const std::string& input) {
  auto store = ccr::open_store(std::string(ccr::kMemoryPath));
  ASSERT_TRUE(store.ok());
  Engine engine(std::shared_ptr<ccr::Store>(std::move(store).value()));
  const tokens::O200kCounter& counter = tokens::default_counter();
  Options options;
  options.mode = "compress";
  CompressResult r = engine.compress(input, options);
  ASSERT_FALSE(r.recovery_handle.empty()) << "the input should compress";
  EXPECT_EQ(r.tokens_before, static_cast<std::int64_t>(counter.count(input)));
  EXPECT_EQ(r.tokens_after, static_cast<std::int64_t>(counter.count(r.output)));
  SimResult s = engine.simulate(input, options);
  EXPECT_EQ(s.tokens_before, r.tokens_before);
  EXPECT_EQ(s.tokens_after, r.tokens_after);
}

TEST(EngineCounts, SmallLogCountedInline) { expect_exact_counts(log_of(std::size_t{200} * 1024)); }

TEST(EngineCounts, LargeLogCountedOnASecondThread) {
  expect_exact_counts(log_of(std::size_t{1100} * 1024));
}

TEST(EngineCounts, LargeJsonCountedOnASecondThread) {
  expect_exact_counts(json_of(std::size_t{1100} * 1024));
}

}  // namespace
}  // namespace caveman
