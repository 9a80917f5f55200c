// Sends the pings LifetimeBook plans (docs/proxy.md, "Cache lifetimes").
//
// KeepaliveRunner owns one thread that sleeps until the book's next due ping (woken early by
// poke() when a request ends), takes the due jobs and hands each to the sender. With a
// ManualClock (CAVEMAN_TEST_CLOCK=manual) there is no thread: advance() moves the clock
// through every due time in order and sends those pings on the caller's thread, so a test
// sees exactly the pings a real clock would have sent, deterministically. send_ping() is the
// production sender: the upstream exchange, priced, and a usage row of kind "keepalive".
// Pings never touch the idle-exit clock (a wrapped proxy would never stop). Thread-safe.
#ifndef CAVEMAN_PROXY_KEEPALIVE_H_
#define CAVEMAN_PROXY_KEEPALIVE_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "caveman/base/mutex.h"
#include "lifetime_book.h"
#include "upstream.h"
#include "usage_store.h"

namespace caveman::proxy {

// A clock that moves only when told (tests). now() is milliseconds from 0.
class ManualClock {
 public:
  std::int64_t now() const { return now_.load(); }
  void set(std::int64_t ms) { now_.store(ms); }
  // Milliseconds since the previous call (the stand-in's `x-mock-idle-ms`: its virtual
  // clock follows this one).
  std::int64_t take_idle_ms() { return now_.load() - last_sent_.exchange(now_.load()); }

 private:
  std::atomic<std::int64_t> now_{0};
  std::atomic<std::int64_t> last_sent_{0};
};

struct PingResult {
  bool ok = false;
  double usd = 0;
};
// Sends one ping; `cancel` aborts it (the runner stopping).
using PingSender = std::function<PingResult(const PingJob&, CancelToken* cancel)>;

class KeepaliveRunner {
 public:
  // `manual` non-null: no thread; advance() drives the pings.
  KeepaliveRunner(LifetimeBook* book, PingSender sender, ManualClock* manual);
  ~KeepaliveRunner();
  KeepaliveRunner(const KeepaliveRunner&) = delete;
  KeepaliveRunner& operator=(const KeepaliveRunner&) = delete;

  void poke();  // the schedule may have changed
  void stop();  // cancels a ping in flight and joins the thread
  // Manual clock only: moves it `ms` forward, sending every ping due on the way. Returns the
  // pings sent.
  int advance(std::int64_t ms);

 private:
  void run();
  int send_due();

  LifetimeBook* book_;
  PingSender sender_;
  ManualClock* manual_;
  base::Mutex mu_;
  std::condition_variable cv_;
  bool stopping_ GUARDED_BY(mu_) = false;
  bool poked_ GUARDED_BY(mu_) = false;
  std::shared_ptr<CancelToken> in_flight_ GUARDED_BY(mu_);  // the ping being sent
  base::Mutex advance_mu_;                                  // one advance() at a time
  std::thread thread_;
};

// One ping upstream; its row (kind "keepalive", priced like any request) goes to `usage`
// (may be null). `extra` headers are added (the test clock's x-mock-idle-ms).
PingResult send_ping(UpstreamClient& upstream, UsageWriter* usage, const PingJob& job,
                     const HeaderList& extra, CancelToken* cancel);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_KEEPALIVE_H_
