#include "caveman/base/mutex.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <thread>

namespace caveman::base {
namespace {

// The pattern docs/base.md prescribes: GUARDED_BY members, a REQUIRES wait predicate.
class Mailbox {
 public:
  void put(int v) {
    {
      MutexLock lock(mu_);
      value_ = v;
      full_ = true;
    }
    cv_.notify_all();
  }
  int take() {
    UniqueLock lock(mu_);
    cv_.wait(lock.native(), [&]() REQUIRES(mu_) { return full_; });
    full_ = false;
    return value_;
  }

 private:
  Mutex mu_;
  std::condition_variable cv_;
  int value_ GUARDED_BY(mu_) = 0;
  bool full_ GUARDED_BY(mu_) = false;
};

TEST(BaseMutex, ConditionVariableWaitsOnTheAnnotatedLock) {
  Mailbox box;
  std::thread producer([&] { box.put(42); });
  EXPECT_EQ(box.take(), 42);
  producer.join();
}

// Whether another thread can take `mu` right now.
bool free_elsewhere(Mutex& mu) {
  bool took = false;
  std::thread([&] {
    if (mu.try_lock()) {
      mu.unlock();
      took = true;
    }
  }).join();
  return took;
}

TEST(BaseMutex, UniqueLockUnlocksAndRelocks) {
  Mutex mu;
  {
    UniqueLock lock(mu);
    EXPECT_FALSE(free_elsewhere(mu));
    lock.unlock();
    EXPECT_TRUE(free_elsewhere(mu));
    lock.lock();
    EXPECT_FALSE(free_elsewhere(mu));
  }
  EXPECT_TRUE(free_elsewhere(mu));  // the destructor released it
}

}  // namespace
}  // namespace caveman::base
