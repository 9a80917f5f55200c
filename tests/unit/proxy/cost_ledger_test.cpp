#include "cost_ledger.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace caveman::proxy {
namespace {

// One compressed Anthropic request of session 9 whose client and sent bodies are the same
// size (the record estimate's byte scale is 1), with the given usage.
UsageRow compressed_row(const std::shared_ptr<const std::string>& body) {
  UsageRow row;
  row.provider = Provider::kAnthropic;
  row.model = "claude-sonnet-4-6";
  row.session_key = 9;
  row.guard_charge = true;
  row.raw_body = body;
  row.sent_body = body;
  return row;
}

Usage usage(std::int64_t input, std::int64_t cache_write, std::int64_t cache_read) {
  Usage u;
  u.input = input;
  u.output = 50;
  u.cache_write = cache_write;
  u.cache_read = cache_read;
  return u;
}

// An SDK agent behind the breakpoint planner: its first requests are too short to cache, then
// the planner's first breakpoint writes the whole prompt. The previous request left nothing
// in the cache, so the record estimate pays that write too: the guard must not charge it to
// compression (it did, and stopped compression in the session benchmark's SDK session).
TEST(CostLedgerGuard, APromptTheProviderDidNotCacheIsNotReadBackInTheRecordEstimate) {
  Config config;
  SessionBook book;
  CostLedger ledger(&config, nullptr, &book);
  auto body = std::make_shared<const std::string>("{}");
  for (std::int64_t input : {900, 950, 1000}) {
    UsageRow row = compressed_row(body);
    ledger.enrich(row, usage(input, 0, 0), 0);
    EXPECT_TRUE(row.guard_note.empty());
  }
  UsageRow first_write = compressed_row(body);
  ledger.enrich(first_write, usage(0, 4000, 0), 0);
  EXPECT_TRUE(first_write.guard_note.empty()) << first_write.guard_note;
  UsageRow read = compressed_row(body);
  ledger.enrich(read, usage(0, 300, 4000), 0);
  EXPECT_TRUE(read.guard_note.empty()) << read.guard_note;
  EXPECT_FALSE(book.stopped(9));
}

// Churn is still caught: a cached session whose compressed requests write again what the
// previous request had cached costs more than its record estimate.
TEST(CostLedgerGuard, RewritingWhatThePreviousRequestCachedStopsCompression) {
  Config config;
  SessionBook book;
  CostLedger ledger(&config, nullptr, &book);
  auto body = std::make_shared<const std::string>("{}");
  UsageRow first = compressed_row(body);
  ledger.enrich(first, usage(0, 4000, 0), 0);
  std::string note;
  for (int i = 0; i < 4 && note.empty(); ++i) {
    UsageRow churned = compressed_row(body);
    ledger.enrich(churned, usage(0, 4000 + 100 * (i + 1), 0), 0);
    note = churned.guard_note;
  }
  EXPECT_NE(note.find("record estimate"), std::string::npos);
  EXPECT_TRUE(book.stopped(9));
}

// Issue 37: a pause past the cache's lifetime makes the next request write the whole prompt
// whatever was sent; the record estimate pays that write too, so the guard does not blame
// compression for it (it did, and stopped compression in long paused sessions).
TEST(CostLedgerGuard, AWriteAfterALapseIsNotChargedToCompression) {
  Config config;
  SessionBook book;
  CostLedger ledger(&config, nullptr, &book);
  auto body = std::make_shared<const std::string>("{}");
  UsageRow first = compressed_row(body);
  ledger.enrich(first, usage(0, 4000, 0), 0);
  for (int i = 0; i < 4; ++i) {
    UsageRow lapsed = compressed_row(body);
    lapsed.cache_lapsed = true;
    ledger.enrich(lapsed, usage(0, 4000 + 100 * (i + 1), 0), 0);
    EXPECT_TRUE(lapsed.guard_note.empty()) << lapsed.guard_note;
  }
  EXPECT_FALSE(book.stopped(9));
}

// Issue 37: the lifetime choice writes the prompt at the 1-hour rate (2x input instead of
// 1.25x); the record estimate prices the client's bytes at the same split, so compression
// that saved a little is not blamed for the premium (it was, and active mode stopped
// compressing every long Claude Code session after its fourth request).
TEST(CostLedgerGuard, TheOneHourPremiumIsNotChargedToCompression) {
  Config config;
  SessionBook book;
  CostLedger ledger(&config, nullptr, &book);
  auto body = std::make_shared<const std::string>(std::string(100, ' '));
  auto client = std::make_shared<const std::string>(std::string(101, ' '));  // compression saved 1%
  for (int i = 0; i < 5; ++i) {
    UsageRow row = compressed_row(body);
    row.raw_body = client;
    Usage u = usage(0, 4000 + 100 * i, i == 0 ? 0 : 4000 + 100 * (i - 1));
    if (i > 0) u.cache_write = 100;
    u.cache_write_1h = u.cache_write;  // every write at the 1-hour rate
    ledger.enrich(row, u, 0);
    EXPECT_TRUE(row.guard_note.empty()) << row.guard_note;
  }
  EXPECT_FALSE(book.stopped(9));
}

}  // namespace
}  // namespace caveman::proxy
