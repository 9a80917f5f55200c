// Upstream connections: the client's head parsing, chunked decoding at every split, and
// plain-text connections on a real socket against a scripted upstream that answers with
// exact bytes (framings, interim answers, early close, silence, stop). TLS and the
// outbound proxy's CONNECT tunnel: e2e_proxy_tls_upstream.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "support/test_support.h"
#include "upstream_connection.h"

namespace caveman::proxy {
namespace {

using namespace std::chrono_literals;

TEST(ParseResponseHead, ReadsStatusHeadersAndFraming) {
  auto h = parse_response_head(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length:  42 \r\n"
      "X-Request-Id: abc\r\n\r\n");
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_EQ(h->status, 200);
  EXPECT_FALSE(h->chunked);
  EXPECT_EQ(h->content_length, 42u);
  EXPECT_FALSE(h->connection_close);
  ASSERT_EQ(h->headers.size(), 3u);  // in wire order, values trimmed
  EXPECT_EQ(h->headers[1], (std::pair<std::string, std::string>("Content-Length", "42")));
  EXPECT_EQ(h->headers[2].first, "X-Request-Id");
}

TEST(ParseResponseHead, ChunkedWinsOverLengthAndConnectionRulesApply) {
  auto chunked = parse_response_head(
      "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: gzip, chunked\r\n\r\n");
  ASSERT_TRUE(chunked.ok());
  EXPECT_TRUE(chunked->chunked);
  EXPECT_FALSE(chunked->content_length.has_value());

  auto close = parse_response_head("HTTP/1.1 503 Busy\r\nConnection: keep-alive, Close\r\n\r\n");
  ASSERT_TRUE(close.ok());
  EXPECT_TRUE(close->connection_close);
  auto old = parse_response_head("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n");
  ASSERT_TRUE(old.ok());
  EXPECT_TRUE(old->connection_close);  // HTTP/1.0 closes unless it says keep-alive
  auto old_kept = parse_response_head("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\n\r\n");
  ASSERT_TRUE(old_kept.ok());
  EXPECT_FALSE(old_kept->connection_close);
  auto no_reason = parse_response_head("HTTP/1.1 204\r\n\r\n");
  ASSERT_TRUE(no_reason.ok());
  EXPECT_EQ(no_reason->status, 204);
}

TEST(ParseResponseHead, MalformedHeadsAreErrors) {
  for (const char* bad : {"HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "ICY 200 OK\r\n\r\n",
                          "HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n",
                          "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
                          "HTTP/1.1 200 OK\r\nContent-Length: 4\r\nContent-Length: 5\r\n\r\n",
                          "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
                          "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n"}) {
    auto h = parse_response_head(bad);
    EXPECT_FALSE(h.ok()) << bad;
    if (!h.ok()) EXPECT_EQ(h.status().error_code(), "cave_upstream_bad_response");
  }
}

TEST(ChunkedDecoder, DecodesAtEverySplitAndStopsAfterTheLastChunk) {
  const std::string wire =
      "4\r\nWiki\r\n5;name=value\r\npedia\r\nE\r\n in\r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\n";
  const std::string after = "HTTP/1.1 200 OK\r\n";  // a next response must not be eaten
  for (std::size_t split = 0; split <= wire.size(); ++split) {
    ChunkedDecoder d;
    std::string out;
    bool aborted = false;
    auto sink = [&](std::string_view s) {
      out.append(s);
      return true;
    };
    std::string first = wire.substr(0, split);
    auto used = d.feed(first, sink, &aborted);
    ASSERT_TRUE(used.ok()) << split;
    EXPECT_EQ(*used, first.size());
    std::string second = wire.substr(split) + after;
    used = d.feed(second, sink, &aborted);
    ASSERT_TRUE(used.ok()) << split;
    EXPECT_EQ(*used, wire.size() - split) << split;
    EXPECT_TRUE(d.done());
    EXPECT_EQ(out, "Wikipedia in\r\n\r\nchunks.") << split;
  }
  // Byte by byte, too.
  ChunkedDecoder d;
  std::string out;
  bool aborted = false;
  for (char c : wire) {
    ASSERT_TRUE(d.feed(std::string_view(&c, 1), [&](std::string_view s) { out.append(s); return true; }, &aborted).ok());
  }
  EXPECT_TRUE(d.done());
  EXPECT_EQ(out, "Wikipedia in\r\n\r\nchunks.");
}

TEST(ChunkedDecoder, BadFramingIsAnErrorAndARefusingSinkStops) {
  bool aborted = false;
  auto keep = [](std::string_view) { return true; };
  for (const char* bad : {"x\r\n", "4\r\nWikiXX\r\n", "\r\n", "12345678901234567\r\n"}) {
    ChunkedDecoder d;
    EXPECT_FALSE(d.feed(bad, keep, &aborted).ok()) << bad;
  }
  ChunkedDecoder d;
  auto used = d.feed("4\r\nWiki\r\n0\r\n\r\n", [](std::string_view) { return false; }, &aborted);
  ASSERT_TRUE(used.ok());
  EXPECT_TRUE(aborted);
  EXPECT_FALSE(d.done());
}

// A scripted upstream: accepts connections, reads whole requests (head + Content-Length
// body) and lets the test's handler answer with raw bytes.
class ScriptedUpstream {
 public:
  // Called per request with the connection's fd, the request index on that connection and
  // the raw request; return false to close the connection.
  using Handler = std::function<bool(int fd, int index, const std::string& request)>;

