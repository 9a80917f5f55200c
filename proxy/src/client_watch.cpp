#include "client_watch.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <cstdlib>
#include <utility>
#include <vector>

namespace caveman::proxy {
namespace {

// Port and numeric address of a socket address; false for non-IP families.
bool ip_and_port(const sockaddr_storage& ss, std::string* addr, int* port) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (ss.ss_family == AF_INET) {
    const auto& in = reinterpret_cast<const sockaddr_in&>(ss);
    *port = ntohs(in.sin_port);
    if (addr != nullptr) *addr = inet_ntop(AF_INET, &in.sin_addr, buf, sizeof buf) ? buf : "";
    return true;
  }
  if (ss.ss_family == AF_INET6) {
    const auto& in6 = reinterpret_cast<const sockaddr_in6&>(ss);
    *port = ntohs(in6.sin6_port);
    if (addr != nullptr) *addr = inet_ntop(AF_INET6, &in6.sin6_addr, buf, sizeof buf) ? buf : "";
    return true;
  }
  return false;
}

bool is_peer(int fd, const ClientPeer& peer) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  int port = -1;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return false;
  if (!ip_and_port(ss, nullptr, &port) || port != peer.local_port) return false;
  len = sizeof ss;
  std::string addr;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&ss), &len) != 0) return false;
  return ip_and_port(ss, &addr, &port) && port == peer.remote_port && addr == peer.remote_addr;
}

}  // namespace

int find_client_socket(const ClientPeer& peer) {
  if (peer.remote_port < 0 || peer.local_port < 0) return -1;
  DIR* dir = ::opendir("/proc/self/fd");
  if (dir == nullptr) return -1;
  int found = -1;
  int own = ::dirfd(dir);
  while (dirent* e = ::readdir(dir)) {
    char* end = nullptr;
    long fd = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0' || fd == own) continue;
    if (is_peer(static_cast<int>(fd), peer)) {
      found = static_cast<int>(fd);
      break;
    }
  }
  ::closedir(dir);
  return found;
}

ClientWatch::ClientWatch(std::chrono::milliseconds grace, std::chrono::milliseconds tick)
    : grace_(grace), tick_(tick) {}

ClientWatch::~ClientWatch() {
  {
    base::MutexLock lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::uint64_t ClientWatch::watch(const ClientPeer& peer, CancelToken* cancel) {
  bool wake = false;
  std::uint64_t ticket = 0;
  {
    base::MutexLock lock(mu_);
    if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
    ticket = ++next_ticket_;
    entries_.emplace(ticket, Entry{peer, cancel, std::chrono::steady_clock::now(), kUnknown});
    wake = idle_;
  }
  // A ticking watcher picks the entry up at its next tick: no wake-up per request.
  if (wake) cv_.notify_one();
  return ticket;
}

void ClientWatch::unwatch(std::uint64_t ticket) {
  base::MutexLock lock(mu_);
  entries_.erase(ticket);
}

void ClientWatch::loop() {
  base::UniqueLock lock(mu_);
  while (!stopping_) {
    if (entries_.empty()) {  // an idle proxy does not tick
      idle_ = true;
      cv_.wait(lock.native(), [&]() REQUIRES(mu_) { return stopping_ || !entries_.empty(); });
      idle_ = false;
      continue;
    }
    cv_.wait_for(lock.native(), tick_, [&]() REQUIRES(mu_) { return stopping_; });
    if (stopping_) break;
    auto now = std::chrono::steady_clock::now();
    std::vector<std::pair<std::uint64_t, ClientPeer>> to_find;
    for (const auto& [ticket, e] : entries_) {
      if (e.fd == kUnknown && now - e.since >= grace_) to_find.emplace_back(ticket, e.peer);
    }
    if (!to_find.empty()) {
      // The scan runs unlocked; an entry unwatched meanwhile is simply not found again.
      lock.unlock();
      std::vector<std::pair<std::uint64_t, int>> found;
      for (const auto& [ticket, peer] : to_find) found.emplace_back(ticket, find_client_socket(peer));
      lock.lock();
      for (const auto& [ticket, fd] : found) {
        auto it = entries_.find(ticket);
        if (it != entries_.end()) it->second.fd = fd >= 0 ? fd : kGone;
      }
    }
    // Polled under the lock: a watched connection stays open until its unwatch(), which
    // waits for the lock, so no descriptor here can have been closed and reused.
    std::vector<pollfd> fds;
    std::vector<std::uint64_t> tickets;
    for (const auto& [ticket, e] : entries_) {
      if (e.fd < 0) continue;
      fds.push_back(pollfd{e.fd, POLLRDHUP, 0});
      tickets.push_back(ticket);
    }
    if (fds.empty() || ::poll(fds.data(), fds.size(), 0) <= 0) continue;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if ((fds[i].revents & (POLLRDHUP | POLLHUP | POLLERR)) == 0) continue;
      Entry& e = entries_.at(tickets[i]);
      e.cancel->cancel();
      e.fd = kGone;
    }
  }
}

}  // namespace caveman::proxy
