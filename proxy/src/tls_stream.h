// TLS client side of an upstream connection (OpenSSL) over a connected non-blocking socket:
// TLS 1.2 or newer, the peer's certificate verified against OpenSSL's default trust store
// (the system CAs; SSL_CERT_FILE / SSL_CERT_DIR point it elsewhere) and against the host
// the request names (DNS name or IP literal), SNI sent for names. The caller owns the
// socket and does the waiting: every call returns at once with what it needs next.
#ifndef CAVEMAN_PROXY_TLS_STREAM_H_
#define CAVEMAN_PROXY_TLS_STREAM_H_

#include <cstddef>
#include <memory>
#include <string>

#include "caveman/status.h"

typedef struct ssl_st SSL;

namespace caveman::proxy {

class TlsStream {
 public:
  enum class Io {
    kDone,       // the call completed (read: *n > 0 bytes)
    kWantRead,   // wait until the socket is readable, then call again with the same arguments
    kWantWrite,  // wait until the socket is writable, then call again with the same arguments
    kEof,        // the peer closed the connection (read only)
    kError,      // see detail()
  };

  // Errors: codes::kUpstreamTls when OpenSSL cannot set up a session for `host`.
  static Result<std::unique_ptr<TlsStream>> open(int fd, const std::string& host);
  ~TlsStream();
  TlsStream(const TlsStream&) = delete;
  TlsStream& operator=(const TlsStream&) = delete;

  Io handshake();
  Io read(char* buf, std::size_t cap, std::size_t* n);
  Io write(const char* data, std::size_t len, std::size_t* n);

  // After kError: why, in words ("self-signed certificate", "the certificate does not name
  // api.example.com", an OpenSSL reason), and whether the peer's certificate was refused
  // (as opposed to a broken or reset connection, which a new attempt may cure).
  const std::string& detail() const { return detail_; }
  bool certificate_refused() const { return certificate_refused_; }

 private:
  TlsStream(SSL* ssl, std::string host) : ssl_(ssl), host_(std::move(host)) {}
  // Maps an SSL call's return; `reading`: a peer's close (with or without close_notify)
  // is the end of the stream, not an error.
  Io result(int ret, bool reading);

  SSL* ssl_;
  std::string host_;
  std::string detail_;
  bool certificate_refused_ = false;
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_TLS_STREAM_H_