  explicit ScriptedUpstream(Handler handler) : handler_(std::move(handler)) {
    listen_fd_ = testing::listen_on_loopback(16, &port_);
    EXPECT_GE(listen_fd_, 0);
    thread_ = std::thread([this] { run(); });
  }
  ~ScriptedUpstream() {
    stop_.store(true);
    thread_.join();
    ::close(listen_fd_);
  }
  int port() const { return port_; }
  int accepted() const { return accepted_.load(); }
  std::vector<std::string> requests() {
    std::lock_guard<std::mutex> lock(mu_);
    return requests_;
  }

 private:
  void run() {
    while (!stop_.load()) {
      pollfd p{listen_fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      int fd = ::accept(listen_fd_, nullptr, nullptr);
      if (fd < 0) continue;
      ++accepted_;
      serve(fd);
      ::close(fd);
    }
  }
  void serve(int fd) {
    std::string in;
    for (int index = 0; !stop_.load(); ++index) {
      std::size_t head_end;
      while ((head_end = in.find("\r\n\r\n")) == std::string::npos) {
        if (!read_some(fd, &in)) return;
      }
      std::size_t length = 0;
      std::size_t at = in.find("Content-Length: ");
      if (at != std::string::npos && at < head_end) length = std::stoul(in.substr(at + 16));
      while (in.size() < head_end + 4 + length) {
        if (!read_some(fd, &in)) return;
      }
      std::string request = in.substr(0, head_end + 4 + length);
      in.erase(0, request.size());
      {
        std::lock_guard<std::mutex> lock(mu_);
        requests_.push_back(request);
      }
      if (!handler_(fd, index, request)) return;
    }
  }
  bool read_some(int fd, std::string* in) {
    while (!stop_.load()) {
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      char buf[4096];
      ssize_t n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) return false;
      in->append(buf, static_cast<std::size_t>(n));
      return true;
    }
    return false;
  }

