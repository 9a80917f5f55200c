#include "executors.h"

namespace caveman::proxy {

BoundedThreadPool::BoundedThreadPool(std::size_t threads, std::size_t max_queued)
    : max_queued_(max_queued == 0 ? 1 : max_queued) {
  if (threads == 0) threads = 1;
  threads_.reserve(threads);
  for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

BoundedThreadPool::~BoundedThreadPool() { shutdown(); }

void BoundedThreadPool::enqueue(std::function<void()> fn) {
  base::UniqueLock lock(mu_);
  has_room_.wait(lock.native(),
                 [&]() REQUIRES(mu_) { return jobs_.size() < max_queued_ || stopping_; });
  jobs_.push_back(std::move(fn));
  lock.unlock();
  has_job_.notify_one();
}

void BoundedThreadPool::shutdown() {
  {
    base::MutexLock lock(mu_);
    if (stopping_ && threads_.empty()) return;
    stopping_ = true;
  }
  has_job_.notify_all();
  has_room_.notify_all();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
  threads_.clear();
}

void BoundedThreadPool::work() {
  while (true) {
    std::function<void()> fn;
    {
      base::UniqueLock lock(mu_);
      has_job_.wait(lock.native(), [&]() REQUIRES(mu_) { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping and drained
      fn = std::move(jobs_.front());
      jobs_.pop_front();
    }
    has_room_.notify_one();
    fn();
  }
}

RelayExecutor::~RelayExecutor() { join_all(); }

void RelayExecutor::run(std::function<void()> job) {
  base::UniqueLock lock(mu_);
  reap_locked();
  jobs_.push_back(std::move(job));
  if (idle_ >= jobs_.size()) {
    lock.unlock();
    cv_.notify_one();
    return;
  }
  // The new thread blocks on mu_ until it is registered here.
  std::thread t([this] { work(); });
  const std::thread::id id = t.get_id();
  threads_.emplace(id, std::move(t));
}

void RelayExecutor::reap_locked() {
  // An ended thread has released mu_ and only returns, so joining here does not wait on us.
  for (const std::thread::id& id : ended_) {
    auto it = threads_.find(id);
    if (it == threads_.end()) continue;
    it->second.join();
    threads_.erase(it);
  }
  ended_.clear();
}

std::size_t RelayExecutor::thread_count() {
  base::MutexLock lock(mu_);
  return threads_.size() - ended_.size();
}

void RelayExecutor::join_all() {
  std::map<std::thread::id, std::thread> threads;
  {
    base::UniqueLock lock(mu_);
    idle_cv_.wait(lock.native(), [&]() REQUIRES(mu_) { return jobs_.empty() && running_ == 0; });
    stopping_ = true;
    threads.swap(threads_);
    ended_.clear();
  }
  cv_.notify_all();
  for (auto& [id, t] : threads) {
    if (t.joinable()) t.join();
  }
}

void RelayExecutor::work() {
  base::UniqueLock lock(mu_);
  while (true) {
    ++idle_;
    cv_.wait_for(lock.native(), idle_timeout_,
                 [&]() REQUIRES(mu_) { return stopping_ || !jobs_.empty(); });
    --idle_;
    if (jobs_.empty()) {
      // Stopping, or idle for idle_timeout_: end, so the pool does not keep its high-water mark
      // (bench/proxy_load.sh saw 65 relay threads stay after a load with client disconnects).
      if (!stopping_) ended_.push_back(std::this_thread::get_id());
      return;
    }
    std::function<void()> job = std::move(jobs_.front());
    jobs_.pop_front();
    ++running_;
    lock.unlock();
    job();
    job = nullptr;
    lock.lock();
    --running_;
    if (jobs_.empty() && running_ == 0) idle_cv_.notify_all();
  }
}

}  // namespace caveman::proxy
