// The https upstream connection: cpp-httplib's client (OpenSSL) behind UpstreamConnection.
#include <httplib.h>
#include <openssl/x509.h>

#include <chrono>

#include "upstream_connection.h"

namespace caveman::proxy {
namespace {

void set_timeout(httplib::Client& c, void (httplib::Client::*setter)(time_t, time_t),
                 std::int64_t ms) {
  (c.*setter)(static_cast<time_t>(ms / 1000), static_cast<time_t>((ms % 1000) * 1000));
}

TransportError transport_error(httplib::Error e) {
  switch (e) {
    case httplib::Error::Success: return TransportError::kNone;
    case httplib::Error::Connection:
    case httplib::Error::SSLConnection:
    case httplib::Error::Unknown: return TransportError::kConnect;
    case httplib::Error::ConnectionTimeout: return TransportError::kConnectTimeout;
    case httplib::Error::Read: return TransportError::kRead;
    case httplib::Error::Write: return TransportError::kWrite;
    case httplib::Error::Canceled: return TransportError::kAborted;
    case httplib::Error::SSLLoadingCerts:
    case httplib::Error::SSLServerVerification: return TransportError::kTls;
    default: return TransportError::kProtocol;
  }
}

UpstreamHead head_of(const httplib::Response& r) {
  UpstreamHead head;
  head.status = r.status;
  for (const auto& [k, v] : r.headers) head.headers.emplace_back(k, v);
  head.content_type = r.get_header_value("Content-Type");
  head.content_encoding = r.get_header_value("Content-Encoding");
  if (r.has_header("Content-Length") && !r.has_header("Transfer-Encoding")) {
    head.content_length = static_cast<std::size_t>(
        std::strtoull(r.get_header_value("Content-Length").c_str(), nullptr, 10));
  }
  return head;
}

class HttplibConnection final : public UpstreamConnection {
 public:
  HttplibConnection(const std::string& origin, const ConnectionOptions& o)
      : client_(origin), host_(o.host), read_timeout_ms_(o.read_timeout_ms) {
    // Dial the address the SSRF guard approved; Host and TLS SNI still name the host.
    client_.set_hostname_addr_map({{o.host, o.ip}});
    client_.set_keep_alive(true);
    client_.set_decompress(false);  // relay encoded bytes as they are
    client_.set_compress(false);
    client_.set_url_encode(false);  // the raw path was validated and is forwarded as is
    client_.set_follow_location(false);
    client_.set_tcp_nodelay(true);
    set_timeout(client_, &httplib::Client::set_connection_timeout, o.connect_timeout_ms);
    set_timeout(client_, &httplib::Client::set_read_timeout, o.read_timeout_ms);
    set_timeout(client_, &httplib::Client::set_write_timeout, o.write_timeout_ms);
  }

  AttemptOutcome send(const UpstreamRequest& request, const HeadFn& on_head,
                      const DataFn& on_data) override {
    reusable_ = false;
    httplib::Request req;
    req.method = "POST";
    req.path = request.path;
    for (const auto& [k, v] : request.headers) req.headers.emplace(k, v);
    if (request.body) req.body = *request.body;
    bool head_sent = false;
    bool refused = false;
    req.response_handler = [&](const httplib::Response& r) {
      head_sent = true;
      refused = !on_head(head_of(r));
      return !refused;
    };
    req.content_receiver = [&](const char* data, std::size_t n, std::uint64_t, std::uint64_t) {
      refused = !on_data(std::string_view(data, n));
      return !refused;
    };
    httplib::Response res;
    httplib::Error err = httplib::Error::Success;
    auto started = std::chrono::steady_clock::now();
    if (client_.send(req, res, err)) {
      // 204/304-style answers skip the response handler: report the head now.
      if (!head_sent && !on_head(head_of(res))) return {TransportError::kAborted, "head refused"};
      reusable_ = !stopped_;
      return {};
    }
    if (refused || stopped_) return {TransportError::kAborted, "stopped"};
    // A read that waited out the whole timeout is a silent upstream, not a dropped connection.
    if (err == httplib::Error::Read && std::chrono::steady_clock::now() - started >=
                                           std::chrono::milliseconds(read_timeout_ms_ * 9 / 10)) {
      return {TransportError::kReadTimeout, "no bytes from the upstream"};
    }
    if (err == httplib::Error::SSLLoadingCerts) {
      return {TransportError::kTls, "the trusted CA certificates could not be loaded"};
    }
    if (err == httplib::Error::SSLServerVerification) {
      long verify = client_.get_openssl_verify_result();
      return {TransportError::kTls, verify != X509_V_OK
                                        ? std::string(X509_verify_cert_error_string(verify))
                                        : "the certificate does not name " + host_};
    }
    return {transport_error(err), httplib::to_string(err)};
  }

  void stop() override {
    stopped_ = true;
    client_.stop();
  }

  bool reusable() const override { return reusable_; }

 private:
  httplib::Client client_;
  std::string host_;
  std::int64_t read_timeout_ms_;
  std::atomic<bool> stopped_{false};
  bool reusable_ = false;
};

}  // namespace

std::unique_ptr<UpstreamConnection> make_httplib_connection(const std::string& origin,
                                                            const ConnectionOptions& options) {
  return std::make_unique<HttplibConnection>(origin, options);
}

}  // namespace caveman::proxy
