#include "websocket.h"

#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <random>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "caveman/base/codes.h"
#include "caveman/base/net.h"
#include "caveman/base/text.h"
#include "url_policy.h"

namespace caveman::browse {
namespace {

constexpr std::string_view kGuid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

Status unavailable(std::string message) {
  return Status::Unavailable(codes::kBrowserUnavailable, std::move(message));
}

Status protocol(std::string message) {
  return Status::Corrupt(codes::kBrowserProtocol, std::move(message));
}

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

// Value of header `name` (case-insensitive) in a response head; nullopt when absent.
std::optional<std::string> header(std::string_view head, std::string_view name) {
  std::string want = base::ascii_lower(name);
  std::size_t pos = head.find('\n');
  while (pos != std::string_view::npos && pos + 1 < head.size()) {
    std::size_t start = pos + 1;
    std::size_t end = head.find('\n', start);
    std::string_view line = head.substr(start, end == std::string_view::npos ? head.size() - start : end - start);
    std::size_t colon = line.find(':');
    if (colon != std::string_view::npos && base::ascii_lower(trim(line.substr(0, colon))) == want) {
      return trim(line.substr(colon + 1));
    }
    pos = end;
  }
  return std::nullopt;
}

std::array<std::uint8_t, 4> random_mask() {
  static thread_local std::random_device rd;
  std::uint32_t v = rd();
  return {static_cast<std::uint8_t>(v), static_cast<std::uint8_t>(v >> 8),
          static_cast<std::uint8_t>(v >> 16), static_cast<std::uint8_t>(v >> 24)};
}

std::string random_key() {
  std::string raw;
  for (int i = 0; i < 4; ++i) {
    auto m = random_mask();
    raw.append(reinterpret_cast<const char*>(m.data()), m.size());
  }
  return base64_encode(raw);
}

// Reads once into `out` (appending) before the deadline: bytes read, 0 on EOF.
Result<std::size_t> read_some(int fd, std::string* out, Clock::time_point deadline) {
  while (true) {
    pollfd p{fd, POLLIN, 0};
    int r = ::poll(&p, 1, ms_until(deadline));
    if (r < 0) {
      if (errno == EINTR) continue;
      return unavailable(std::strerror(errno));
    }
    if (r == 0) return timeout_status("no reply from the browser in time");
    char buf[65536];
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return unavailable(std::string("connection to the browser failed: ") + std::strerror(errno));
    }
    out->append(buf, static_cast<std::size_t>(n));
    return static_cast<std::size_t>(n);
  }
}

}  // namespace

Result<Endpoint> parse_endpoint(std::string_view url) {
  Endpoint e;
  std::string_view rest;
  if (url.starts_with("ws://")) {
    e.scheme = "ws";
    rest = url.substr(5);
  } else if (url.starts_with("http://")) {
    e.scheme = "http";
    rest = url.substr(7);
  } else {
    return Status::InvalidArgument(codes::kInvalidArguments,
                                   "DevTools endpoint must be ws://… or http://… (got \"" +
                                       std::string(url.substr(0, 100)) + "\")");
  }
  std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  e.path = slash == std::string_view::npos ? "/" : std::string(rest.substr(slash));
  std::string_view port;
  if (authority.starts_with("[")) {
    std::size_t close = authority.find(']');
    if (close == std::string_view::npos)
      return Status::InvalidArgument(codes::kInvalidArguments, "bad IPv6 host");
    e.host = std::string(authority.substr(1, close - 1));
    if (close + 1 < authority.size() && authority[close + 1] == ':') port = authority.substr(close + 2);
  } else {
    std::size_t colon = authority.rfind(':');
    e.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port = authority.substr(colon + 1);
  }
  int p = 0;
  for (char c : port) {
    if (c < '0' || c > '9' || p > 65535)
      return Status::InvalidArgument(codes::kInvalidArguments, "bad port");
    p = p * 10 + (c - '0');
  }
  if (port.empty() || p <= 0 || p > 65535) {
    return Status::InvalidArgument(codes::kInvalidArguments,
                                   "DevTools endpoint needs an explicit port: " + std::string(url));
  }
  e.port = p;
  if (!base::is_loopback_host(e.host)) {
    return Status::InvalidArgument(
        codes::kInvalidArguments,
        "DevTools endpoint must be on this machine (localhost, 127.x.x.x or [::1]), not \"" +
            e.host + "\"");
  }
  return e;
}

