// Notices clients that hang up while their request still waits for the provider.
//
// cpp-httplib 0.11.4 gives a request handler no access to its connection, and the server
// worker is blocked inside the upstream exchange, so one watcher thread does it: a request
// that has waited longer than `grace` gets its connection looked up once by its address pair
// (a scan of the process's sockets — short requests never pay for it), which is then polled
// for a hang-up every `tick`; a hang-up (the client closed or reset the connection) cancels the
// exchange. A client that half-closes its side after sending counts as gone. Thread-safe; the
// thread starts with the first watch() and stops in the destructor.
#ifndef CAVEMAN_PROXY_CLIENT_WATCH_H_
#define CAVEMAN_PROXY_CLIENT_WATCH_H_

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <string>
#include <thread>

#include "caveman/base/mutex.h"
#include "upstream.h"

namespace caveman::proxy {

// One TCP connection as the server sees it.
struct ClientPeer {
  std::string remote_addr;  // numeric, as httplib reports it
  int remote_port = -1;
  int local_port = -1;
};

// The descriptor of this process's socket connected to `peer`, or -1.
int find_client_socket(const ClientPeer& peer);

class ClientWatch {
 public:
  explicit ClientWatch(std::chrono::milliseconds grace = std::chrono::milliseconds(1000),
                       std::chrono::milliseconds tick = std::chrono::milliseconds(250));
  ~ClientWatch();
  ClientWatch(const ClientWatch&) = delete;
  ClientWatch& operator=(const ClientWatch&) = delete;

  // `cancel` must stay valid until unwatch(ticket) returns.
  std::uint64_t watch(const ClientPeer& peer, CancelToken* cancel);
  void unwatch(std::uint64_t ticket);

 private:
  static constexpr int kUnknown = -2;  // not looked up yet
  static constexpr int kGone = -1;     // not found, or already cancelled
  struct Entry {
    ClientPeer peer;
    CancelToken* cancel = nullptr;
    std::chrono::steady_clock::time_point since;
    int fd = kUnknown;
  };
  void loop();

  const std::chrono::milliseconds grace_;
  const std::chrono::milliseconds tick_;
  base::Mutex mu_;
  std::condition_variable cv_;
  std::map<std::uint64_t, Entry> entries_ GUARDED_BY(mu_);
  std::uint64_t next_ticket_ GUARDED_BY(mu_) = 0;
  bool stopping_ GUARDED_BY(mu_) = false;
  bool idle_ GUARDED_BY(mu_) = false;       // waiting for a first entry
  std::thread thread_;                      // started under mu_
};

// Watches for the lifetime of the scope (a null watch does nothing).
class ClientWatchScope {
 public:
  ClientWatchScope(ClientWatch* watch, const ClientPeer& peer, CancelToken* cancel)
      : watch_(watch), ticket_(watch != nullptr ? watch->watch(peer, cancel) : 0) {}
  ~ClientWatchScope() {
    if (watch_ != nullptr) watch_->unwatch(ticket_);
  }
  ClientWatchScope(const ClientWatchScope&) = delete;
  ClientWatchScope& operator=(const ClientWatchScope&) = delete;

 private:
  ClientWatch* watch_;
  std::uint64_t ticket_;
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_CLIENT_WATCH_H_
