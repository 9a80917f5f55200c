#include "native/socket_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "caveman/base/codes.h"
#include "caveman/base/socket_path.h"

namespace caveman::proxy::native {
namespace {

using Clock = std::chrono::steady_clock;

Status sock_error(const std::string& what) {
  return Status::Io(codes::kNativeSocketFailed, what + ": " + std::strerror(errno));
}

int remaining_ms(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(left);
}

// Waits for `events` on fd until the deadline; false on timeout or error.
bool wait_fd(int fd, short events, Clock::time_point deadline) {
  while (true) {
    int left = remaining_ms(deadline);
    if (left == 0) return false;
    pollfd p{fd, events, 0};
    int n = ::poll(&p, 1, left);
    if (n > 0) return (p.revents & (events | POLLHUP)) != 0;
    if (n == 0) return false;
    if (errno != EINTR) return false;
  }
}

constexpr std::string_view kWhat = "the native runtime's socket";

Status fill_addr(const std::string& path, sockaddr_un* addr) {
  return base::fill_socket_address(path, addr, codes::kNativeSocketPathTooLong, kWhat);
}

// Connects a non-blocking Unix socket within the deadline; -1 on failure (errno kept).
int dial(const std::string& path, Clock::time_point deadline) {
  sockaddr_un addr{};
  if (!fill_addr(path, &addr).ok()) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) return fd;
  if (errno == EINPROGRESS || errno == EAGAIN) {
    if (wait_fd(fd, POLLOUT, deadline)) {
      int err = 0;
      socklen_t len = sizeof err;
      if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0) return fd;
      errno = err != 0 ? err : ETIMEDOUT;
    } else {
      errno = ETIMEDOUT;
    }
  }
  int saved = errno;
  ::close(fd);
  errno = saved;
  return -1;
}

bool write_all(int fd, std::string_view data, Clock::time_point deadline) {
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n > 0) {
      off += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && wait_fd(fd, POLLOUT, deadline)) continue;
    return false;
  }
  return true;
}

}  // namespace

std::string native_socket_path(const std::string& home) { return home + "/run/native.sock"; }

Status check_private_dir(const std::string& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) return sock_error("stat " + dir);
  if (S_ISLNK(st.st_mode) || !S_ISDIR(st.st_mode)) {
    return Status::InvalidArgument(codes::kNativeUnsafeDir, dir + " is not a plain directory");
  }
  if (st.st_uid != ::geteuid()) {
    return Status::InvalidArgument(codes::kNativeUnsafeDir, dir + " is owned by another user");
  }
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return Status::InvalidArgument(
        codes::kNativeUnsafeDir,
        dir + " is group- or world-writable; refusing to place the socket there");
  }
  return Status::Ok();
}

Result<std::unique_ptr<NativeSocketServer>> NativeSocketServer::start(const std::string& socket_path,
                                                                      RequestHandler handler,
                                                                      SocketServerOptions options) {
  sockaddr_un addr{};
  if (Status fits = fill_addr(socket_path, &addr); !fits.ok()) {
    return Status::InvalidArgument(codes::kNativeSocketPathTooLong,
                                   fits.message() + "; set CAVEMAN_HOME to a shorter directory");
  }
  std::size_t slash = socket_path.rfind('/');
  std::string dir(socket_path, 0, slash == 0 ? 1 : slash);  // "/x.sock" lives in "/"
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) return sock_error("mkdir " + dir);
  CAVEMAN_RETURN_IF_ERROR(check_private_dir(dir));

  struct stat st {};
  if (::lstat(socket_path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) {
      return Status::InvalidArgument(codes::kNativeUnsafeDir,
                                     socket_path + " exists and is not a socket");
    }
    int fd = dial(socket_path, Clock::now() + std::chrono::milliseconds(kStaleDialMs));
    if (fd >= 0 || errno == ETIMEDOUT || errno == EAGAIN) {
      // Somebody answers (or is too busy to accept): never take a live runtime's socket.
      if (fd >= 0) ::close(fd);
      return Status::Unavailable(codes::kNativeAlreadyActive,
                                 "another native runtime is active on " + socket_path);
    }
    if (::unlink(socket_path.c_str()) != 0 && errno != ENOENT) return sock_error("unlink stale socket");
  }

  int lfd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (lfd < 0) return sock_error("socket");
  // run/ is 0700, so nobody else can reach the socket between bind() and fchmod-by-path.
  if (::bind(lfd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    Status s = errno == EADDRINUSE
                   ? Status::Unavailable(codes::kNativeAlreadyActive,
                                         "another native runtime took " + socket_path)
                   : sock_error("bind " + socket_path);
    ::close(lfd);
    return s;
  }
  if (::chmod(socket_path.c_str(), 0600) != 0 || ::listen(lfd, 128) != 0) {
    Status s = sock_error("listen " + socket_path);
    ::close(lfd);
    ::unlink(socket_path.c_str());
    return s;
  }
  int wake[2];
  if (::pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
    Status s = sock_error("pipe");
    ::close(lfd);
    ::unlink(socket_path.c_str());
    return s;
  }
  std::unique_ptr<NativeSocketServer> server(
      new NativeSocketServer(socket_path, lfd, wake[0], wake[1], std::move(handler), options));
  server->acceptor_ = std::thread([s = server.get()] { s->accept_loop(); });
  for (int i = 0; i < std::max(1, options.workers); ++i) {
    server->workers_.emplace_back([s = server.get()] { s->worker_loop(); });
  }
  return server;
}