  Handler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::mutex mu_;
  std::vector<std::string> requests_;
};

void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n <= 0) return;
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

ConnectionOptions options_for(int port, std::int64_t read_timeout_ms = 5000) {
  ConnectionOptions o;
  o.host = "127.0.0.1";
  o.port = port;
  o.ip = "127.0.0.1";
  o.connect_timeout_ms = 2000;
  o.read_timeout_ms = read_timeout_ms;
  o.write_timeout_ms = 2000;
  return o;
}

std::unique_ptr<UpstreamConnection> plain_connection(const ConnectionOptions& o) {
  return make_upstream_connection("http://127.0.0.1:" + std::to_string(o.port), o);
}

UpstreamRequest request_for(int port, std::string body) {
  UpstreamRequest r;
  r.origin = "http://127.0.0.1:" + std::to_string(port);
  r.host = "127.0.0.1";
  r.port = port;
  r.path = "/v1/messages?beta=true";
  r.headers = {{"x-api-key", "sk-test"}, {"content-type", "application/json"}};
  r.body = std::make_shared<const std::string>(std::move(body));
  return r;
}

struct Received {
  std::optional<UpstreamHead> head;
  std::string body;
  std::vector<std::string> pieces;
  HeadFn on_head() {
    return [this](const UpstreamHead& h) {
      head = h;
      return true;
    };
  }
  DataFn on_data() {
    return [this](std::string_view d) {
      body.append(d);
      pieces.emplace_back(d);
      return true;
    };
  }
};

TEST(PlainConnection, SendsOneExactRequestAndReusesTheConnection) {
  ScriptedUpstream up([](int fd, int index, const std::string&) {
    write_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{\"n\":" +
                      std::to_string(index) + "   }");
    return true;
  });
  auto c = plain_connection(options_for(up.port()));
  for (int i = 0; i < 2; ++i) {
    Received got;
    AttemptOutcome out = c->send(request_for(up.port(), "{\"x\":1}"), got.on_head(), got.on_data());
    ASSERT_TRUE(out.ok()) << out.detail;
    ASSERT_TRUE(got.head);
    EXPECT_EQ(got.head->status, 200);
    EXPECT_EQ(got.head->content_length, 10u);
    EXPECT_EQ(got.head->content_type, "application/json");
    EXPECT_EQ(got.body, "{\"n\":" + std::to_string(i) + "   }");
    EXPECT_TRUE(c->reusable());
  }
  EXPECT_EQ(up.accepted(), 1);
  ASSERT_EQ(up.requests().size(), 2u);
  EXPECT_EQ(up.requests()[0], "POST /v1/messages?beta=true HTTP/1.1\r\nHost: 127.0.0.1:" +
                                  std::to_string(up.port()) +
                                  "\r\nx-api-key: sk-test\r\ncontent-type: application/json\r\n"
                                  "Content-Length: 7\r\n\r\n{\"x\":1}");
}

TEST(PlainConnection, ChunkedBodiesArriveAsTheyAreSentAndInterimAnswersAreSkipped) {
  std::atomic<bool> first_seen{false};
  ScriptedUpstream up([&](int fd, int, const std::string&) {
    write_all(fd, "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                  "Transfer-Encoding: chunked\r\n\r\n7\r\ndata: 1\r\n");
    // The second chunk waits until the client has seen the first: streaming, not buffering.
    for (int i = 0; i < 200 && !first_seen.load(); ++i) std::this_thread::sleep_for(10ms);
    write_all(fd, "7\r\ndata: 2\r\n0\r\n\r\n");
    return true;
  });
  auto c = plain_connection(options_for(up.port()));
  Received got;
  AttemptOutcome out = c->send(request_for(up.port(), "{}"), got.on_head(), [&](std::string_view d) {
    first_seen.store(true);
    got.body.append(d);
    got.pieces.emplace_back(d);
    return true;
  });
  ASSERT_TRUE(out.ok()) << out.detail;
  EXPECT_EQ(got.head->status, 200);
  EXPECT_FALSE(got.head->content_length.has_value());
  EXPECT_EQ(got.body, "data: 1data: 2");
  EXPECT_GE(got.pieces.size(), 2u);
  EXPECT_EQ(got.pieces.front(), "data: 1");
  EXPECT_TRUE(c->reusable());
}

TEST(PlainConnection, ABodyEndingAtCloseIsCompleteButTheConnectionIsNotKept) {
  ScriptedUpstream up([](int fd, int, const std::string&) {
    write_all(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end");
    return false;
  });
  auto c = plain_connection(options_for(up.port()));
  Received got;
  AttemptOutcome out = c->send(request_for(up.port(), "{}"), got.on_head(), got.on_data());
  ASSERT_TRUE(out.ok()) << out.detail;
  EXPECT_EQ(got.body, "until the end");
  EXPECT_FALSE(c->reusable());
}

TEST(PlainConnection, ConnectionCloseAndNoBodyStatusesAreHonoured) {
  ScriptedUpstream up([](int fd, int, const std::string&) {
    write_all(fd, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n");
    return false;
  });
  auto c = plain_connection(options_for(up.port()));
  Received got;
  AttemptOutcome out = c->send(request_for(up.port(), "{}"), got.on_head(), got.on_data());
  ASSERT_TRUE(out.ok()) << out.detail;
  EXPECT_EQ(got.head->status, 204);
  EXPECT_TRUE(got.body.empty());
  EXPECT_FALSE(c->reusable());
}

TEST(PlainConnection, EarlyCloseTruncationAndGarbageAreFailures) {
  {
    ScriptedUpstream up([](int, int, const std::string&) { return false; });  // closes unanswered
    auto c = plain_connection(options_for(up.port()));
    Received got;
    AttemptOutcome out = c->send(request_for(up.port(), "{}"), got.on_head(), got.on_data());
    EXPECT_EQ(out.error, TransportError::kRead) << out.detail;
    EXPECT_FALSE(got.head);
  }
  {
    ScriptedUpstream up([](int fd, int, const std::string&) {
      write_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf!");
      return false;
    });
    auto c = plain_connection(options_for(up.port()));
    Received got;
    AttemptOutcome out = c->send(request_for(up.port(), "{}"), got.on_head(), got.on_data());
    EXPECT_EQ(out.error, TransportError::kRead) << out.detail;
    EXPECT_TRUE(got.head);
    EXPECT_EQ(got.body, "half!");
    EXPECT_FALSE(c->reusable());
  }
  {
    ScriptedUpstream up([](int fd, int, const std::string&) {
      write_all(fd, "SSH-2.0-OpenSSH_9.2\r\n\r\n");
      return false;
    });
    auto c = plain_connection(options_for(up.port()));
    Received got;
    EXPECT_EQ(c->send(request_for(up.port(), "{}"), got.on_head(), got.on_data()).error,
              TransportError::kProtocol);
  }
}

TEST(PlainConnection, ARefusedConnectionIsAConnectFailure) {
  int port = 0;
  {
    ScriptedUpstream up([](int, int, const std::string&) { return false; });
    port = up.port();
  }  // closed: nothing listens there now
  auto c = plain_connection(options_for(port));
  Received got;
  EXPECT_EQ(c->send(request_for(port, "{}"), got.on_head(), got.on_data()).error,
            TransportError::kConnect);
}

TEST(PlainConnection, ASilentUpstreamTimesOutAndStopWakesABlockedRead) {
  std::atomic<bool> release{false};
  ScriptedUpstream up([&](int, int, const std::string&) {
    for (int i = 0; i < 300 && !release.load(); ++i) std::this_thread::sleep_for(10ms);
    return false;
  });
  {
    auto c = plain_connection(options_for(up.port(), 200));
    Received got;
    auto started = std::chrono::steady_clock::now();
    AttemptOutcome out = c->send(request_for(up.port(), "{}"), got.on_head(), got.on_data());
    EXPECT_EQ(out.error, TransportError::kReadTimeout) << out.detail;
    EXPECT_GE(std::chrono::steady_clock::now() - started, 190ms);
  }
  release.store(true);
  std::this_thread::sleep_for(50ms);
  release.store(false);
  {
    auto c = plain_connection(options_for(up.port(), 60000));
    std::thread stopper([&] {
      std::this_thread::sleep_for(150ms);
      c->stop();
    });
    Received got;
    auto started = std::chrono::steady_clock::now();
    AttemptOutcome out = c->send(request_for(up.port(), "{}"), got.on_head(), got.on_data());
    stopper.join();
    EXPECT_EQ(out.error, TransportError::kAborted) << out.detail;
    EXPECT_LT(std::chrono::steady_clock::now() - started, 2s);
    EXPECT_FALSE(c->reusable());
  }
  release.store(true);
}

TEST(PlainConnection, ALargeBodyIsSentAndReceivedWhole) {
  const std::string big(3 * 1024 * 1024 + 17, 'q');
  ScriptedUpstream up([&](int fd, int, const std::string& request) {
    std::string echo = request.substr(request.find("\r\n\r\n") + 4);
    write_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(echo.size()) + "\r\n\r\n" + echo);
    return true;
  });
  auto c = plain_connection(options_for(up.port()));
  Received got;
  AttemptOutcome out = c->send(request_for(up.port(), big), got.on_head(), got.on_data());
  ASSERT_TRUE(out.ok()) << out.detail;
  EXPECT_EQ(got.body.size(), big.size());
  EXPECT_TRUE(got.body == big);
}

}  // namespace
}  // namespace caveman::proxy
