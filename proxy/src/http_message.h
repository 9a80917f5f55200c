// The proxy's own view of one client request and the response it builds, so the request
// path never sees cpp-httplib types (http_adapter.h converts at the edge). A response is
// recorded, not written: headers in the order set (a name may repeat) and at most one
// body — a buffer, a provider of known length, or a chunked provider (SSE).
#ifndef CAVEMAN_PROXY_HTTP_MESSAGE_H_
#define CAVEMAN_PROXY_HTTP_MESSAGE_H_

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "client_watch.h"
#include "headers.h"

namespace caveman::proxy {

struct ProxyRequest {
  std::string method;
  std::string target;  // as the client sent it: path and query
  std::string path;    // without the query
  HeaderList headers;  // the client's own headers, in the server's order
  std::string body;
  ClientPeer peer;
};

// Where a body provider writes; false from write() or is_writable() means the client left.
class BodySink {
 public:
  virtual ~BodySink() = default;
  virtual bool write(const char* data, std::size_t n) = 0;
  virtual bool is_writable() const = 0;
  virtual void done() = 0;  // a chunked body ended cleanly
};

struct ProxyResponse {
  // Called until the body is written; false aborts the connection.
  using SizedProvider = std::function<bool(std::size_t offset, std::size_t length, BodySink& sink)>;
  using ChunkedProvider = std::function<bool(std::size_t offset, BodySink& sink)>;
  using DoneFn = std::function<void(bool success)>;  // the client side finished
  enum class Body { kNone, kContent, kSized, kChunked };

  int status = -1;  // -1: the server's default
  HeaderList headers;
  Body body_kind = Body::kNone;
  std::string body;  // kContent
  std::string content_type;
  std::size_t content_length = 0;  // kSized
  SizedProvider sized;
  ChunkedProvider chunked;
  DoneFn done;

  void set_header(std::string name, std::string value) { headers.emplace_back(std::move(name), std::move(value)); }
  bool has_header(std::string_view name) const { return find_header(headers, name).has_value(); }
  std::string header(std::string_view name) const { return find_header(headers, name).value_or(""); }
  void set_content(std::string content, std::string type) {
    body_kind = Body::kContent;
    body = std::move(content);
    content_type = std::move(type);
  }
  void set_content_provider(std::size_t length, std::string type, SizedProvider provider, DoneFn on_done) {
    body_kind = Body::kSized;
    content_length = length;
    content_type = std::move(type);
    sized = std::move(provider);
    done = std::move(on_done);
  }
  void set_chunked_content_provider(std::string type, ChunkedProvider provider, DoneFn on_done) {
    body_kind = Body::kChunked;
    content_type = std::move(type);
    chunked = std::move(provider);
    done = std::move(on_done);
  }
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_HTTP_MESSAGE_H_
