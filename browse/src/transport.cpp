#include "transport.h"

#include <cerrno>
#include <climits>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "caveman/base/codes.h"

namespace caveman::browse {

Status timeout_status(std::string message) {
  return Status::Unavailable(codes::kBrowserTimeout, std::move(message));
}

bool is_timeout(const Status& s) { return s.error_code() == codes::kBrowserTimeout; }

int ms_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  if (left <= 0) return 0;
  return left > INT_MAX ? INT_MAX : static_cast<int>(left);
}

Status write_all(int fd, std::string_view data, Clock::time_point deadline) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n > 0) {
      data.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      int left = ms_until(deadline);
      if (left == 0) return timeout_status("the browser did not accept a command in time");
      int r = ::poll(&p, 1, left);
      if (r < 0 && errno != EINTR) {
        return Status::Unavailable(codes::kBrowserUnavailable, std::strerror(errno));
      }
      if (r > 0 && (p.revents & (POLLERR | POLLHUP)) != 0 && (p.revents & POLLOUT) == 0) {
        return Status::Unavailable(codes::kBrowserUnavailable, "the browser connection closed");
      }
      continue;
    }
    return Status::Unavailable(codes::kBrowserUnavailable,
                               std::string("the browser connection closed (") +
                                   (n < 0 ? std::strerror(errno) : "short write") + ")");
  }
  return Status::Ok();
}

PipeTransport::PipeTransport(int write_fd, int read_fd) : write_fd_(write_fd), read_fd_(read_fd) {
  ::fcntl(write_fd_, F_SETFL, ::fcntl(write_fd_, F_GETFL) | O_NONBLOCK);
  ::fcntl(read_fd_, F_SETFL, ::fcntl(read_fd_, F_GETFL) | O_NONBLOCK);
}

PipeTransport::~PipeTransport() {
  if (write_fd_ >= 0) ::close(write_fd_);
  if (read_fd_ >= 0) ::close(read_fd_);
}

Status PipeTransport::send(std::string_view message, Clock::time_point deadline) {
  if (closed_) return Status::Unavailable(codes::kBrowserUnavailable, "the browser has exited");
  std::string framed(message);
  framed.push_back('\0');
  Status s = write_all(write_fd_, framed, deadline);
  if (!s.ok() && !is_timeout(s)) closed_ = true;
  return s;
}

Result<std::string> PipeTransport::receive(Clock::time_point deadline) {
  static constexpr std::size_t kChunk = 1u << 20;
  std::string chunk;
  while (true) {
    if (std::optional<std::string> m = framer_.next()) return std::move(*m);
    if (closed_) {
      return Status::Unavailable(codes::kBrowserUnavailable,
                                 "the browser exited or crashed (DevTools pipe closed)");
    }
    pollfd p{read_fd_, POLLIN, 0};
    int r = ::poll(&p, 1, ms_until(deadline));
    if (r < 0) {
      if (errno == EINTR) continue;
      return Status::Unavailable(codes::kBrowserUnavailable, std::strerror(errno));
    }
    if (r == 0) return timeout_status("no reply from the browser in time");
    chunk.resize(kChunk);
    ssize_t n = ::read(read_fd_, chunk.data(), chunk.size());
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      closed_ = true;
      continue;
    }
    if (n == 0) {
      closed_ = true;
      continue;
    }
    Status fed = framer_.feed(std::string_view(chunk.data(), static_cast<std::size_t>(n)));
    if (!fed.ok()) {
      closed_ = true;
      return fed;
    }
  }
}

}  // namespace caveman::browse
