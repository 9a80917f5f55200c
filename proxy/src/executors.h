// The proxy's two thread pools.
//
// BoundedThreadPool is cpp-httplib's task queue: a fixed number of workers serve accepted
// connections and at most `max_queued` more wait; when that queue is full the accept loop
// blocks (the kernel backlog absorbs the rest), so 1,000 simultaneous connections queue up
// instead of exhausting threads or memory. shutdown() lets queued and running connections
// finish, then joins.
//
// RelayExecutor runs upstream relays (one per in-flight request) on reusable threads: an idle
// thread takes the job, otherwise a new one starts. A thread idle for `idle_timeout` ends, so
// the pool shrinks back after a burst: its size follows the relays in flight — the server's
// workers plus relays still finishing after their client left, which can briefly exceed the
// workers — instead of keeping its high-water mark for the life of the process.
// join_all() waits for every job and stops the threads. Both are thread-safe.
#ifndef CAVEMAN_PROXY_EXECUTORS_H_
#define CAVEMAN_PROXY_EXECUTORS_H_

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <thread>
#include <vector>

#include "caveman/base/mutex.h"

namespace caveman::proxy {

class BoundedThreadPool final : public httplib::TaskQueue {
 public:
  BoundedThreadPool(std::size_t threads, std::size_t max_queued);
  ~BoundedThreadPool() override;
  void enqueue(std::function<void()> fn) override;
  void shutdown() override;

 private:
  void work();

  std::size_t max_queued_;
  base::Mutex mu_;
  std::condition_variable has_job_;
  std::condition_variable has_room_;
  std::deque<std::function<void()>> jobs_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  std::vector<std::thread> threads_;
};

inline constexpr std::chrono::milliseconds kRelayIdleTimeout{2000};

class RelayExecutor {
 public:
  explicit RelayExecutor(std::chrono::milliseconds idle_timeout = kRelayIdleTimeout)
      : idle_timeout_(idle_timeout) {}
  ~RelayExecutor();
  RelayExecutor(const RelayExecutor&) = delete;
  RelayExecutor& operator=(const RelayExecutor&) = delete;

  void run(std::function<void()> job);
  // Waits for running and queued jobs, then stops every thread.
  void join_all();
  // Threads currently alive (running a job or idle).
  std::size_t thread_count();

 private:
  void work();
  void reap_locked() REQUIRES(mu_);  // joins threads that ended idle

  const std::chrono::milliseconds idle_timeout_;

  base::Mutex mu_;
  std::condition_variable cv_;
  std::condition_variable idle_cv_;
  std::deque<std::function<void()>> jobs_ GUARDED_BY(mu_);
  std::size_t idle_ GUARDED_BY(mu_) = 0;
  std::size_t running_ GUARDED_BY(mu_) = 0;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::map<std::thread::id, std::thread> threads_ GUARDED_BY(mu_);
  std::vector<std::thread::id> ended_ GUARDED_BY(mu_);  // ended idle, not joined yet
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_EXECUTORS_H_
