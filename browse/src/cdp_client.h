// cdp_client.h — request/reply and events over one DevTools connection.
//
// call() sends a command (optionally to a flattened target session) and reads messages until
// its reply arrives; events read meanwhile go through the event hook (run immediately, e.g.
// to dismiss a JavaScript dialog that would otherwise block the page) and into a bounded
// queue that wait_event() consumes. Replies to commands that already timed out are dropped.
// Once the transport reports the browser gone, the client is `broken()` for good.
// Single-threaded; not copyable.
#ifndef CAVEMAN_BROWSE_CDP_CLIENT_H_
#define CAVEMAN_BROWSE_CDP_CLIENT_H_

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "caveman/status.h"
#include "cdp_message.h"
#include "transport.h"

namespace caveman::browse {

using Json = nlohmann::ordered_json;

inline constexpr std::size_t kMaxQueuedEvents = 2048;

class CdpClient {
 public:
  explicit CdpClient(std::unique_ptr<Transport> transport);

  // Sends `method` with `params` and returns its reply. Errors: the command's own CDP error
  // (codes::kBrowserCdpError, message from the browser), codes::kBrowserTimeout,
  // codes::kBrowserUnavailable (connection gone; broken() is then true).
  Result<CdpMessage> call(std::string_view method, const Json& params = Json::object(),
                          std::string_view session_id = {},
                          Clock::time_point deadline = Clock::now() + std::chrono::seconds(10));
  // The reply's `result` parsed as JSON (for small replies).
  Result<Json> call_json(std::string_view method, const Json& params = Json::object(),
                         std::string_view session_id = {},
                         Clock::time_point deadline = Clock::now() + std::chrono::seconds(10));
  // Sends a command without waiting for its reply (the reply is discarded when it comes).
  Status send_only(std::string_view method, const Json& params, std::string_view session_id);

  // The first queued or arriving event for which `match` is true (it and every queued
  // event before it are consumed). codes::kBrowserTimeout when none comes before `deadline`.
  Result<CdpMessage> wait_event(const std::function<bool(const CdpMessage&)>& match,
                                Clock::time_point deadline);
  // Drops queued events.
  void clear_events() { events_.clear(); }

  void set_event_hook(std::function<void(const CdpMessage&)> hook) { hook_ = std::move(hook); }
  bool broken() const { return broken_; }

 private:
  Status send_command(std::int64_t id, std::string_view method, const Json& params,
                      std::string_view session_id, Clock::time_point deadline);
  // Reads one message: replies are returned, events are hooked + queued (returns nullopt).
  Result<std::optional<CdpMessage>> read_one(Clock::time_point deadline);

  std::unique_ptr<Transport> transport_;
  std::int64_t next_id_ = 1;
  std::deque<CdpMessage> events_;
  std::function<void(const CdpMessage&)> hook_;
  bool broken_ = false;
};

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_CDP_CLIENT_H_