std::string encode_ws_frame(WsOpcode opcode, std::string_view payload,
                            const std::array<std::uint8_t, 4>& mask, bool fin) {
  std::string out;
  out.reserve(payload.size() + 14);
  out.push_back(static_cast<char>((fin ? 0x80 : 0x00) | static_cast<std::uint8_t>(opcode)));
  std::uint64_t n = payload.size();
  if (n < 126) {
    out.push_back(static_cast<char>(0x80 | n));
  } else if (n <= 0xFFFF) {
    out.push_back(static_cast<char>(0x80 | 126));
    out.push_back(static_cast<char>(n >> 8));
    out.push_back(static_cast<char>(n & 0xFF));
  } else {
    out.push_back(static_cast<char>(0x80 | 127));
    for (int i = 7; i >= 0; --i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
  }
  out.append(reinterpret_cast<const char*>(mask.data()), 4);
  for (std::size_t i = 0; i < payload.size(); ++i) {
    out.push_back(static_cast<char>(static_cast<std::uint8_t>(payload[i]) ^ mask[i % 4]));
  }
  return out;
}

Result<std::optional<WsFrame>> WsFrameDecoder::next() {
  if (buf_.size() < 2) return std::optional<WsFrame>{};
  auto b0 = static_cast<std::uint8_t>(buf_[0]);
  auto b1 = static_cast<std::uint8_t>(buf_[1]);
  if ((b0 & 0x70) != 0) return protocol("WebSocket frame with reserved bits set");
  auto op = static_cast<std::uint8_t>(b0 & 0x0F);
  bool control = (op & 0x08) != 0;
  if (!(op <= 0x2 || (op >= 0x8 && op <= 0xA))) return protocol("WebSocket frame with a reserved opcode");
  bool fin = (b0 & 0x80) != 0;
  if (control && !fin) return protocol("fragmented WebSocket control frame");
  bool masked = (b1 & 0x80) != 0;
  std::uint64_t len = b1 & 0x7F;
  std::size_t pos = 2;
  if (len == 126) {
    if (buf_.size() < 4) return std::optional<WsFrame>{};
    len = (static_cast<std::uint64_t>(static_cast<std::uint8_t>(buf_[2])) << 8) |
          static_cast<std::uint8_t>(buf_[3]);
    pos = 4;
  } else if (len == 127) {
    if (buf_.size() < 10) return std::optional<WsFrame>{};
    len = 0;
    for (int i = 0; i < 8; ++i) len = (len << 8) | static_cast<std::uint8_t>(buf_[2 + i]);
    pos = 10;
  }
  if (control && len > 125) return protocol("WebSocket control frame over 125 bytes");
  if (len > max_) return protocol("WebSocket frame over " + std::to_string(max_ >> 20) + " MiB");
  std::array<std::uint8_t, 4> mask{};
  if (masked) {
    if (buf_.size() < pos + 4) return std::optional<WsFrame>{};
    for (int i = 0; i < 4; ++i) mask[i] = static_cast<std::uint8_t>(buf_[pos + i]);
    pos += 4;
  }
  if (buf_.size() - pos < len) return std::optional<WsFrame>{};
  WsFrame f;
  f.fin = fin;
  f.opcode = static_cast<WsOpcode>(op);
  f.payload = buf_.substr(pos, len);
  if (masked) {
    for (std::size_t i = 0; i < f.payload.size(); ++i) {
      f.payload[i] = static_cast<char>(static_cast<std::uint8_t>(f.payload[i]) ^ mask[i % 4]);
    }
  }
  buf_.erase(0, pos + len);
  return std::optional<WsFrame>(std::move(f));
}

std::string websocket_accept(std::string_view key) {
  std::string input = std::string(key) + std::string(kGuid);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_Digest(input.data(), input.size(), digest, &len, EVP_sha1(), nullptr);
  return base64_encode(std::string_view(reinterpret_cast<const char*>(digest), len));
}

std::string handshake_request(const Endpoint& e, std::string_view key) {
  std::string host = e.host.find(':') != std::string::npos ? "[" + e.host + "]" : e.host;
  return "GET " + e.path + " HTTP/1.1\r\nHost: " + host + ":" + std::to_string(e.port) +
         "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + std::string(key) +
         "\r\nSec-WebSocket-Version: 13\r\n\r\n";
}

Status check_handshake_response(std::string_view head, std::string_view key) {
  std::string_view status_line = head.substr(0, head.find('\n'));
  if (!(status_line.starts_with("HTTP/1.1 101") || status_line.starts_with("HTTP/1.0 101"))) {
    return unavailable("WebSocket handshake refused: " + trim(status_line));
  }
  std::optional<std::string> accept = header(head, "Sec-WebSocket-Accept");
  if (!accept || *accept != websocket_accept(key)) {
    return unavailable("WebSocket handshake: missing or wrong Sec-WebSocket-Accept");
  }
  return Status::Ok();
}

Result<int> connect_loopback(const Endpoint& e, Clock::time_point deadline) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* res = nullptr;
  std::string port = std::to_string(e.port);
  int rc = ::getaddrinfo(e.host.c_str(), port.c_str(), &hints, &res);
  if (rc != 0) return unavailable("cannot resolve " + e.host + ": " + ::gai_strerror(rc));
  std::string last_error = "no address";
  for (addrinfo* a = res; a != nullptr; a = a->ai_next) {
    int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    int r = ::connect(fd, a->ai_addr, a->ai_addrlen);
    if (r < 0 && errno == EINPROGRESS) {
      pollfd p{fd, POLLOUT, 0};
      r = ::poll(&p, 1, ms_until(deadline));
      int err = 0;
      socklen_t len = sizeof err;
      if (r == 1 && ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) == 0 && err == 0) {
        r = 0;
      } else {
        last_error = r == 0 ? "timed out" : std::strerror(err != 0 ? err : errno);
        r = -1;
      }
    } else if (r < 0) {
      last_error = std::strerror(errno);
    }
    if (r == 0) {
      int one = 1;
      ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      ::freeaddrinfo(res);
      return fd;
    }
    ::close(fd);
  }
  ::freeaddrinfo(res);
  return unavailable("cannot connect to " + e.host + ":" + port + " (" + last_error + ")");
}

