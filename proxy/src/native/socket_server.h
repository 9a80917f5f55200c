// The native runtime's Unix socket, $CAVEMAN_HOME/run/native.sock (docs/native.md#socket).
//
// start() prepares run/ (created 0700; refused when group/world-writable, not ours or a
// symlink), removes a stale socket only when a short dial fails, refuses an answering one
// (codes::kNativeAlreadyActive), then binds (socket 0600) and serves on its own threads: one
// accept loop and a small worker pool with a bounded queue, so nothing here can slow the
// proxy's HTTP serving. Per connection: one request (ended by '\n' or the client's
// half-close, ≤ 2 MiB), read within 250 ms of accept; the handler's answer is written
// within 250 ms; then close. Any problem — silence, oversize, invalid JSON, a full queue,
// another user's process — closes the connection without a response (hosts treat silence
// as allow). stop() (or the destructor) closes the listener, joins the threads and removes
// the socket file. Thread-safe.
#ifndef CAVEMAN_PROXY_NATIVE_SOCKET_SERVER_H_
#define CAVEMAN_PROXY_NATIVE_SOCKET_SERVER_H_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "caveman/base/mutex.h"
#include "caveman/status.h"
#include "native/protocol.h"

namespace caveman::proxy::native {

inline constexpr int kIoDeadlineMs = 250;
inline constexpr int kStaleDialMs = 50;

// nullopt → close without answering.
using RequestHandler = std::function<std::optional<std::string>(std::string_view request)>;

struct SocketServerOptions {
  int io_deadline_ms = kIoDeadlineMs;
  std::size_t max_request_bytes = kMaxRequestBytes;
  int workers = 2;
  std::size_t max_pending = 64;  // accepted connections waiting for a worker
};

std::string native_socket_path(const std::string& home);

// Refuses a directory that is a symlink, not a directory, not owned by this user, or
// group/world-writable (kInvalidArgument, codes::kNativeUnsafeDir).
Status check_private_dir(const std::string& dir);

class NativeSocketServer {
 public:
  // Errors: codes::kNativeUnsafeDir, codes::kNativeAlreadyActive (kUnavailable),
  // codes::kNativeSocketPathTooLong (over base::kMaxSocketPathBytes; the message names the
  // path and its length), codes::kNativeSocketFailed (kIo).
  static Result<std::unique_ptr<NativeSocketServer>> start(const std::string& socket_path,
                                                           RequestHandler handler,
                                                           SocketServerOptions options = {});
  ~NativeSocketServer();
  NativeSocketServer(const NativeSocketServer&) = delete;
  NativeSocketServer& operator=(const NativeSocketServer&) = delete;

  void stop();
  const std::string& path() const { return path_; }
  std::uint64_t answered() const { return answered_.load(); }
  std::uint64_t dropped() const { return dropped_.load(); }

 private:
  struct Pending {
    int fd;
    std::chrono::steady_clock::time_point accepted;
  };
  NativeSocketServer(std::string path, int listen_fd, int wake_read, int wake_write,
                     RequestHandler handler, SocketServerOptions options);
  void accept_loop();
  void worker_loop();
  void serve_one(const Pending& p);

  std::string path_;
  int listen_fd_;
  int wake_read_;
  int wake_write_;
  RequestHandler handler_;
  SocketServerOptions options_;
  base::Mutex mu_;
  std::condition_variable cv_;
  std::deque<Pending> queue_ GUARDED_BY(mu_);
  bool stopping_ GUARDED_BY(mu_) = false;
  std::atomic<std::uint64_t> answered_{0};
  std::atomic<std::uint64_t> dropped_{0};
  std::thread acceptor_;
  std::vector<std::thread> workers_;
  std::once_flag stopped_;
};

// Client side: connect, send `request` + '\n', half-close, read the answer until EOF, all
// within `deadline_ms`. kUnavailable (codes::kNativeUnavailable) when nobody answers in time
// or the server closed without a response; kInvalidArgument (codes::kNativeSocketPathTooLong)
// when `socket_path` is over the 107-byte limit, so no server can be listening there.
Result<std::string> native_exchange(const std::string& socket_path, std::string_view request,
                                    int deadline_ms);

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_SOCKET_SERVER_H_
