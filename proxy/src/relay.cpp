#include "relay.h"

namespace caveman::proxy {

bool ByteChannel::push(std::string_view chunk) {
  base::UniqueLock lock(mu_);
  cv_.wait(lock.native(),
           [&]() REQUIRES(mu_) { return reader_closed_ || buffered_ < max_buffered_; });
  if (reader_closed_) return false;
  chunks_.emplace_back(chunk);
  buffered_ += chunk.size();
  lock.unlock();
  cv_.notify_all();
  return true;
}

ByteChannel::Pop ByteChannel::pop(std::string* out, std::chrono::milliseconds wait) {
  base::UniqueLock lock(mu_);
  bool ready = cv_.wait_for(lock.native(), wait,
                            [&]() REQUIRES(mu_) { return !chunks_.empty() || writer_closed_; });
  if (!ready) return Pop::kTimeout;
  if (chunks_.empty()) return Pop::kEnd;
  *out = std::move(chunks_.front());
  chunks_.pop_front();
  buffered_ -= out->size();
  lock.unlock();
  cv_.notify_all();
  return Pop::kData;
}

void ByteChannel::close_writer(Status final_status) {
  {
    base::MutexLock lock(mu_);
    writer_closed_ = true;
    final_ = std::move(final_status);
  }
  cv_.notify_all();
}

void ByteChannel::close_reader() {
  {
    base::MutexLock lock(mu_);
    reader_closed_ = true;
    chunks_.clear();
    buffered_ = 0;
  }
  cv_.notify_all();
}

Status ByteChannel::final_status() {
  base::MutexLock lock(mu_);
  return final_;
}

void HeadLatch::publish(UpstreamHead head) {
  {
    base::MutexLock lock(mu_);
    if (head_ || failure_) return;
    head_ = std::move(head);
  }
  cv_.notify_all();
}

void HeadLatch::fail(Status status) {
  {
    base::MutexLock lock(mu_);
    if (head_ || failure_) return;
    failure_ = std::move(status);
  }
  cv_.notify_all();
}

Result<UpstreamHead> HeadLatch::wait() {
  base::UniqueLock lock(mu_);
  cv_.wait(lock.native(),
           [&]() REQUIRES(mu_) { return head_.has_value() || failure_.has_value(); });
  if (head_) return *head_;
  return *failure_;
}

}  // namespace caveman::proxy
