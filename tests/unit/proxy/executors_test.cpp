// RelayExecutor: relays run on reused threads, and threads left idle end, so a burst of relays
// (for example relays still finishing after their clients disconnected) does not leave its
// high-water mark of threads behind for the life of the proxy.
#include "executors.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace caveman::proxy {
namespace {

using std::chrono::milliseconds;

// Polls a condition (no timing assertion: the deadline only bounds a broken build's hang).
template <typename F>
bool eventually(F condition) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(milliseconds(5));
  }
  return true;
}

class Gate {
 public:
  void wait() {
    std::unique_lock<std::mutex> lock(mu_);
    ++waiting_;
    cv_.wait(lock, [&] { return open_; });
  }
  void open() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      open_ = true;
    }
    cv_.notify_all();
  }
  int waiting() {
    std::lock_guard<std::mutex> lock(mu_);
    return waiting_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int waiting_ = 0;
  bool open_ = false;
};

// Found by bench/proxy_load.sh: after a load with client disconnects the proxy kept 65 relay
// threads (more than its 64 workers) until it exited.
TEST(RelayExecutorTest, IdleThreadsEndSoABurstLeavesNoThreadsBehind) {
  RelayExecutor relays(milliseconds(20));
  Gate gate;
  std::atomic<int> done{0};
  for (int i = 0; i < 8; ++i) {
    relays.run([&] {
      gate.wait();
      ++done;
    });
  }
  ASSERT_TRUE(eventually([&] { return gate.waiting() == 8; }));
  EXPECT_EQ(relays.thread_count(), 8u);  // all in flight at once: one thread each
  gate.open();
  ASSERT_TRUE(eventually([&] { return done.load() == 8; }));
  EXPECT_TRUE(eventually([&] { return relays.thread_count() == 0; }));

  // The pool starts threads again for the next burst.
  relays.run([&] { ++done; });
  EXPECT_TRUE(eventually([&] { return done.load() == 9; }));
  relays.join_all();
  EXPECT_EQ(relays.thread_count(), 0u);
}

TEST(RelayExecutorTest, SequentialJobsReuseOneIdleThread) {
  RelayExecutor relays(std::chrono::hours(1));
  std::atomic<int> done{0};
  for (int i = 0; i < 20; ++i) {
    relays.run([&] { ++done; });
    ASSERT_TRUE(eventually([&] { return done.load() == i + 1; }));
    // The finished thread may not have gone back to idle yet when the next job arrives, so
    // a second thread can start; never one per job.
    EXPECT_LE(relays.thread_count(), 2u);
  }
  relays.join_all();
  EXPECT_EQ(done.load(), 20);
}

TEST(RelayExecutorTest, JoinAllWaitsForQueuedAndRunningJobs) {
  RelayExecutor relays;
  std::atomic<int> done{0};
  for (int i = 0; i < 16; ++i) {
    relays.run([&] {
      std::this_thread::sleep_for(milliseconds(1));
      ++done;
    });
  }
  relays.join_all();
  EXPECT_EQ(done.load(), 16);
  EXPECT_EQ(relays.thread_count(), 0u);
}

}  // namespace
}  // namespace caveman::proxy
