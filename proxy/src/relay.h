// The streaming relay between one upstream exchange and one client response (streaming
// requests; the rest are answered on the server worker, see exchange.cpp).
//
// The upstream side runs on a RelayExecutor thread and pushes body chunks into a bounded
// ByteChannel; the server's content provider pops them and writes each to the client as it
// arrives (one socket write per chunk, so SSE events flush immediately). A full channel
// blocks the upstream reader (back-pressure); a client that stops reading or disconnects
// cancels the upstream request. Thread-safe.
#ifndef CAVEMAN_PROXY_RELAY_H_
#define CAVEMAN_PROXY_RELAY_H_

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <optional>
#include <string>

#include "caveman/base/mutex.h"
#include "caveman/status.h"
#include "upstream.h"

namespace caveman::proxy {

class ByteChannel {
 public:
  explicit ByteChannel(std::size_t max_buffered = 1024 * 1024) : max_buffered_(max_buffered) {}

  // Blocks while the buffer is full; false once the reader has gone.
  bool push(std::string_view chunk);
  enum class Pop { kData, kEnd, kTimeout };
  // kEnd after close_writer() once the buffer is drained.
  Pop pop(std::string* out, std::chrono::milliseconds wait);
  void close_writer(Status final_status);
  void close_reader();
  Status final_status();

 private:
  std::size_t max_buffered_;
  base::Mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> chunks_ GUARDED_BY(mu_);
  std::size_t buffered_ GUARDED_BY(mu_) = 0;
  bool writer_closed_ GUARDED_BY(mu_) = false;
  bool reader_closed_ GUARDED_BY(mu_) = false;
  Status final_ GUARDED_BY(mu_);
};

// One-shot publication of the upstream response head (or of the failure before it).
class HeadLatch {
 public:
  void publish(UpstreamHead head);
  void fail(Status status);
  // Blocks until publish() or fail(); returns the head or the failure.
  Result<UpstreamHead> wait();

 private:
  base::Mutex mu_;
  std::condition_variable cv_;
  std::optional<UpstreamHead> head_ GUARDED_BY(mu_);
  std::optional<Status> failure_ GUARDED_BY(mu_);
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_RELAY_H_
