// The adapter's contract with cpp-httplib (http_adapter.h lists it). Each test pins one
// thing the request path relies on; an httplib upgrade that changes it fails here first.
#include "http_adapter.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace caveman::proxy {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

using Handler = std::function<void(ProxyRequest&, ProxyResponse&)>;

// An httplib server whose every request goes through the adapter, like ProxyServer's.
class AdapterServer {
 public:
  explicit AdapterServer(Handler h) : handler_(std::move(h)) {
    auto route = [this](const httplib::Request& req, httplib::Response& res) {
      raw_headers_ = req.headers;
      ProxyRequest in = read_request(req);
      ProxyResponse out;
      handler_(in, out);
      write_response(std::move(out), res);
    };
    server_.Get(".*", route);
    server_.Post(".*", route);
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // stop() before the loop runs would be lost and join() would wait forever.
    while (!server_.is_running()) std::this_thread::yield();
  }
  ~AdapterServer() {
    server_.stop();
    thread_.join();
  }
  httplib::Client client() const {
    httplib::Client c("127.0.0.1", port_);
    c.set_decompress(false);  // see the bytes as sent
    c.set_read_timeout(10, 0);
    return c;
  }
  httplib::Headers raw_headers_;  // what httplib handed the handler (last request)

 private:
  Handler handler_;
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

TEST(HttpAdapter, RequestFieldsHeadersAndPeer) {
  ProxyRequest seen;
  AdapterServer s([&](ProxyRequest& in, ProxyResponse& out) {
    seen = in;
    out.status = 200;
  });
  httplib::Headers h = {{"X-Api-Key", "k"}, {"x-cave-agent", "a1"}};
  auto r = s.client().Post("/v1/messages?beta=true", h, "{\"a\":1}", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(seen.method, "POST");
  EXPECT_EQ(seen.target, "/v1/messages?beta=true");
  EXPECT_EQ(seen.path, "/v1/messages");
  EXPECT_EQ(seen.body, "{\"a\":1}");
  // Names are looked up case-insensitively; httplib's peer pseudo headers are dropped...
  EXPECT_EQ(find_header(seen.headers, "x-api-key").value_or(""), "k");
  EXPECT_FALSE(find_header(seen.headers, "REMOTE_ADDR"));
  EXPECT_FALSE(find_header(seen.headers, "LOCAL_PORT"));
  // ...because httplib still adds them (ClientWatch needs the peer fields too).
  EXPECT_EQ(s.raw_headers_.count("REMOTE_ADDR"), 1u);
  EXPECT_EQ(s.raw_headers_.count("remote_port"), 1u);  // the multimap is case-insensitive
  EXPECT_EQ(seen.peer.remote_addr, "127.0.0.1");
  EXPECT_GT(seen.peer.remote_port, 0);
  EXPECT_GT(seen.peer.local_port, 0);
  // Headers iterate sorted by name, case-insensitively: the inbound order the proxy maps.
  for (std::size_t i = 1; i < seen.headers.size(); ++i) {
    EXPECT_LE(lower(seen.headers[i - 1].first), lower(seen.headers[i].first));
  }
}

TEST(HttpAdapter, MultipartBodyReachesTheHandlerEmpty) {
  std::string body = "unset";
  AdapterServer s([&](ProxyRequest& in, ProxyResponse& out) {
    body = in.body;
    out.status = 200;
  });
  httplib::MultipartFormDataItems items = {{"file", "abc", "a.txt", "text/plain"}};
  auto r = s.client().Post("/v1/files", items);
  ASSERT_TRUE(r);
  EXPECT_EQ(body, "");  // httplib parsed it into req.files; the proxy relays `body`
}

TEST(HttpAdapter, AcceptEncodingAndRangeDoNotReachTheResponse) {
  std::string json(4096, 'x');
  json = "{\"k\":\"" + json + "\"}";
  std::string seen_encoding;
  AdapterServer s([&](ProxyRequest& in, ProxyResponse& out) {
    seen_encoding = find_header(in.headers, "accept-encoding").value_or("");
    out.status = 200;
    out.set_content(json, "application/json");
  });
  httplib::Headers h = {{"Accept-Encoding", "gzip, br"}, {"Range", "bytes=0-9"}};
  auto r = s.client().Get("/x", h);
  ASSERT_TRUE(r);
  EXPECT_EQ(seen_encoding, "gzip, br");  // the request path still sees what the client sent
  EXPECT_EQ(r->status, 200);
  EXPECT_FALSE(r->has_header("Content-Encoding"));
  EXPECT_EQ(r->body, json);
}

// The control for the test above: left alone, httplib compresses for a client that accepts
// gzip. If an upgrade stops doing so, neutralize() may go.
TEST(HttpAdapter, HttplibAloneGzipsForAClientThatAcceptsIt) {
  httplib::Server server;
  server.Get(".*", [](const httplib::Request&, httplib::Response& res) {
    res.set_content("{\"k\":\"" + std::string(4096, 'x') + "\"}", "application/json");
  });
  int port = server.bind_to_any_port("127.0.0.1");
  std::thread t([&] { server.listen_after_bind(); });
  while (!server.is_running()) std::this_thread::yield();
  httplib::Client c("127.0.0.1", port);
  c.set_decompress(false);
  auto r = c.Get("/x", httplib::Headers{{"Accept-Encoding", "gzip"}});
  server.stop();
  t.join();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Content-Encoding"), "gzip");
}

TEST(HttpAdapter, HeadersKeepOrderAndRepeats) {
  AdapterServer s([&](ProxyRequest&, ProxyResponse& out) {
    out.status = 201;
    out.set_header("x-b", "1");
    out.set_header("x-a", "2");
    out.set_header("x-b", "3");
    out.set_content("hi", "text/plain");
  });
  auto r = s.client().Get("/x");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 201);
  EXPECT_EQ(r->get_header_value_count("x-b"), 2u);
  EXPECT_EQ(r->get_header_value("x-b", 0), "1");
  EXPECT_EQ(r->get_header_value("x-b", 1), "3");
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/plain");
  EXPECT_EQ(r->body, "hi");
}

TEST(HttpAdapter, SizedProviderSendsContentLengthAndReportsDone) {
  std::atomic<int> done{-1};
  AdapterServer s([&](ProxyRequest&, ProxyResponse& out) {
    out.status = 200;
    out.set_content_provider(
        6, "application/json",
        [](std::size_t offset, std::size_t, BodySink& sink) { return sink.write(offset == 0 ? "abc" : "def", 3); },
        [&](bool ok) { done = ok ? 1 : 0; });
  });
  auto r = s.client().Get("/x");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Content-Length"), "6");
  EXPECT_EQ(r->body, "abcdef");
  for (int i = 0; i < 200 && done.load() < 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(done.load(), 1);
}

// SSE depends on this: a chunk written by the provider reaches the client before the
// provider is called again, and done() ends the chunked body cleanly.
TEST(HttpAdapter, ChunkedProviderStreamsEachWrite) {
  std::mutex mu;
  std::condition_variable cv;
  bool first_seen = false;
  AdapterServer s([&](ProxyRequest&, ProxyResponse& out) {
    out.status = 200;
    out.set_chunked_content_provider(
        "text/event-stream",
        [&](std::size_t offset, BodySink& sink) {
          if (offset == 0) return sink.write("data: 1\n\n", 9);
          std::unique_lock<std::mutex> lock(mu);
          if (!cv.wait_for(lock, std::chrono::seconds(5), [&] { return first_seen; })) return false;
          if (!sink.is_writable() || !sink.write("data: 2\n\n", 9)) return false;
          sink.done();
          return true;
        },
        [](bool) {});
  });
  std::string got;
  auto r = s.client().Get("/x", [&](const char* data, std::size_t n) {
    got.append(data, n);
    std::lock_guard<std::mutex> lock(mu);
    first_seen = true;
    cv.notify_all();
    return true;
  });
  ASSERT_TRUE(r);
  EXPECT_EQ(r->get_header_value("Transfer-Encoding"), "chunked");
  EXPECT_EQ(got, "data: 1\n\ndata: 2\n\n");
}

// The server's error handler tells the handler's responses from httplib's own by this.
TEST(HttpAdapter, HandlerHeadersAreOnTheResponseTheErrorHandlerSees) {
  httplib::Response res;
  ProxyResponse out;
  out.status = 502;
  out.set_header("x-cave-request-id", "r1");
  write_response(std::move(out), res);
  EXPECT_TRUE(res.has_header("x-cave-request-id"));
  EXPECT_EQ(res.status, 502);
}

}  // namespace
}  // namespace caveman::proxy
