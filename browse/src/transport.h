// transport.h — a message channel to a browser's DevTools endpoint.
//
// Two implementations: PipeTransport (the `--remote-debugging-pipe` fds of a browser we
// launched; NUL-delimited JSON) and WebSocketTransport (websocket.h; an existing browser).
// Both are blocking with deadlines and single-threaded: one owner sends and receives.
// Failures: codes::kBrowserUnavailable (closed, crashed, I/O error) and codes::kBrowserTimeout
// (the deadline passed; the channel stays usable).
#ifndef CAVEMAN_BROWSE_TRANSPORT_H_
#define CAVEMAN_BROWSE_TRANSPORT_H_

#include <chrono>
#include <string>
#include <string_view>

#include "caveman/status.h"
#include "cdp_message.h"

namespace caveman::browse {

using Clock = std::chrono::steady_clock;

Status timeout_status(std::string message);
bool is_timeout(const Status& s);
// Milliseconds from now to `deadline`, clamped to [0, INT_MAX] for poll().
int ms_until(Clock::time_point deadline);

class Transport {
 public:
  virtual ~Transport() = default;
  // Sends one JSON message.
  virtual Status send(std::string_view message, Clock::time_point deadline) = 0;
  // The next JSON message. A timeout leaves partially received data buffered.
  virtual Result<std::string> receive(Clock::time_point deadline) = 0;
};

// `--remote-debugging-pipe`: we write commands to `write_fd` (the browser's fd 3) and read
// replies from `read_fd` (its fd 4). Owns and closes both fds.
class PipeTransport final : public Transport {
 public:
  PipeTransport(int write_fd, int read_fd);
  ~PipeTransport() override;
  PipeTransport(const PipeTransport&) = delete;
  PipeTransport& operator=(const PipeTransport&) = delete;

  Status send(std::string_view message, Clock::time_point deadline) override;
  Result<std::string> receive(Clock::time_point deadline) override;

 private:
  int write_fd_;
  int read_fd_;
  NulFramer framer_;
  bool closed_ = false;
};

// Writes all of `data` to a (possibly non-blocking) fd before `deadline`.
Status write_all(int fd, std::string_view data, Clock::time_point deadline);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_TRANSPORT_H_
