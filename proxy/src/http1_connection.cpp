// The upstream connection (see upstream_connection.h for why it is our own): HTTP/1.1 over
// a non-blocking socket, in TLS for https origins (tls_stream.h), optionally through an
// outbound proxy's CONNECT tunnel; request written at once (one sendmsg in plain text),
// response read into one buffer, framed by Content-Length, chunked encoding or close.
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include <openssl/evp.h>

#include "caveman/base/codes.h"
#include "caveman/base/text.h"
#include "tls_stream.h"
#include "upstream_connection.h"
#include "url.h"

namespace caveman::proxy {
namespace {

constexpr std::size_t kBufferSize = 64 * 1024;
constexpr std::size_t kMaxHead = 64 * 1024;
constexpr std::size_t kMaxChunkLine = 4096;
constexpr int kMaxTrailerLines = 64;
constexpr std::size_t kCoalesceBytes = 16 * 1024;  // one TLS record's worth of plaintext

Status bad_response(std::string what) {
  return Status::Unavailable(codes::kUpstreamBadResponse, std::move(what));
}

bool parse_decimal(std::string_view s, std::size_t* out) {
  if (s.empty() || s.size() > 19) return false;
  std::size_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::size_t>(c - '0');
  }
  *out = v;
  return true;
}

AttemptOutcome outcome(TransportError e, std::string detail) {
  return AttemptOutcome{e, std::move(detail)};
}

std::string base64(std::string_view s) {
  std::string out(4 * ((s.size() + 2) / 3) + 1, '\0');
  int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                          reinterpret_cast<const unsigned char*>(s.data()), static_cast<int>(s.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

class Http1Connection final : public UpstreamConnection {
 public:
  Http1Connection(ConnectionOptions options, bool tls) : o_(std::move(options)), use_tls_(tls) {}
  ~Http1Connection() override {
    tls_.reset();  // before the socket it uses
    int fd = fd_.load();
    if (fd >= 0) ::close(fd);
  }

  AttemptOutcome send(const UpstreamRequest& request, const HeadFn& on_head,
                      const DataFn& on_data) override;

  void stop() override {
    stopped_.store(true);
    int fd = fd_.load();
    if (fd >= 0) ::shutdown(fd, SHUT_RDWR);  // wakes a blocked poll/recv at once
  }

  bool reusable() const override { return reusable_; }

 private:
  enum class Fill { kData, kEof, kTimeout, kError };

  AttemptOutcome connect_socket();
  // TCP connect to `address` (an IP literal, or a name resolved here) within the timeout.
  AttemptOutcome dial(const std::string& address, int port, bool numeric);
  AttemptOutcome connect_to(const addrinfo* address);
  // CONNECT host:port through the outbound proxy; the tunnel is then the connection.
  AttemptOutcome open_tunnel();
  AttemptOutcome start_tls();
  AttemptOutcome write_all(std::string_view head, std::string_view body);
  // Reads until buffered bytes hold a response head; *head_end is its length.
  AttemptOutcome read_head(std::size_t* head_end);
  AttemptOutcome write_request(const UpstreamRequest& request);
  Fill fill();
  // Waits for `events` up to `timeout_ms`: 1 ready, 0 timed out, -1 error.
  int wait(short events, std::int64_t timeout_ms);
  AttemptOutcome read_failure(Fill f, const char* where);
  AttemptOutcome read_body(const ParsedHead& head, const DataFn& on_data, bool* close_delimited);

  std::size_t buffered() const { return end_ - begin_; }
  std::string_view unread() const { return std::string_view(buf_.data() + begin_, buffered()); }
  void consume(std::size_t n) {
    begin_ += n;
    if (begin_ == end_) begin_ = end_ = 0;
  }

  ConnectionOptions o_;
  bool use_tls_;
  std::unique_ptr<TlsStream> tls_;  // set once the handshake is done
  std::atomic<int> fd_{-1};
  std::atomic<bool> stopped_{false};
  bool reusable_ = false;
  int saved_errno_ = 0;
  std::string buf_;
  std::size_t begin_ = 0;  // unread bytes are buf_[begin_, end_)
  std::size_t end_ = 0;
};

int Http1Connection::wait(short events, std::int64_t timeout_ms) {
  pollfd p{fd_.load(), events, 0};
  while (true) {
    int r = ::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(timeout_ms, 1 << 30)));
    if (r >= 0) return r > 0 ? 1 : 0;
    if (errno != EINTR) return -1;
  }
}

AttemptOutcome Http1Connection::connect_socket() {
  if (o_.proxy) {
    AttemptOutcome dialled = dial(o_.proxy->host, o_.proxy->port, false);
    if (!dialled.ok()) {
      dialled.detail = "outbound proxy " + o_.proxy->display() + ": " + dialled.detail;
      return dialled;
    }
    AttemptOutcome tunnel = open_tunnel();
    if (!tunnel.ok()) return tunnel;
  } else {
    AttemptOutcome dialled = dial(o_.ip, o_.port, true);
    if (!dialled.ok()) return dialled;
  }
  return use_tls_ ? start_tls() : AttemptOutcome{};
}

AttemptOutcome Http1Connection::dial(const std::string& address, int port_number, bool numeric) {
  addrinfo hints{};
  hints.ai_flags = AI_NUMERICSERV | (numeric ? AI_NUMERICHOST : 0);
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::string port = std::to_string(port_number);
  if (::getaddrinfo(address.c_str(), port.c_str(), &hints, &found) != 0 || found == nullptr) {
    return outcome(TransportError::kConnect,
                   numeric ? "not an IP address: " + address : "cannot resolve " + address);
  }
  std::unique_ptr<addrinfo, void (*)(addrinfo*)> guard(found, ::freeaddrinfo);
  // A name may resolve to several addresses (IPv6 and IPv4): the first that answers wins.
  AttemptOutcome last;
  for (const addrinfo* a = found; a != nullptr; a = a->ai_next) {
    if (int old = fd_.exchange(-1); old >= 0) ::close(old);
    last = connect_to(a);
    if (last.ok() || last.error == TransportError::kAborted) return last;
  }
  return last;
}

AttemptOutcome Http1Connection::connect_to(const addrinfo* a) {
  int fd = ::socket(a->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return outcome(TransportError::kConnect, std::string("socket: ") + std::strerror(errno));
  fd_.store(fd);  // from here stop() can shut it down; the destructor closes it
  if (stopped_.load()) return outcome(TransportError::kAborted, "stopped");
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  if (::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
    if (errno != EINPROGRESS) {
      return outcome(TransportError::kConnect, std::string("connect: ") + std::strerror(errno));
    }
    int ready = wait(POLLOUT, o_.connect_timeout_ms);
    if (stopped_.load()) return outcome(TransportError::kAborted, "stopped");
    if (ready == 0) return outcome(TransportError::kConnectTimeout, "connect timed out");
    int err = 0;
    socklen_t len = sizeof err;
    if (ready < 0 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
      return outcome(TransportError::kConnect,
                     std::string("connect: ") + std::strerror(err != 0 ? err : errno));
    }
  }
  return {};
}

AttemptOutcome Http1Connection::open_tunnel() {
  std::string target = host_port(o_.host, o_.port);
  std::string connect = "CONNECT " + target + " HTTP/1.1\r\nHost: " + target + "\r\n";
  if (!o_.proxy->user.empty()) {
    connect += "Proxy-Authorization: Basic " + base64(o_.proxy->user + ":" + o_.proxy->password) + "\r\n";
  }
  connect += "\r\n";
  AttemptOutcome w = write_all(connect, {});
  if (!w.ok()) return w;
  std::size_t head_end = 0;
  AttemptOutcome r = read_head(&head_end);
  if (!r.ok()) {
    r.detail = "outbound proxy " + o_.proxy->display() + ": " + r.detail;
    return r;
  }
  Result<ParsedHead> head = parse_response_head(unread().substr(0, head_end));
  if (!head.ok()) return outcome(TransportError::kProtocol, "outbound proxy: " + head.status().message());
  consume(head_end);
  if (head->status / 100 != 2) {
    std::string why;
    if (head->status == 407) {
      why = o_.proxy->user.empty() ? " (it wants credentials: HTTPS_PROXY=http://user:password@host:port)"
                                   : " (it refused the credentials in HTTPS_PROXY)";
    }
    return outcome(TransportError::kProxyRefused, "outbound proxy " + o_.proxy->display() + " answered " +
                                                      std::to_string(head->status) + " to CONNECT " +
                                                      target + why);
  }
  // A proxy that sends bytes beyond its answer before the handshake is not a tunnel.
  if (buffered() != 0) return outcome(TransportError::kProtocol, "outbound proxy: data after the CONNECT answer");
  return {};
}

AttemptOutcome Http1Connection::start_tls() {
  Result<std::unique_ptr<TlsStream>> opened = TlsStream::open(fd_.load(), o_.host);
  if (!opened.ok()) return outcome(TransportError::kTls, opened.status().message());
  std::unique_ptr<TlsStream> tls = std::move(opened).value();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(o_.connect_timeout_ms);
  while (true) {
    TlsStream::Io io = tls->handshake();
    if (io == TlsStream::Io::kDone) break;
    if (stopped_.load()) return outcome(TransportError::kAborted, "stopped");
    if (io == TlsStream::Io::kError || io == TlsStream::Io::kEof) {
      // A refused certificate stays refused; a reset or garbled handshake may not.
      return outcome(tls->certificate_refused() ? TransportError::kTls : TransportError::kConnect,
                     io == TlsStream::Io::kEof ? "the connection closed during the TLS handshake" : tls->detail());
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    int ready = left.count() <= 0 ? 0 : wait(io == TlsStream::Io::kWantRead ? POLLIN : POLLOUT, left.count());
    if (stopped_.load()) return outcome(TransportError::kAborted, "stopped");
    if (ready == 0) return outcome(TransportError::kConnectTimeout, "TLS handshake timed out");
    if (ready < 0) return outcome(TransportError::kConnect, "TLS handshake: poll failed");
  }
  tls_ = std::move(tls);
  return {};
}

AttemptOutcome Http1Connection::read_head(std::size_t* head_end) {
  std::size_t scanned = 0;
  while (true) {
    std::string_view data = unread();
    std::size_t from = scanned >= 3 ? scanned - 3 : 0;
    std::size_t at = data.find("\r\n\r\n", from);
    if (at != std::string_view::npos) {
      *head_end = at + 4;
      return {};
    }
    scanned = data.size();
    if (scanned > kMaxHead) return outcome(TransportError::kProtocol, "response head over 64 KiB");
    Fill f = fill();
    if (f != Fill::kData) return read_failure(f, buffered() == 0 ? "before answering" : "mid-head");
  }
}

AttemptOutcome Http1Connection::write_all(std::string_view head, std::string_view body) {
  if (tls_) {
    // A small request goes out as one TLS record (one segment), as the plain path's sendmsg.
    std::string joined;
    if (!body.empty() && head.size() + body.size() <= kCoalesceBytes) {
      joined.reserve(head.size() + body.size());
      joined.append(head).append(body);
      head = joined;
      body = {};
    }
    for (std::string_view part : {head, body}) {
      while (!part.empty()) {
        std::size_t n = 0;
        TlsStream::Io io = tls_->write(part.data(), part.size(), &n);
        if (io == TlsStream::Io::kDone) {
          part.remove_prefix(n);
          continue;
        }
        if (stopped_.load()) return outcome(TransportError::kAborted, "stopped");
        if (io != TlsStream::Io::kWantRead && io != TlsStream::Io::kWantWrite) {
          return outcome(TransportError::kWrite, "TLS write: " + tls_->detail());
        }
        int ready = wait(io == TlsStream::Io::kWantRead ? POLLIN : POLLOUT, o_.write_timeout_ms);
        if (stopped_.load()) return outcome(TransportError::kAborted, "stopped");
        if (ready <= 0) return outcome(TransportError::kWrite, ready == 0 ? "send timed out" : "send: poll failed");
      }
    }
    return {};
  }
  iovec iov[2] = {{const_cast<char*>(head.data()), head.size()}, {const_cast<char*>(body.data()), body.size()}};
  msghdr msg{};
  msg.msg_iov = iov;
  msg.msg_iovlen = body.empty() ? 1 : 2;
  while (msg.msg_iovlen > 0) {
    ssize_t n = ::sendmsg(fd_.load(), &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) {
        if (stopped_.load()) return outcome(TransportError::kAborted, "stopped");
        return outcome(TransportError::kWrite, std::string("send: ") + std::strerror(errno));
      }
      int ready = wait(POLLOUT, o_.write_timeout_ms);
      if (stopped_.load()) return outcome(TransportError::kAborted, "stopped");
      if (ready <= 0) {
        return outcome(TransportError::kWrite, ready == 0 ? "send timed out" : "send: poll failed");
      }
      continue;
    }
    auto left = static_cast<std::size_t>(n);
    while (msg.msg_iovlen > 0 && left >= msg.msg_iov->iov_len) {
      left -= msg.msg_iov->iov_len;
      ++msg.msg_iov;
      --msg.msg_iovlen;
    }
    if (msg.msg_iovlen > 0) {
      msg.msg_iov->iov_base = static_cast<char*>(msg.msg_iov->iov_base) + left;
      msg.msg_iov->iov_len -= left;
    }
  }
  return {};
}

AttemptOutcome Http1Connection::write_request(const UpstreamRequest& request) {
  const std::string& body = request.body ? *request.body : std::string();
  std::string head;
  head.reserve(256 + request.path.size() + 64 * request.headers.size());
  head.append("POST ").append(request.path).append(" HTTP/1.1\r\nHost: ");
  head.append(url_host(request.host));
  if (request.port != (use_tls_ ? 443 : 80)) head.append(":").append(std::to_string(request.port));
  head.append("\r\n");
  for (const auto& [name, value] : request.headers) {
    // Framing and connection handling are this client's; the mapped headers never carry
    // them, but a duplicate here would corrupt the request.
    if (base::iequals_ascii(name, "host") || base::iequals_ascii(name, "content-length") ||
        base::iequals_ascii(name, "transfer-encoding") || base::iequals_ascii(name, "connection")) {
      continue;
    }
    head.append(name).append(": ").append(value).append("\r\n");
  }
  head.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n\r\n");
  return write_all(head, body);
}

Http1Connection::Fill Http1Connection::fill() {
  if (end_ == buf_.size()) {
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, buffered());
      end_ -= begin_;
      begin_ = 0;
    } else {
      buf_.resize(buf_.empty() ? kBufferSize : buf_.size() * 2);
    }
  }
  while (tls_) {
    std::size_t n = 0;
    TlsStream::Io io = tls_->read(buf_.data() + end_, buf_.size() - end_, &n);
    if (io == TlsStream::Io::kDone) {
      end_ += n;
      return Fill::kData;
    }
    if (io == TlsStream::Io::kEof) return Fill::kEof;
    if (stopped_.load()) return Fill::kEof;
    if (io == TlsStream::Io::kError) return Fill::kError;
    int ready = wait(io == TlsStream::Io::kWantRead ? POLLIN : POLLOUT, o_.read_timeout_ms);
    if (ready == 0) return Fill::kTimeout;
    if (ready < 0) {
      saved_errno_ = errno;
      return Fill::kError;
    }
  }
  while (true) {
    ssize_t n = ::recv(fd_.load(), buf_.data() + end_, buf_.size() - end_, 0);
    if (n > 0) {
      end_ += static_cast<std::size_t>(n);
      return Fill::kData;
    }
    if (n == 0) return Fill::kEof;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) {
      saved_errno_ = errno;
      return Fill::kError;
    }
    if (stopped_.load()) return Fill::kEof;
    int ready = wait(POLLIN, o_.read_timeout_ms);
    if (ready == 0) return Fill::kTimeout;
    if (ready < 0) {
      saved_errno_ = errno;
      return Fill::kError;
    }
  }
}

