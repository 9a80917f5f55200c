#include "http_adapter.h"

#include <httplib.h>

namespace caveman::proxy {
namespace {

bool pseudo_header(const std::string& name) {
  return name == "REMOTE_ADDR" || name == "REMOTE_PORT" || name == "LOCAL_ADDR" || name == "LOCAL_PORT";
}

class DataSinkAdapter final : public BodySink {
 public:
  explicit DataSinkAdapter(httplib::DataSink& sink) : sink_(sink) {}
  bool write(const char* data, std::size_t n) override { return sink_.write(data, n); }
  bool is_writable() const override { return sink_.is_writable(); }
  void done() override { sink_.done(); }

 private:
  httplib::DataSink& sink_;
};

}  // namespace

ProxyRequest read_request(const httplib::Request& req) {
  ProxyRequest in;
  in.method = req.method;
  in.target = req.target;
  in.path = req.path;
  for (const auto& [k, v] : req.headers) {
    // httplib adds the peer/local addresses as pseudo headers; they are not the client's.
    if (!pseudo_header(k)) in.headers.emplace_back(k, v);
  }
  in.body = req.body;
  in.peer = ClientPeer{req.remote_addr, req.remote_port, req.local_port};
  neutralize(req);
  return in;
}

void neutralize(const httplib::Request& req) {
  // The Request is a non-const local of httplib's connection loop (pinned by the adapter
  // test), so clearing inputs the handler has already read is well-defined.
  auto& r = const_cast<httplib::Request&>(req);
  r.headers.erase("Accept-Encoding");
  r.headers.erase("Range");
  r.ranges.clear();
}

void write_response(ProxyResponse out, httplib::Response& res) {
  res.status = out.status;
  for (auto& [k, v] : out.headers) res.set_header(k, v);
  switch (out.body_kind) {
    case ProxyResponse::Body::kNone:
      break;
    case ProxyResponse::Body::kContent:
      res.set_content(out.body, out.content_type);
      break;
    case ProxyResponse::Body::kSized:
      res.set_content_provider(
          out.content_length, out.content_type,
          [provider = std::move(out.sized)](std::size_t offset, std::size_t length, httplib::DataSink& sink) {
            DataSinkAdapter adapted(sink);
            return provider(offset, length, adapted);
          },
          std::move(out.done));
      break;
    case ProxyResponse::Body::kChunked:
      res.set_chunked_content_provider(
          out.content_type,
          [provider = std::move(out.chunked)](std::size_t offset, httplib::DataSink& sink) {
            DataSinkAdapter adapted(sink);
            return provider(offset, adapted);
          },
          std::move(out.done));
      break;
  }
}

}  // namespace caveman::proxy
