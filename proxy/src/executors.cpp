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
  std::unique_lock<std::mutex> lock(mu_);
  has_room_.wait(lock, [&] { return jobs_.size() < max_queued_ || stopping_; });
  jobs_.push_back(std::move(fn));
  lock.unlock();
  has_job_.notify_one();
}

void BoundedThreadPool::shutdown() {
  {
    std::lock_guard<std::mutex> lock(mu_);
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
      std::unique_lock<std::mutex> lock(mu_);
      has_job_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
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
  std::unique_lock<std::mutex> lock(mu_);
  jobs_.push_back(std::move(job));
  if (idle_ >= jobs_.size()) {
    lock.unlock();
    cv_.notify_one();
    return;
  }
  threads_.emplace_back([this] { work(); });
}

void RelayExecutor::join_all() {
  std::vector<std::thread> threads;
  {
    std::unique_lock<std::mutex> lock(mu_);
    idle_cv_.wait(lock, [&] { return jobs_.empty() && running_ == 0; });
    stopping_ = true;
    threads.swap(threads_);
  }
  cv_.notify_all();
  for (std::thread& t : threads) {
    if (t.joinable()) t.join();
  }
}

void RelayExecutor::work() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    ++idle_;
    cv_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
    --idle_;
    if (jobs_.empty()) return;  // stopping
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
