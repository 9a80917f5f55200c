// websocket.h — a small RFC 6455 client for a browser's DevTools WebSocket, plus the
// loopback HTTP GET used to discover it (`GET /json/version` → webSocketDebuggerUrl).
//
// Only loopback endpoints are accepted (no Caveman process but the proxy opens a
// non-loopback socket). Text messages only; client frames are masked with a random key;
// fragmented server messages are reassembled (capped); pings are answered; a close frame
// ends the connection. The framing functions are pure and unit-tested; WebSocketTransport
// does blocking I/O with deadlines and is single-threaded.
#ifndef CAVEMAN_BROWSE_WEBSOCKET_H_
#define CAVEMAN_BROWSE_WEBSOCKET_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "caveman/base64.h"
#include "caveman/status.h"
#include "transport.h"

namespace caveman::browse {

struct Endpoint {
  std::string scheme;  // "ws" or "http"
  std::string host;    // without brackets
  int port = 0;
  std::string path;    // starts with '/'
};

// Parses ws://host:port/path or http://host:port[/path]. codes::kInvalidArguments for other
// schemes, a missing port, or a host that is not loopback.
Result<Endpoint> parse_endpoint(std::string_view url);

// --- framing (RFC 6455 §5) -------------------------------------------------------------
enum class WsOpcode : std::uint8_t {
  kContinuation = 0x0,
  kText = 0x1,
  kBinary = 0x2,
  kClose = 0x8,
  kPing = 0x9,
  kPong = 0xA,
};

// One client frame: FIN set, masked with `mask`.
std::string encode_ws_frame(WsOpcode opcode, std::string_view payload,
                            const std::array<std::uint8_t, 4>& mask, bool fin = true);

struct WsFrame {
  bool fin = true;
  WsOpcode opcode = WsOpcode::kText;
  std::string payload;  // unmasked
};

// Incremental frame decoder for bytes from the server.
class WsFrameDecoder {
 public:
  explicit WsFrameDecoder(std::size_t max_frame_bytes) : max_(max_frame_bytes) {}
  void feed(std::string_view bytes) { buf_.append(bytes); }
  // A complete frame, nullopt when more bytes are needed, or codes::kBrowserProtocol for a
  // frame over the cap, a reserved opcode or RSV bit, or a fragmented control frame.
  Result<std::optional<WsFrame>> next();

 private:
  std::size_t max_;
  std::string buf_;
};

// Sec-WebSocket-Accept for a Sec-WebSocket-Key: base64(SHA-1(key + RFC GUID)).
std::string websocket_accept(std::string_view key);
using caveman::base64_encode;

// The opening handshake request for `endpoint` with the given key.
std::string handshake_request(const Endpoint& endpoint, std::string_view key);
// Checks a handshake response head (status line + headers, up to the blank line):
// status 101 and the right Sec-WebSocket-Accept. codes::kBrowserUnavailable otherwise.
Status check_handshake_response(std::string_view head, std::string_view key);

// --- I/O -------------------------------------------------------------------------------
// A TCP connection to a loopback endpoint (fd, non-blocking). codes::kBrowserUnavailable.
Result<int> connect_loopback(const Endpoint& endpoint, Clock::time_point deadline);

// GET http://host:port/path on loopback; the body of a 200 reply.
Result<std::string> http_get(const Endpoint& endpoint, std::string_view path,
                             Clock::time_point deadline);

class WebSocketTransport final : public Transport {
 public:
  // Connects and completes the opening handshake.
  static Result<std::unique_ptr<WebSocketTransport>> connect(std::string_view ws_url,
                                                             Clock::time_point deadline);
  ~WebSocketTransport() override;
  WebSocketTransport(const WebSocketTransport&) = delete;
  WebSocketTransport& operator=(const WebSocketTransport&) = delete;

  Status send(std::string_view message, Clock::time_point deadline) override;
  Result<std::string> receive(Clock::time_point deadline) override;

 private:
  explicit WebSocketTransport(int fd);
  Status send_frame(WsOpcode opcode, std::string_view payload, Clock::time_point deadline);

  int fd_;
  WsFrameDecoder decoder_;
  std::string message_;  // fragments of a message in progress
  bool in_message_ = false;
  bool closed_ = false;
};

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_WEBSOCKET_H_