NativeSocketServer::NativeSocketServer(std::string path, int listen_fd, int wake_read, int wake_write,
                                       RequestHandler handler, SocketServerOptions options)
    : path_(std::move(path)),
      listen_fd_(listen_fd),
      wake_read_(wake_read),
      wake_write_(wake_write),
      handler_(std::move(handler)),
      options_(options) {}

NativeSocketServer::~NativeSocketServer() { stop(); }

void NativeSocketServer::stop() {
  std::call_once(stopped_, [this] {
    {
      base::MutexLock lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    char c = 'x';
    (void)!::write(wake_write_, &c, 1);
    if (acceptor_.joinable()) acceptor_.join();
    for (std::thread& t : workers_) t.join();
    {
      base::MutexLock lock(mu_);  // the workers are gone; taken so the analysis sees it
      for (const Pending& p : queue_) ::close(p.fd);
      queue_.clear();
    }
    ::close(listen_fd_);
    // Remove the socket only if it is still ours (a successor may have replaced it).
    struct stat st {};
    if (::lstat(path_.c_str(), &st) == 0 && S_ISSOCK(st.st_mode)) ::unlink(path_.c_str());
    ::close(wake_read_);
    ::close(wake_write_);
  });
}

void NativeSocketServer::accept_loop() {
  while (true) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_read_, POLLIN, 0}};
    int n = ::poll(fds, 2, -1);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || (fds[1].revents & POLLIN) != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    while (true) {
      int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
      if (fd < 0) {
        // Out of descriptors (EMFILE/ENFILE) leaves the listener readable: back off briefly
        // instead of spinning; pending clients hit their own deadline (silence = allow).
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        break;
      }
      ucred cred{};
      socklen_t len = sizeof cred;
      // Only this user's processes may talk to the runtime (the 0600 mode says so too).
      if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != ::geteuid()) {
        ::close(fd);
        dropped_.fetch_add(1);
        continue;
      }
      base::UniqueLock lock(mu_);
      if (queue_.size() >= options_.max_pending) {
        lock.unlock();
        ::close(fd);  // overloaded: silence, the host goes on without us
        dropped_.fetch_add(1);
        continue;
      }
      queue_.push_back({fd, Clock::now()});
      lock.unlock();
      cv_.notify_one();
    }
  }
}

void NativeSocketServer::worker_loop() {
  while (true) {
    Pending p{};
    {
      base::UniqueLock lock(mu_);
      cv_.wait(lock.native(), [this]() REQUIRES(mu_) { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      p = queue_.front();
      queue_.pop_front();
    }
    serve_one(p);
    ::close(p.fd);
  }
}

void NativeSocketServer::serve_one(const Pending& p) {
  auto deadline = p.accepted + std::chrono::milliseconds(options_.io_deadline_ms);
  std::string request;
  bool complete = false;
  char buf[64 * 1024];
  while (!complete) {
    ssize_t n = ::recv(p.fd, buf, sizeof buf, 0);
    if (n > 0) {
      std::string_view chunk(buf, static_cast<std::size_t>(n));
      std::size_t nl = chunk.find('\n');
      request.append(chunk.substr(0, nl));
      if (request.size() > options_.max_request_bytes) break;
      complete = nl != std::string_view::npos;
      continue;
    }
    if (n == 0) {
      complete = !request.empty();
      break;
    }
    if (errno == EINTR) continue;
    if ((errno == EAGAIN || errno == EWOULDBLOCK) && wait_fd(p.fd, POLLIN, deadline)) continue;
    break;  // deadline passed or a socket error
  }
  if (!complete || request.size() > options_.max_request_bytes) {
    dropped_.fetch_add(1);
    return;
  }
  std::optional<std::string> answer = handler_(request);
  if (!answer) {
    dropped_.fetch_add(1);
    return;
  }
  answer->push_back('\n');
  auto write_deadline = Clock::now() + std::chrono::milliseconds(options_.io_deadline_ms);
  if (write_all(p.fd, *answer, write_deadline)) {
    answered_.fetch_add(1);
  } else {
    dropped_.fetch_add(1);
  }
}

Result<std::string> native_exchange(const std::string& socket_path, std::string_view request,
                                    int deadline_ms) {
  CAVEMAN_RETURN_IF_ERROR(
      base::check_socket_path(socket_path, codes::kNativeSocketPathTooLong, kWhat));
  auto deadline = Clock::now() + std::chrono::milliseconds(deadline_ms);
  int fd = dial(socket_path, deadline);
  if (fd < 0)
    return Status::Unavailable(codes::kNativeUnavailable, "no native runtime at " + socket_path);
  std::string line(request);
  line.push_back('\n');
  std::string answer;
  bool ok = write_all(fd, line, deadline);
  if (ok) ::shutdown(fd, SHUT_WR);
  char buf[64 * 1024];
  while (ok) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n > 0) {
      answer.append(buf, static_cast<std::size_t>(n));
      if (answer.size() > kMaxReplacementBytes * 2) ok = false;
      continue;
    }
    if (n == 0) break;
    if (errno == EINTR) continue;
    if ((errno == EAGAIN || errno == EWOULDBLOCK) && wait_fd(fd, POLLIN, deadline)) continue;
    ok = false;
  }
  ::close(fd);
  if (!ok || answer.empty() || answer.back() != '\n') {
    return Status::Unavailable(codes::kNativeUnavailable, "the native runtime did not answer");
  }
  answer.pop_back();
  return answer;
}

}  // namespace caveman::proxy::native
