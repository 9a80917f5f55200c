// Helpers for the cavemem tests: a deterministic clock, store/service openers on temp dirs,
// and the scoped environment variable of test_support.h.
#ifndef CAVEMAN_TESTS_UNIT_MEM_MEM_TEST_UTIL_H_
#define CAVEMAN_TESTS_UNIT_MEM_MEM_TEST_UTIL_H_

#include <memory>
#include <optional>
#include <string>

#include "clock.h"
#include "service.h"
#include "store.h"
#include "support/test_support.h"

namespace caveman::mem::testing {

// 2026-01-01T00:00:00.000001Z, then one microsecond later on every call.
class StepClock final : public Clock {
 public:
  std::string now() const override { return format_utc_micros(kStart + ++ticks_); }
  static constexpr std::int64_t kStart = 1767225600LL * 1'000'000;

 private:
  mutable std::int64_t ticks_ = 0;
};

inline std::unique_ptr<MemStore> open_store(const std::string& path, const Clock* clock) {
  StoreOptions options;
  options.clock = clock;
  auto store = MemStore::open(path, options);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  return store.ok() ? std::move(store).value() : nullptr;
}

inline NewMemory text_only(std::string text) { return NewMemory{std::move(text), std::nullopt, std::nullopt}; }

using ::caveman::testing::ScopedEnv;  // shared with the other components' tests

}  // namespace caveman::mem::testing

#endif  // CAVEMAN_TESTS_UNIT_MEM_MEM_TEST_UTIL_H_
