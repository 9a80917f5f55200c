#include "tls_stream.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>
#include <mutex>

#include "caveman/base/codes.h"
#include "ssrf.h"

namespace caveman::proxy {
namespace {

// One context for the process: its trust store is loaded once, on first use.
SSL_CTX* shared_context() {
  static SSL_CTX* ctx = [] {
    SSL_CTX* c = SSL_CTX_new(TLS_client_method());
    if (c == nullptr) return c;
    SSL_CTX_set_min_proto_version(c, TLS1_2_VERSION);
    SSL_CTX_set_verify(c, SSL_VERIFY_PEER, nullptr);
    SSL_CTX_set_default_verify_paths(c);
    // Partial writes let a large body go out as the socket accepts it; a write that must be
    // retried may then move its buffer (the caller retries with the rest, not the same call).
    SSL_CTX_set_mode(c, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    return c;
  }();
  return ctx;
}

std::string openssl_reason() {
  unsigned long e = ERR_get_error();
  ERR_clear_error();
  if (e == 0) return "TLS error";
  char buf[256];
  ERR_error_string_n(e, buf, sizeof buf);
  return buf;
}

}  // namespace

Result<std::unique_ptr<TlsStream>> TlsStream::open(int fd, const std::string& host) {
  SSL_CTX* ctx = shared_context();
  SSL* ssl = ctx == nullptr ? nullptr : SSL_new(ctx);
  if (ssl == nullptr)
    return Status::Unavailable(codes::kUpstreamTls, "TLS set-up failed: " + openssl_reason());
  std::unique_ptr<TlsStream> stream(new TlsStream(ssl, host));
  bool ip_literal = classify_address(host) != AddressClass::kInvalid;
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
  X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
  bool named = ip_literal ? X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) == 1
                          : SSL_set1_host(ssl, host.c_str()) == 1 &&
                                SSL_set_tlsext_host_name(ssl, host.c_str()) == 1;
  if (!named || SSL_set_fd(ssl, fd) != 1) {
    return Status::Unavailable(codes::kUpstreamTls,
                               "TLS set-up failed for " + host + ": " + openssl_reason());
  }
  SSL_set_connect_state(ssl);
  return stream;
}

TlsStream::~TlsStream() { SSL_free(ssl_); }

TlsStream::Io TlsStream::result(int ret, bool reading) {
  if (ret == 1) return Io::kDone;
  int err = SSL_get_error(ssl_, ret);
  switch (err) {
    case SSL_ERROR_WANT_READ: return Io::kWantRead;
    case SSL_ERROR_WANT_WRITE: return Io::kWantWrite;
    case SSL_ERROR_ZERO_RETURN: return Io::kEof;  // close_notify
    default: break;
  }
  long verify = SSL_get_verify_result(ssl_);
  if (verify != X509_V_OK) {
    certificate_refused_ = true;
    detail_ = verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH
                  ? "the certificate does not name " + host_
                  : X509_verify_cert_error_string(verify);
    ERR_clear_error();
    return Io::kError;
  }
  if (err == SSL_ERROR_SYSCALL) {
    int saved = errno;
    ERR_clear_error();
    // A peer that closes without close_notify: the end of the stream for a reader.
    if (reading && saved == 0) return Io::kEof;
    detail_ = saved == 0 ? "the connection closed during the TLS handshake" : std::strerror(saved);
    return Io::kError;
  }
  unsigned long e = ERR_peek_error();
  if (reading && ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING) {
    ERR_clear_error();
    return Io::kEof;
  }
  detail_ = openssl_reason();
  return Io::kError;
}

TlsStream::Io TlsStream::handshake() {
  ERR_clear_error();
  return result(SSL_connect(ssl_), false);
}

TlsStream::Io TlsStream::read(char* buf, std::size_t cap, std::size_t* n) {
  ERR_clear_error();
  *n = 0;
  return result(SSL_read_ex(ssl_, buf, cap, n), true);
}

TlsStream::Io TlsStream::write(const char* data, std::size_t len, std::size_t* n) {
  ERR_clear_error();
  *n = 0;
  return result(SSL_write_ex(ssl_, data, len, n), false);
}

}  // namespace caveman::proxy