AttemptOutcome Http1Connection::read_failure(Fill f, const char* where) {
  if (stopped_.load()) return outcome(TransportError::kAborted, "stopped");
  switch (f) {
    case Fill::kTimeout:
      return outcome(TransportError::kReadTimeout, std::string("no bytes from the upstream ") + where);
    case Fill::kError:
      if (tls_ && !tls_->detail().empty()) {
        return outcome(TransportError::kRead, "TLS read: " + tls_->detail() + " " + where);
      }
      return outcome(TransportError::kRead, std::string("recv: ") + std::strerror(saved_errno_) + " " + where);
    default:
      return outcome(TransportError::kRead, std::string("the upstream closed the connection ") + where);
  }
}

AttemptOutcome Http1Connection::read_body(const ParsedHead& head, const DataFn& on_data,
                                          bool* close_delimited) {
  auto deliver = [&](std::string_view data) {
    return data.empty() || on_data(data);
  };
  if (head.status == 204 || head.status == 304) return {};
  if (head.chunked) {
    ChunkedDecoder decoder;
    while (true) {
      bool aborted = false;
      Result<std::size_t> used = decoder.feed(unread(), on_data, &aborted);
      if (aborted) return outcome(TransportError::kAborted, "the receiver stopped reading");
      if (!used.ok()) return outcome(TransportError::kProtocol, used.status().message());
      consume(*used);
      if (decoder.done()) return {};
      Fill f = fill();
      if (f != Fill::kData) return read_failure(f, "mid-body");
    }
  }
  if (head.content_length) {
    std::size_t left = *head.content_length;
    while (true) {
      std::size_t n = std::min(left, buffered());
      if (!deliver(unread().substr(0, n))) {
        return outcome(TransportError::kAborted, "the receiver stopped reading");
      }
      consume(n);
      left -= n;
      if (left == 0) return {};
      Fill f = fill();
      if (f != Fill::kData) return read_failure(f, "mid-body");
    }
  }
  *close_delimited = true;  // neither length nor chunks: the body ends when the upstream closes
  while (true) {
    if (!deliver(unread())) return outcome(TransportError::kAborted, "the receiver stopped reading");
    consume(buffered());
    Fill f = fill();
    if (f == Fill::kEof && !stopped_.load()) return {};
    if (f != Fill::kData) return read_failure(f, "mid-body");
  }
}

