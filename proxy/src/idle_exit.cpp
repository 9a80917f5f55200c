#include "idle_exit.h"

#include <chrono>
#include <cmath>
#include <string>

#include "caveman/base/codes.h"

namespace caveman::proxy {

std::int64_t steady_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ActivityClock::ActivityClock(MonotonicMs now) : now_(std::move(now)), last_(now_()) {}

Result<std::int64_t> parse_go_duration_ms(std::string_view text) {
  auto invalid = [&] {
    return Status::InvalidArgument(codes::kInvalidDuration,
                                   "not a duration (e.g. 30m, 1h30m, 90s): " + std::string(text));
  };
  if (text.empty()) return invalid();
  if (text == "0") return std::int64_t{0};
  struct Unit {
    std::string_view name;
    double ms;
  };
  // Longest names first so "ms" is not read as "m" followed by garbage.
  static constexpr Unit kUnits[] = {{"ns", 1e-6}, {"us", 1e-3}, {"\xC2\xB5s", 1e-3},
                                    {"ms", 1.0},  {"s", 1e3},   {"m", 6e4},
                                    {"h", 3.6e6}};
  double total = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t start = i;
    while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
    std::string_view number = text.substr(start, i - start);
    if (number.empty() || number == "." || number.find('.') != number.rfind('.')) return invalid();
    const Unit* unit = nullptr;
    for (const Unit& u : kUnits) {
      if (text.substr(i, u.name.size()) == u.name &&
          (unit == nullptr || u.name.size() > unit->name.size())) {
        unit = &u;
      }
    }
    if (unit == nullptr) return invalid();
    i += unit->name.size();
    total += std::stod(std::string(number)) * unit->ms;
    if (!std::isfinite(total) || total > 9.2e15) return invalid();
  }
  return static_cast<std::int64_t>(total);
}

std::int64_t idle_timeout_ms(const EnvLookup& env) {
  std::optional<std::string> v = env("CAVEMAN_NATIVE_IDLE_TIMEOUT");
  if (!v) return kDefaultIdleTimeoutMs;
  Result<std::int64_t> ms = parse_go_duration_ms(*v);
  return ms.ok() && *ms > 0 ? *ms : kDefaultIdleTimeoutMs;
}

IdleWatch::IdleWatch(const ActivityClock* clock, std::int64_t timeout_ms,
                     std::function<bool()> busy, std::function<void()> on_idle,
                     std::int64_t poll_ms)
    : clock_(clock),
      timeout_ms_(timeout_ms),
      poll_ms_(poll_ms),
      busy_(std::move(busy)),
      on_idle_(std::move(on_idle)) {
  thread_ = std::thread([this] { run(); });
}

IdleWatch::~IdleWatch() { stop(); }

void IdleWatch::stop() {
  {
    base::MutexLock lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void IdleWatch::run() {
  base::UniqueLock lock(mu_);
  while (!stopping_) {
    // Sleep until the timeout could first be reached, but at most one poll interval.
    std::int64_t wait = std::min(poll_ms_, std::max<std::int64_t>(1, timeout_ms_ - clock_->idle_ms()));
    cv_.wait_for(lock.native(), std::chrono::milliseconds(wait),
                 [&]() REQUIRES(mu_) { return stopping_; });
    if (stopping_) return;
    if (clock_->idle_ms() >= timeout_ms_ && !busy_()) {
      lock.unlock();
      on_idle_();
      return;
    }
  }
}

}  // namespace caveman::proxy