Result<std::string> http_get(const Endpoint& e, std::string_view path, Clock::time_point deadline) {
  CAVEMAN_ASSIGN_OR_RETURN(int fd, connect_loopback(e, deadline));
  std::string host = e.host.find(':') != std::string::npos ? "[" + e.host + "]" : e.host;
  std::string req = "GET " + std::string(path) + " HTTP/1.1\r\nHost: " + host + ":" +
                    std::to_string(e.port) + "\r\nConnection: close\r\n\r\n";
  Status sent = write_all(fd, req, deadline);
  if (!sent.ok()) {
    ::close(fd);
    return sent;
  }
  std::string data;
  std::optional<std::size_t> body_start, want;
  while (true) {
    if (!body_start) {
      std::size_t end = data.find("\r\n\r\n");
      if (end != std::string::npos) {
        body_start = end + 4;
        if (auto cl = header(std::string_view(data).substr(0, end), "Content-Length")) {
          want = std::strtoull(cl->c_str(), nullptr, 10);
        }
      }
    }
    if (body_start && want && data.size() >= *body_start + *want) break;
    if (data.size() > (16u << 20)) {
      ::close(fd);
      return unavailable("DevTools HTTP reply too large");
    }
    Result<std::size_t> n = read_some(fd, &data, deadline);
    if (!n.ok()) {
      ::close(fd);
      return n.status();
    }
    if (*n == 0) break;
  }
  ::close(fd);
  if (!body_start) return unavailable("malformed DevTools HTTP reply");
  std::string_view status_line = std::string_view(data).substr(0, data.find('\n'));
  if (status_line.find(" 200") == std::string_view::npos) {
    return unavailable("DevTools HTTP " + std::string(path) + ": " + trim(status_line));
  }
  std::string body = data.substr(*body_start);
  if (want && body.size() > *want) body.resize(*want);
  return body;
}