AttemptOutcome Http1Connection::send(const UpstreamRequest& request, const HeadFn& on_head,
                                     const DataFn& on_data) {
  reusable_ = false;
  if (fd_.load() < 0) {
    AttemptOutcome c = connect_socket();
    if (!c.ok()) return c;
  }
  AttemptOutcome w = write_request(request);
  if (!w.ok()) return w;

  ParsedHead parsed;
  while (true) {  // 1xx interim answers (100 Continue, 103 Early Hints) are skipped
    std::size_t head_end = 0;
    AttemptOutcome r = read_head(&head_end);
    if (!r.ok()) return r;
    Result<ParsedHead> head = parse_response_head(unread().substr(0, head_end));
    if (!head.ok()) return outcome(TransportError::kProtocol, head.status().message());
    consume(head_end);
    if (head->status >= 100 && head->status < 200) {
      if (head->status == 101) return outcome(TransportError::kProtocol, "unexpected 101 Switching Protocols");
      continue;
    }
    parsed = std::move(head).value();
    break;
  }

  UpstreamHead head;
  head.status = parsed.status;
  if (!parsed.chunked) head.content_length = parsed.content_length;
  head.content_type = find_header(parsed.headers, "content-type").value_or("");
  head.content_encoding = find_header(parsed.headers, "content-encoding").value_or("");
  head.headers = std::move(parsed.headers);
  if (!on_head(head)) return outcome(TransportError::kAborted, "the receiver refused the head");

  bool close_delimited = false;
  AttemptOutcome body = read_body(parsed, on_data, &close_delimited);
  if (!body.ok()) return body;
  // Bytes beyond the response would be an answer to nothing: such a connection is closed.
  reusable_ = !close_delimited && !parsed.connection_close && buffered() == 0 && !stopped_.load();
  return {};
}

}  // namespace

