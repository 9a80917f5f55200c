#include "cdp_client.h"

#include "caveman/base/codes.h"

namespace caveman::browse {

CdpClient::CdpClient(std::unique_ptr<Transport> transport) : transport_(std::move(transport)) {}

Status CdpClient::send_command(std::int64_t id, std::string_view method, const Json& params,
                               std::string_view session_id, Clock::time_point deadline) {
  if (broken_)
    return Status::Unavailable(codes::kBrowserUnavailable, "the browser connection is gone");
  Json msg = Json::object();
  msg["id"] = id;
  msg["method"] = std::string(method);
  msg["params"] = params.is_null() ? Json::object() : params;
  if (!session_id.empty()) msg["sessionId"] = std::string(session_id);
  Status s = transport_->send(msg.dump(-1, ' ', false, Json::error_handler_t::replace), deadline);
  if (!s.ok() && !is_timeout(s)) broken_ = true;
  return s;
}

Status CdpClient::send_only(std::string_view method, const Json& params, std::string_view session_id) {
  return send_command(next_id_++, method, params, session_id, Clock::now() + std::chrono::seconds(5));
}

Result<std::optional<CdpMessage>> CdpClient::read_one(Clock::time_point deadline) {
  Result<std::string> raw = transport_->receive(deadline);
  if (!raw.ok()) {
    if (!is_timeout(raw.status())) broken_ = true;
    return raw.status();
  }
  Result<CdpMessage> msg = parse_cdp_message(std::move(raw).value());
  if (!msg.ok()) return std::optional<CdpMessage>{};  // garbage from the browser: skip it
  if (msg->id) return std::optional<CdpMessage>(std::move(msg).value());
  if (msg->method.empty()) return std::optional<CdpMessage>{};
  if (hook_) hook_(*msg);
  events_.push_back(std::move(msg).value());
  if (events_.size() > kMaxQueuedEvents) events_.pop_front();
  return std::optional<CdpMessage>{};
}

Result<CdpMessage> CdpClient::call(std::string_view method, const Json& params,
                                   std::string_view session_id, Clock::time_point deadline) {
  std::int64_t id = next_id_++;
  CAVEMAN_RETURN_IF_ERROR(send_command(id, method, params, session_id, deadline));
  while (true) {
    Result<std::optional<CdpMessage>> m = read_one(deadline);
    if (!m.ok()) {
      if (is_timeout(m.status())) {
        return timeout_status(std::string(method) + " got no reply from the browser in time");
      }
      return m.status();
    }
    if (!m->has_value() || *(*m)->id != id) continue;  // events, or stale replies
    CdpMessage reply = std::move(**m);
    if (reply.is_error) {
      return Status::Internal(codes::kBrowserCdpError,
                              std::string(method) + ": " + reply.error_message);
    }
    return reply;
  }
}

Result<Json> CdpClient::call_json(std::string_view method, const Json& params,
                                  std::string_view session_id, Clock::time_point deadline) {
  CAVEMAN_ASSIGN_OR_RETURN(CdpMessage reply, call(method, params, session_id, deadline));
  if (reply.result_len == 0) return Json::object();
  Json j = Json::parse(reply.result(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded())
    return Status::Corrupt(codes::kBrowserProtocol, std::string(method) + ": malformed reply");
  return j;
}

Result<CdpMessage> CdpClient::wait_event(const std::function<bool(const CdpMessage&)>& match,
                                         Clock::time_point deadline) {
  while (true) {
    while (!events_.empty()) {
      CdpMessage e = std::move(events_.front());
      events_.pop_front();
      if (match(e)) return e;
    }
    Result<std::optional<CdpMessage>> m = read_one(deadline);
    if (!m.ok()) return m.status();
  }
}

}  // namespace caveman::browse
