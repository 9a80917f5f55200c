// One keep-alive connection to an upstream origin, as UpstreamClient uses it: send one POST,
// hand the response head and body bytes to callbacks as they arrive, report how it ended.
//
// One HTTP/1.1 client of our own for every origin: plain for `http://` (local providers,
// Ollama, LM Studio, test stand-ins), TLS for `https://` (tls_stream.h), the latter through
// the outbound proxy's CONNECT tunnel when HTTPS_PROXY applies (outbound_proxy.h). It
// replaced cpp-httplib's client: that one polled before every read and write and formatted
// headers line by line (~28% of the proxy's CPU per request on a loopback upstream), and
// through a proxy it sent the proxy's credentials on to the provider and relayed the
// proxy's own refusals as if the provider had answered. Ours writes a request at once,
// reads without polling first and waits (poll) only when a read would block.
#ifndef CAVEMAN_PROXY_UPSTREAM_CONNECTION_H_
#define CAVEMAN_PROXY_UPSTREAM_CONNECTION_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "caveman/status.h"
#include "headers.h"
#include "outbound_proxy.h"

namespace caveman::proxy {

struct UpstreamRequest {
  std::string origin;  // scheme://host[:port]
  std::string host;
  int port = 0;
  std::string path;  // raw path + query
  HeaderList headers;
  std::shared_ptr<const std::string> body;
};

struct UpstreamHead {
  int status = 0;
  HeaderList headers;
  std::optional<std::size_t> content_length;
  std::string content_type;
  std::string content_encoding;
};

using HeadFn = std::function<bool(const UpstreamHead&)>;
using DataFn = std::function<bool(std::string_view)>;

// How one attempt ended. Retry decisions belong to UpstreamClient.
enum class TransportError {
  kNone,
  kConnect,         // refused, unreachable, reset while connecting
  kConnectTimeout,
  kWrite,           // the request could not be sent
  kRead,            // the connection broke (or closed) before the response was complete
  kReadTimeout,     // the upstream was silent for the whole read timeout
  kProtocol,        // not a well-formed HTTP/1.x response
  kTls,             // the upstream's certificate did not verify (untrusted, wrong name)
  kProxyRefused,    // the outbound proxy answered CONNECT with something other than 2xx
  kAborted,         // a callback returned false, or stop() was called
};

struct AttemptOutcome {
  TransportError error = TransportError::kNone;
  std::string detail;  // human-readable cause, never a header value
  bool ok() const { return error == TransportError::kNone; }
};

struct ConnectionOptions {
  std::string host;  // Host header and TLS name
  int port = 0;
  std::string ip;    // the address the SSRF guard approved: what is dialed (empty: the
                     // outbound proxy resolves the host)
  std::optional<OutboundProxy> proxy;  // https only: tunnel through it with CONNECT
  std::int64_t connect_timeout_ms = 10000;
  std::int64_t read_timeout_ms = 600000;   // longest silence while waiting for bytes
  std::int64_t write_timeout_ms = 600000;
};

class UpstreamConnection {
 public:
  virtual ~UpstreamConnection() = default;
  // Sends `request` as a POST (connecting first if needed). on_head runs once, before any
  // body byte; on_data gets the decoded body (chunked framing removed) chunk by chunk.
  virtual AttemptOutcome send(const UpstreamRequest& request, const HeadFn& on_head,
                              const DataFn& on_data) = 0;
  // From any thread: a send() blocked on the network returns promptly with kAborted.
  virtual void stop() = 0;
  // True after a send() that completed on a connection the upstream keeps open.
  virtual bool reusable() const = 0;
};

// `origin`'s scheme decides: http:// → plain text, always direct (options.proxy ignored);
// https:// → TLS, through options.proxy when set.
std::unique_ptr<UpstreamConnection> make_upstream_connection(const std::string& origin,
                                                             const ConnectionOptions& options);

// The client's response head parser, exposed for tests. `head` is everything up
// to and including the blank line. Errors: codes::kUpstreamBadResponse.
struct ParsedHead {
  int status = 0;
  int minor_version = 1;  // HTTP/1.<minor>
  HeaderList headers;
  bool chunked = false;
  std::optional<std::size_t> content_length;
  bool connection_close = false;
};
Result<ParsedHead> parse_response_head(std::string_view head);

// Removes chunked transfer framing, incrementally: feed() any split of the stream.
class ChunkedDecoder {
 public:
  // Consumes bytes from `in`, passing chunk data to `out` (false from `out` stops with
  // kAborted). Returns how many bytes of `in` were used: fewer than in.size() only once
  // the last chunk and its trailers are complete (done() is then true). Malformed framing
  // is an error.
  Result<std::size_t> feed(std::string_view in, const DataFn& out, bool* aborted);
  bool done() const { return state_ == State::kDone; }

 private:
  enum class State { kSize, kData, kDataEnd, kTrailer, kDone };
  State state_ = State::kSize;
  std::string line_;        // partial size or trailer line
  std::uint64_t remaining_ = 0;
  int trailer_lines_ = 0;
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_UPSTREAM_CONNECTION_H_