Result<ParsedHead> parse_response_head(std::string_view head) {
  ParsedHead out;
  std::size_t eol = head.find("\r\n");
  if (eol == std::string_view::npos) return bad_response("response head without a status line");
  std::string_view status_line = head.substr(0, eol);
  // HTTP/1.x SSS[ reason]
  if (status_line.size() < 12 || status_line.substr(0, 7) != "HTTP/1." ||
      (status_line[7] != '0' && status_line[7] != '1') || status_line[8] != ' ' ||
      (status_line.size() > 12 && status_line[12] != ' ')) {
    return bad_response("not an HTTP/1.x status line");
  }
  out.minor_version = status_line[7] - '0';
  std::size_t code = 0;
  if (!parse_decimal(status_line.substr(9, 3), &code) || code < 100) {
    return bad_response("bad status code");
  }
  out.status = static_cast<int>(code);

  bool keep_alive_token = false;
  std::optional<std::size_t> length;
  std::string_view rest = head.substr(eol + 2);
  while (true) {
    std::size_t end = rest.find("\r\n");
    if (end == std::string_view::npos) return bad_response("response head not terminated");
    std::string_view line = rest.substr(0, end);
    rest.remove_prefix(end + 2);
    if (line.empty()) break;
    if (line.front() == ' ' || line.front() == '\t') return bad_response("folded header line");
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0) return bad_response("header line without a name");
    std::string_view name = line.substr(0, colon);
    if (name.find_first_of(" \t") != std::string_view::npos) return bad_response("space in a header name");
    std::string_view value = trim_ows(line.substr(colon + 1));
    if (base::iequals_ascii(name, "content-length")) {
      std::size_t n = 0;
      if (!parse_decimal(value, &n)) return bad_response("bad Content-Length");
      if (length && *length != n) return bad_response("conflicting Content-Length headers");
      length = n;
    } else if (base::iequals_ascii(name, "transfer-encoding")) {
      // The final coding decides: chunked → chunk framing; anything else → read to close.
      std::vector<std::string_view> codings = header_list_tokens(value);
      out.chunked = !codings.empty() && base::iequals_ascii(codings.back(), "chunked");
      if (!out.chunked) out.connection_close = true;
    } else if (base::iequals_ascii(name, "connection")) {
      for (std::string_view t : header_list_tokens(value)) {
        if (base::iequals_ascii(t, "close")) out.connection_close = true;
        if (base::iequals_ascii(t, "keep-alive")) keep_alive_token = true;
      }
    }
    out.headers.emplace_back(std::string(name), std::string(value));
  }
  bool has_transfer_encoding = find_header(out.headers, "transfer-encoding").has_value();
  if (!has_transfer_encoding) out.content_length = length;
  if (out.minor_version == 0 && !keep_alive_token) out.connection_close = true;
  return out;
}

