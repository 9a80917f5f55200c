// Idle exit of wrap-owned proxies: Go durations, the activity clock, and the watch that
// fires once when idle and not busy (docs/spec/proxy.md#idle-exit).
#include "idle_exit.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "support/test_support.h"

namespace caveman::proxy {
namespace {

TEST(GoDuration, ParsesUnitsAndSequences) {
  EXPECT_EQ(*parse_go_duration_ms("30m"), 30 * 60 * 1000);
  EXPECT_EQ(*parse_go_duration_ms("1h30m"), 90 * 60 * 1000);
  EXPECT_EQ(*parse_go_duration_ms("90s"), 90000);
  EXPECT_EQ(*parse_go_duration_ms("250ms"), 250);
  EXPECT_EQ(*parse_go_duration_ms("1.5s"), 1500);
  EXPECT_EQ(*parse_go_duration_ms("2000us"), 2);
  EXPECT_EQ(*parse_go_duration_ms("2000\xC2\xB5s"), 2);
  EXPECT_EQ(*parse_go_duration_ms("0"), 0);
}

TEST(GoDuration, RejectsWhatGoRejects) {
  for (const char* bad : {"", "30", "m", "1x", "1.2.3s", "-5m", "five minutes", "1h 30m", "."}) {
    Result<std::int64_t> r = parse_go_duration_ms(bad);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) EXPECT_EQ(r.status().error_code(), "cave_invalid_duration") << bad;
  }
}

TEST(IdleTimeout, DefaultWhenUnsetInvalidOrZero) {
  EXPECT_EQ(idle_timeout_ms(map_env({})), kDefaultIdleTimeoutMs);
  EXPECT_EQ(idle_timeout_ms(map_env({{"CAVEMAN_NATIVE_IDLE_TIMEOUT", "soon"}})), kDefaultIdleTimeoutMs);
  EXPECT_EQ(idle_timeout_ms(map_env({{"CAVEMAN_NATIVE_IDLE_TIMEOUT", "0s"}})), kDefaultIdleTimeoutMs);
  EXPECT_EQ(idle_timeout_ms(map_env({{"CAVEMAN_NATIVE_IDLE_TIMEOUT", "45s"}})), 45000);
}

TEST(ActivityClock, TouchResetsIdleTime) {
  std::atomic<std::int64_t> now{1000};
  ActivityClock clock([&] { return now.load(); });
  EXPECT_EQ(clock.idle_ms(), 0);
  now = 1700;
  EXPECT_EQ(clock.idle_ms(), 700);
  clock.touch();
  EXPECT_EQ(clock.idle_ms(), 0);
}

// Waits (real time, bounded) for a flag; the watch polls every millisecond.
bool eventually(const std::atomic<int>& fired, int want) {
  for (int i = 0; i < 5000 && fired.load() != want; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return fired.load() == want;
}

TEST(IdleWatch, FiresOnceWhenIdleLongEnoughAndNotBusy) {
  std::atomic<std::int64_t> now{0};
  ActivityClock clock([&] { return now.load(); });
  std::atomic<bool> busy{true};
  std::atomic<int> fired{0};
  IdleWatch watch(&clock, 100, [&] { return busy.load(); }, [&] { ++fired; }, 1);
  now = 50;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(fired.load(), 0) << "not idle long enough";
  now = 500;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(fired.load(), 0) << "a request in flight holds the proxy up";
  busy = false;
  EXPECT_TRUE(eventually(fired, 1));
  now = 5000;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(fired.load(), 1) << "fires once";
}

TEST(IdleWatch, ActivityPostponesAndStopEndsWithoutFiring) {
  std::atomic<std::int64_t> now{0};
  ActivityClock clock([&] { return now.load(); });
  std::atomic<int> fired{0};
  {
    IdleWatch watch(&clock, 100, [] { return false; }, [&] { ++fired; }, 1);
    for (int step = 0; step < 20; ++step) {  // time passes, but something keeps touching
      now += 60;
      clock.touch();
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    EXPECT_EQ(fired.load(), 0);
    watch.stop();
    now += 1000;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(fired.load(), 0);
}

}  // namespace
}  // namespace caveman::proxy
