// Idle exit of wrap-owned proxies (docs/spec/proxy.md#idle-exit).
//
// `caveman wrap` starts a detached proxy (owner "wrap") that nobody stops, so it stops itself
// once nothing has used it for CAVEMAN_NATIVE_IDLE_TIMEOUT (a Go duration such as "30m",
// "1h30m", "90s", "250ms"; default 30m; invalid → default). Activity is a provider request
// starting or finishing, a native-runtime event, or POST /caveman/keepalive. Unlike the
// original (native-runtime activity only), provider traffic counts too — an agent without
// hooks keeps its proxy — and a request in flight (a long stream) always holds it up.
//
// ActivityClock is a lock-free "last touched" stamp on a monotonic clock. IdleWatch polls it
// on its own thread and calls on_idle once; stop() (or the destructor) ends the thread early.
#ifndef CAVEMAN_PROXY_IDLE_EXIT_H_
#define CAVEMAN_PROXY_IDLE_EXIT_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <string_view>
#include <thread>

#include "caveman/base/mutex.h"
#include "caveman/status.h"
#include "config.h"

namespace caveman::proxy {

inline constexpr std::int64_t kDefaultIdleTimeoutMs = 30LL * 60 * 1000;

// Milliseconds on a monotonic clock.
using MonotonicMs = std::function<std::int64_t()>;
std::int64_t steady_now_ms();

class ActivityClock {
 public:
  explicit ActivityClock(MonotonicMs now = steady_now_ms);
  void touch() { last_.store(now_()); }
  std::int64_t idle_ms() const { return now_() - last_.load(); }

 private:
  MonotonicMs now_;
  std::atomic<std::int64_t> last_;
};

// Go's time.ParseDuration for non-negative values: a sequence of decimal numbers, each with
// a unit of ns, us, µs, ms, s, m or h ("1h30m", "1.5s"). Errors: codes::kInvalidDuration.
Result<std::int64_t> parse_go_duration_ms(std::string_view text);

// CAVEMAN_NATIVE_IDLE_TIMEOUT, or the default when unset, invalid or not positive.
std::int64_t idle_timeout_ms(const EnvLookup& env);

class IdleWatch {
 public:
  // on_idle runs once, on the watch thread, when clock->idle_ms() ≥ timeout_ms while
  // busy() is false. The clock must outlive the watch.
  IdleWatch(const ActivityClock* clock, std::int64_t timeout_ms, std::function<bool()> busy,
            std::function<void()> on_idle, std::int64_t poll_ms = 1000);
  ~IdleWatch();
  IdleWatch(const IdleWatch&) = delete;
  IdleWatch& operator=(const IdleWatch&) = delete;
  void stop();

 private:
  void run();

  const ActivityClock* clock_;
  std::int64_t timeout_ms_;
  std::int64_t poll_ms_;
  std::function<bool()> busy_;
  std::function<void()> on_idle_;
  base::Mutex mu_;
  std::condition_variable cv_;
  bool stopping_ GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_IDLE_EXIT_H_
