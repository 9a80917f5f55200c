// The proxy's two thread pools.
//
// BoundedThreadPool is cpp-httplib's task queue: a fixed number of workers serve accepted
// connections and at most `max_queued` more wait; when that queue is full the accept loop
// blocks (the kernel backlog absorbs the rest), so 1,000 simultaneous connections queue up
// instead of exhausting threads or memory. shutdown() lets queued and running connections
// finish, then joins.
//
// RelayExecutor runs upstream relays (one per in-flight streaming request) on reusable
// threads: an idle thread takes the job, otherwise a new one starts. Its size is bounded by
// the server's workers (each relay belongs to one served request). join_all() waits for
// every job and stops the threads. Both are thread-safe.
#ifndef CAVEMAN_PROXY_EXECUTORS_H_
#define CAVEMAN_PROXY_EXECUTORS_H_

#include <httplib.h>

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

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
  std::mutex mu_;
  std::condition_variable has_job_;
  std::condition_variable has_room_;
  std::deque<std::function<void()>> jobs_;  // guarded by mu_
  bool stopping_ = false;                   // guarded by mu_
  std::vector<std::thread> threads_;
};

class RelayExecutor {
 public:
  RelayExecutor() = default;
  ~RelayExecutor();
  RelayExecutor(const RelayExecutor&) = delete;
  RelayExecutor& operator=(const RelayExecutor&) = delete;

  void run(std::function<void()> job);
  // Waits for running and queued jobs, then stops every thread.
  void join_all();

 private:
  void work();

  std::mutex mu_;
  std::condition_variable cv_;
  std::condition_variable idle_cv_;
  std::deque<std::function<void()>> jobs_;  // guarded by mu_
  std::size_t idle_ = 0;                    // guarded by mu_
  std::size_t running_ = 0;                 // guarded by mu_
  bool stopping_ = false;                   // guarded by mu_
  std::vector<std::thread> threads_;        // guarded by mu_
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_EXECUTORS_H_
