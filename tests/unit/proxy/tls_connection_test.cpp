// The upstream client over TLS against an in-process OpenSSL server on loopback, with
// certificates made here: exact bytes both ways and keep-alive inside TLS, a body larger
// than the socket buffers, an untrusted certificate and one for another name refused as
// kTls. The trust store is this process's: SSL_CERT_FILE is set before the client's first
// TLS connection (the shared context reads it once). The e2e_proxy_tls_upstream test covers
// the same path through the binary, plus the outbound proxy.
#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "support/test_support.h"
#include "upstream_connection.h"

namespace caveman::proxy {
namespace {

struct Identity {
  EVP_PKEY* key = nullptr;
  X509* cert = nullptr;
  ~Identity() {
    X509_free(cert);
    EVP_PKEY_free(key);
  }
};

// A self-signed certificate (P-256) for subject CN=`cn` (distinct per certificate: the
// trust store finds issuers by subject) whose subjectAltName is `san` ("IP:127.0.0.1").
std::unique_ptr<Identity> make_identity(const std::string& cn, const std::string& san) {
  auto id = std::make_unique<Identity>();
  id->key = EVP_EC_gen("P-256");
  id->cert = X509_new();
  X509_set_version(id->cert, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(id->cert), 1);
  X509_gmtime_adj(X509_getm_notBefore(id->cert), -60);
  X509_gmtime_adj(X509_getm_notAfter(id->cert), 3600);
  X509_set_pubkey(id->cert, id->key);
  X509_NAME* name = X509_get_subject_name(id->cert);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>(cn.c_str()),
                             -1, -1, 0);
  X509_set_issuer_name(id->cert, name);
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, id->cert, id->cert, nullptr, nullptr, 0);
  for (const auto& [nid, value] : {std::pair{NID_subject_alt_name, san}, std::pair{NID_basic_constraints, std::string("critical,CA:TRUE")}}) {
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    X509_add_ext(id->cert, ext, -1);
    X509_EXTENSION_free(ext);
  }
  X509_sign(id->cert, id->key, EVP_sha256());
  return id;
}

// One TLS server on loopback serving `answer(request_index)` for every request, keep-alive.
class TlsUpstream {
 public:
  TlsUpstream(const Identity& id, std::function<std::string(int)> answer) : answer_(std::move(answer)) {
    ctx_ = SSL_CTX_new(TLS_server_method());
    SSL_CTX_use_certificate(ctx_, id.cert);
    SSL_CTX_use_PrivateKey(ctx_, id.key);
    listener_ = testing::listen_on_loopback(8, &port_);
    thread_ = std::thread([this] { serve(); });
  }
  ~TlsUpstream() {
    stopping_ = true;
    ::shutdown(listener_, SHUT_RDWR);
    thread_.join();
    ::close(listener_);
    SSL_CTX_free(ctx_);
  }
  int port() const { return port_; }
  int connections() const { return connections_.load(); }
  const std::string& last_request() const { return last_request_; }

 private:
  void serve() {
    int request = 0;
    while (!stopping_) {
      int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) return;
      ++connections_;
      SSL* ssl = SSL_new(ctx_);
      SSL_set_fd(ssl, fd);
      if (SSL_accept(ssl) == 1) {
        std::string in;
        char buf[65536];
        while (true) {
          std::size_t head = in.find("\r\n\r\n");
          if (head != std::string::npos) {
            std::size_t cl = in.find("Content-Length: ");
            std::size_t length = cl == std::string::npos ? 0 : std::strtoul(in.c_str() + cl + 16, nullptr, 10);
            if (in.size() >= head + 4 + length) {
              last_request_ = in.substr(0, head + 4 + length);
              in.erase(0, head + 4 + length);
              std::string out = answer_(request++);
              if (SSL_write(ssl, out.data(), static_cast<int>(out.size())) <= 0) break;
              continue;
            }
          }
          int n = SSL_read(ssl, buf, sizeof buf);
          if (n <= 0) break;
          in.append(buf, static_cast<std::size_t>(n));
        }
      }
      SSL_free(ssl);
      ::close(fd);
    }
  }

  std::function<std::string(int)> answer_;
  SSL_CTX* ctx_ = nullptr;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::string last_request_;
  std::thread thread_;
};

class TlsConnectionTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    trusted_ = make_identity("caveman-trusted", "IP:127.0.0.1").release();
    other_name_ = make_identity("caveman-other-name", "DNS:other.test").release();
    untrusted_ = make_identity("caveman-untrusted", "IP:127.0.0.1").release();
    dir_ = new testing::TempDir();
    std::string path = dir_->path() + "/trusted.pem";
    FILE* f = std::fopen(path.c_str(), "w");
    PEM_write_X509(f, trusted_->cert);
    PEM_write_X509(f, other_name_->cert);
    std::fclose(f);
    ::setenv("SSL_CERT_FILE", path.c_str(), 1);
  }
  static void TearDownTestSuite() {
    delete trusted_;
    delete other_name_;
    delete untrusted_;
    delete dir_;
  }

  static ConnectionOptions options(int port) {
    ConnectionOptions o;
    o.host = "127.0.0.1";
    o.port = port;
    o.ip = "127.0.0.1";
    o.connect_timeout_ms = 3000;
    o.read_timeout_ms = 5000;
    o.write_timeout_ms = 5000;
    return o;
  }
  static std::unique_ptr<UpstreamConnection> connect(int port) {
    return make_upstream_connection("https://127.0.0.1:" + std::to_string(port), options(port));
  }
  static UpstreamRequest request(int port, std::string body) {
    UpstreamRequest r;
    r.origin = "https://127.0.0.1:" + std::to_string(port);
    r.host = "127.0.0.1";
    r.port = port;
    r.path = "/v1/messages";
    r.headers = {{"content-type", "application/json"}};
    r.body = std::make_shared<const std::string>(std::move(body));
    return r;
  }

  static Identity* trusted_;
  static Identity* other_name_;
  static Identity* untrusted_;
  static testing::TempDir* dir_;
};
Identity* TlsConnectionTest::trusted_ = nullptr;
Identity* TlsConnectionTest::other_name_ = nullptr;
Identity* TlsConnectionTest::untrusted_ = nullptr;
testing::TempDir* TlsConnectionTest::dir_ = nullptr;

TEST_F(TlsConnectionTest, ExactBytesBothWaysAndKeepAliveInsideTls) {
  const std::string big(3 * 1024 * 1024 + 17, 'x');  // larger than any socket buffer
  TlsUpstream up(*trusted_, [&](int i) {
    std::string body = i == 0 ? std::string("{\"ok\":true}") : big;
    return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " +
           std::to_string(body.size()) + "\r\n\r\n" + body;
  });
  auto c = connect(up.port());
  std::string got;
  std::optional<UpstreamHead> head;
  auto on_head = [&](const UpstreamHead& h) {
    head = h;
    return true;
  };
  auto on_data = [&](std::string_view d) {
    got.append(d);
    return true;
  };
  AttemptOutcome first = c->send(request(up.port(), "{\"q\":1}"), on_head, on_data);
  ASSERT_TRUE(first.ok()) << first.detail;
  EXPECT_EQ(head->status, 200);
  EXPECT_EQ(got, "{\"ok\":true}");
  std::string port = std::to_string(up.port());
  EXPECT_EQ(up.last_request(), "POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:" + port +
                                   "\r\ncontent-type: application/json\r\nContent-Length: 7\r\n\r\n{\"q\":1}");
  ASSERT_TRUE(c->reusable());
  got.clear();
  AttemptOutcome second = c->send(request(up.port(), big), on_head, on_data);
  ASSERT_TRUE(second.ok()) << second.detail;
  EXPECT_EQ(got.size(), big.size());
  EXPECT_TRUE(got == big);
  EXPECT_EQ(up.last_request().size() - up.last_request().find("\r\n\r\n") - 4, big.size());
  EXPECT_EQ(up.connections(), 1);
}

TEST_F(TlsConnectionTest, UntrustedCertificateIsRefused) {
  TlsUpstream up(*untrusted_, [](int) { return std::string("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"); });
  auto c = connect(up.port());
  bool head = false;
  AttemptOutcome out = c->send(request(up.port(), "{}"), [&](const UpstreamHead&) { return head = true; },
                               [](std::string_view) { return true; });
  EXPECT_EQ(out.error, TransportError::kTls);
  EXPECT_NE(out.detail.find("self-signed certificate"), std::string::npos) << out.detail;
  EXPECT_FALSE(head);
}

TEST_F(TlsConnectionTest, CertificateForAnotherNameIsRefused) {
  TlsUpstream up(*other_name_, [](int) { return std::string("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"); });
  auto c = connect(up.port());
  AttemptOutcome out = c->send(request(up.port(), "{}"), [](const UpstreamHead&) { return true; },
                               [](std::string_view) { return true; });
  EXPECT_EQ(out.error, TransportError::kTls);
  EXPECT_EQ(out.detail, "the certificate does not name 127.0.0.1");
}

TEST_F(TlsConnectionTest, PlainHttpOnTheTlsPortIsAConnectFailureNotACertificateOne) {
  int port = 0;
  int listener = testing::listen_on_loopback(4, &port);
  std::thread server([&] {
    int fd = ::accept(listener, nullptr, nullptr);
    char buf[512];
    (void)::read(fd, buf, sizeof buf);  // the ClientHello
    const char* answer = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n";
    (void)::write(fd, answer, std::strlen(answer));
    ::close(fd);
  });
  auto c = connect(port);
  AttemptOutcome out = c->send(request(port, "{}"), [](const UpstreamHead&) { return true; },
                               [](std::string_view) { return true; });
  server.join();
  ::close(listener);
  EXPECT_EQ(out.error, TransportError::kConnect) << out.detail;
}

}  // namespace
}  // namespace caveman::proxy
