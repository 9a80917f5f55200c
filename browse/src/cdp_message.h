// cdp_message.h — Chrome DevTools Protocol wire messages without a full JSON parse.
//
// `--remote-debugging-pipe` frames every JSON message with a trailing NUL byte; NulFramer
// splits a byte stream into those messages (bounded: a message over the cap is an error,
// never unbounded growth). parse_cdp_message() reads only the top level of a message — id,
// method, sessionId, error — and keeps `result` / `params` as exact byte spans of the
// original text, so a 70 MB Accessibility.getFullAXTree reply is neither copied nor
// turned into a DOM (and the AX JSON handed to the recovery store is Chrome's own bytes).
// Pure value types; no I/O; thread-compatible.
#ifndef CAVEMAN_BROWSE_CDP_MESSAGE_H_
#define CAVEMAN_BROWSE_CDP_MESSAGE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::browse {

inline constexpr std::size_t kMaxCdpMessageBytes = 512u << 20;

class NulFramer {
 public:
  explicit NulFramer(std::size_t max_message_bytes = kMaxCdpMessageBytes)
      : max_(max_message_bytes) {}

  // Appends received bytes. kResourceExhausted (codes::kBrowserUnavailable) when an
  // unterminated message grows past the cap; the framer is unusable afterwards.
  Status feed(std::string_view bytes);
  // The next complete message (without its NUL), if one has arrived.
  std::optional<std::string> next();
  // Bytes buffered that do not yet form a complete message.
  std::size_t pending_bytes() const { return buf_.size() - start_; }

 private:
  std::size_t max_;
  std::string buf_;
  std::size_t start_ = 0;  // first byte of the next message
  std::size_t scan_ = 0;   // bytes before this offset hold no NUL
};

// One CDP message: a command reply ({id, result|error, sessionId?}) or an event
// ({method, params, sessionId?}).
struct CdpMessage {
  std::optional<std::int64_t> id;
  std::string method;
  std::string session_id;
  bool is_error = false;
  std::int64_t error_code = 0;
  std::string error_message;

  std::string raw;  // the whole message text
  std::size_t result_pos = 0, result_len = 0;
  std::size_t params_pos = 0, params_len = 0;

  std::string_view result() const { return std::string_view(raw).substr(result_pos, result_len); }
  std::string_view params() const { return std::string_view(raw).substr(params_pos, params_len); }
};

// Parses the top level of one message. kCorrupt (codes::kBrowserProtocol) when the text is not
// a JSON object, a member value is malformed, or id/method/sessionId have the wrong type.
Result<CdpMessage> parse_cdp_message(std::string raw);

// Byte length of the JSON value starting at `pos` of `text` (after leading white space is
// skipped by the caller); nullopt when it is malformed or truncated. Strings are checked for
// terminated escapes only, numbers and literals by their character set.
std::optional<std::size_t> json_value_length(std::string_view text, std::size_t pos);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_CDP_MESSAGE_H_