WebSocketTransport::WebSocketTransport(int fd) : fd_(fd), decoder_(kMaxCdpMessageBytes) {}

WebSocketTransport::~WebSocketTransport() {
  if (fd_ >= 0) {
    if (!closed_) {
      (void)send_frame(WsOpcode::kClose, "", Clock::now() + std::chrono::milliseconds(200));
    }
    ::close(fd_);
  }
}

Result<std::unique_ptr<WebSocketTransport>> WebSocketTransport::connect(std::string_view ws_url,
                                                                        Clock::time_point deadline) {
  CAVEMAN_ASSIGN_OR_RETURN(Endpoint e, parse_endpoint(ws_url));
  if (e.scheme != "ws") return Status::InvalidArgument(codes::kInvalidArguments, "not a ws:// URL");
  CAVEMAN_ASSIGN_OR_RETURN(int fd, connect_loopback(e, deadline));
  std::unique_ptr<WebSocketTransport> t(new WebSocketTransport(fd));
  std::string key = random_key();
  CAVEMAN_RETURN_IF_ERROR(write_all(fd, handshake_request(e, key), deadline));
  std::string data;
  std::size_t end = std::string::npos;
  while ((end = data.find("\r\n\r\n")) == std::string::npos) {
    if (data.size() > 65536) return unavailable("WebSocket handshake reply too large");
    CAVEMAN_ASSIGN_OR_RETURN(std::size_t n, read_some(fd, &data, deadline));
    if (n == 0) return unavailable("the browser closed the connection during the WebSocket handshake");
  }
  CAVEMAN_RETURN_IF_ERROR(check_handshake_response(std::string_view(data).substr(0, end), key));
  t->decoder_.feed(std::string_view(data).substr(end + 4));
  return t;
}

Status WebSocketTransport::send_frame(WsOpcode opcode, std::string_view payload,
                                      Clock::time_point deadline) {
  return write_all(fd_, encode_ws_frame(opcode, payload, random_mask()), deadline);
}

Status WebSocketTransport::send(std::string_view message, Clock::time_point deadline) {
  if (closed_) return unavailable("the browser closed the WebSocket");
  Status s = send_frame(WsOpcode::kText, message, deadline);
  if (!s.ok() && !is_timeout(s)) closed_ = true;
  return s;
}

Result<std::string> WebSocketTransport::receive(Clock::time_point deadline) {
  std::string scratch;
  while (true) {
    Result<std::optional<WsFrame>> f = decoder_.next();
    if (!f.ok()) {
      closed_ = true;
      return f.status();
    }
    if (f->has_value()) {
      WsFrame& frame = **f;
      switch (frame.opcode) {
        case WsOpcode::kPing:
          (void)send_frame(WsOpcode::kPong, frame.payload, deadline);
          continue;
        case WsOpcode::kPong:
          continue;
        case WsOpcode::kClose:
          if (!closed_) (void)send_frame(WsOpcode::kClose, "", deadline);
          closed_ = true;
          return unavailable("the browser closed the WebSocket");
        case WsOpcode::kText:
        case WsOpcode::kBinary:
          if (in_message_) return protocol("WebSocket data frame inside a fragmented message");
          if (frame.fin) return std::move(frame.payload);
          message_ = std::move(frame.payload);
          in_message_ = true;
          continue;
        case WsOpcode::kContinuation:
          if (!in_message_) return protocol("unexpected WebSocket continuation frame");
          if (message_.size() + frame.payload.size() > kMaxCdpMessageBytes) {
            closed_ = true;
            return protocol("WebSocket message over the size cap");
          }
          message_ += frame.payload;
          if (frame.fin) {
            in_message_ = false;
            return std::move(message_);
          }
          continue;
      }
    }
    if (closed_) return unavailable("the browser closed the WebSocket");
    scratch.clear();
    Result<std::size_t> n = read_some(fd_, &scratch, deadline);
    if (!n.ok()) {
      if (!is_timeout(n.status())) closed_ = true;
      return n.status();
    }
    if (*n == 0) {
      closed_ = true;
      return unavailable("the browser closed the WebSocket connection");
    }
    decoder_.feed(scratch);
  }
}

}  // namespace caveman::browse