Result<std::size_t> ChunkedDecoder::feed(std::string_view in, const DataFn& out, bool* aborted) {
  std::size_t pos = 0;
  // Appends to line_ up to and including '\n'; true when a whole line is there.
  auto take_line = [&]() -> Result<bool> {
    std::size_t nl = in.find('\n', pos);
    std::size_t stop = nl == std::string_view::npos ? in.size() : nl + 1;
    line_.append(in.data() + pos, stop - pos);
    pos = stop;
    if (line_.size() > kMaxChunkLine) return bad_response("chunk line over 4 KiB");
    return nl != std::string_view::npos;
  };
  auto line_text = [&] {
    std::string_view l(line_);
    l.remove_suffix(1);  // '\n'
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    return l;
  };
  while (pos < in.size() && state_ != State::kDone) {
    switch (state_) {
      case State::kSize: {
        CAVEMAN_ASSIGN_OR_RETURN(bool whole, take_line());
        if (!whole) break;
        std::string_view l = line_text();
        l = trim_ows(l.substr(0, l.find(';')));  // chunk extensions are ignored
        if (l.empty() || l.size() > 15) return bad_response("bad chunk size");
        std::uint64_t size = 0;
        for (char c : l) {
          int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
          if (d < 0) return bad_response("bad chunk size");
          size = size * 16 + static_cast<std::uint64_t>(d);
        }
        line_.clear();
        remaining_ = size;
        state_ = size == 0 ? State::kTrailer : State::kData;
        break;
      }
      case State::kData: {
        std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(remaining_, in.size() - pos));
        if (!out(in.substr(pos, n))) {
          *aborted = true;
          return pos;
        }
        pos += n;
        remaining_ -= n;
        if (remaining_ == 0) state_ = State::kDataEnd;
        break;
      }
      case State::kDataEnd: {
        CAVEMAN_ASSIGN_OR_RETURN(bool whole, take_line());
        if (!whole) break;
        if (!line_text().empty()) return bad_response("chunk data longer than its size");
        line_.clear();
        state_ = State::kSize;
        break;
      }
      case State::kTrailer: {
        CAVEMAN_ASSIGN_OR_RETURN(bool whole, take_line());
        if (!whole) break;
        bool last = line_text().empty();
        line_.clear();
        if (last) {
          state_ = State::kDone;
        } else if (++trailer_lines_ > kMaxTrailerLines) {
          return bad_response("too many trailer lines");
        }
        break;
      }
      case State::kDone:
        break;
    }
  }
  return pos;
}

std::unique_ptr<UpstreamConnection> make_upstream_connection(const std::string& origin,
                                                             const ConnectionOptions& options) {
  bool tls = origin.rfind("https://", 0) == 0;
  ConnectionOptions o = options;
  if (!tls) o.proxy.reset();  // plain http upstreams (local servers) are always direct
  return std::make_unique<Http1Connection>(std::move(o), tls);
}

}  // namespace caveman::proxy
