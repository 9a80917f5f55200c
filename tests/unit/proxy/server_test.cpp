// ProxyServer end to end inside one process: a cpp-httplib mock upstream, the real server
// on a loopback port, and an httplib client. Covers the relay rules that need a live
// socket: byte-exact record mode (JSON and chunked SSE), provider errors verbatim, error
// envelopes, SSRF, retries, the 4xx retry with the original bytes, bypass, client
// disconnect, graceful shutdown and the server-side retrieve loop.
#include "server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include <SQLiteCpp/Database.h>
#include <SQLiteCpp/Statement.h>

#include "caveman/ccr.h"
#include "stats.h"
#include "support/test_support.h"

namespace caveman::proxy {
namespace {

using Json = nlohmann::json;

struct Seen {
  std::string path;
  std::string body;
  httplib::Headers headers;
};

// A provider stand-in whose behaviour each test sets through `answer`.
class MockUpstream {
 public:
  using Answer = std::function<void(const httplib::Request&, httplib::Response&)>;

  MockUpstream() {
    server_.Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        seen_.push_back({req.path + (req.target.find('?') != std::string::npos
                                         ? req.target.substr(req.target.find('?'))
                                         : ""),
                         req.body, req.headers});
      }
      // The mock is an httplib server too: keep it from gzipping its own answers so the
      // test knows the exact bytes it sent.
      const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
      Answer a;
      {
        std::lock_guard<std::mutex> lock(mu_);
        a = answer_;
      }
      a(req, res);
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
  }
  ~MockUpstream() {
    server_.stop();
    thread_.join();
  }
  void answer(Answer a) {
    std::lock_guard<std::mutex> lock(mu_);
    answer_ = std::move(a);
  }
  std::vector<Seen> seen() {
    std::lock_guard<std::mutex> lock(mu_);
    return seen_;
  }
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  std::mutex mu_;
  std::vector<Seen> seen_;
  Answer answer_ = [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"ok":true})", "application/json");
  };
  int port_ = 0;
  std::thread thread_;
};

class ProxyServerTest : public ::testing::Test {
 protected:
  void start(std::map<std::string, std::string> env = {}, std::string yaml_extra = "") {
    std::string yaml = "providers:\n  anthropic:\n    base_url: " + mock_.url() +
                       "\n  openai:\n    base_url: " + mock_.url() + "\n  gemini:\n    base_url: " + mock_.url() +
                       "\n" + yaml_extra;
    env.emplace("CAVEMAN_LISTEN", "127.0.0.1:0");
    env.emplace("CAVE_SSRF_ALLOWLIST", "127.0.0.1");
    Result<Config> config = parse_config(yaml, map_env(env), dir_.path(), dir_.file("caveman.yaml"));
    ASSERT_OK(config);
    rt_.config = *config;
    rt_.config.shutdown_grace_ms = 5000;
    rt_.env = map_env(env);
    Result<std::unique_ptr<UsageWriter>> w = UsageWriter::start(rt_.config.db_path);
    ASSERT_OK(w);
    rt_.usage = std::move(w).value();
    if (rt_.config.mode == "compress") {
      Result<std::unique_ptr<ccr::Store>> store = ccr::open_store(dir_.file("ccr.db"));
      ASSERT_OK(store);
      rt_.store = std::shared_ptr<ccr::Store>(std::move(store).value());
      rt_.engine = std::make_unique<Engine>(rt_.store);
      Result<std::unique_ptr<SqlitePrefixCache>> cache = SqlitePrefixCache::open(rt_.config.db_path);
      ASSERT_OK(cache);
      rt_.prefix_cache = std::move(cache).value();
    }
    rt_.upstream = std::make_unique<UpstreamClient>(rt_.config);
    server_ = std::make_unique<ProxyServer>(&rt_);
    ASSERT_OK(server_->bind());
    serve_ = std::thread([this] { (void)server_->serve(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", server_->port());
    client_->set_read_timeout(20, 0);
  }

  void TearDown() override {
    if (server_) {
      server_->begin_shutdown();
      serve_.join();
    }
    if (rt_.usage) rt_.usage->stop();
  }

  // Rows of the finished requests. A streamed answer can reach the client before its relay
  // hands the row to the writer; a finished request's row is queued before it stops
  // counting as in flight, so wait for that first.
  std::vector<Json> rows() {
    for (int i = 0; i < 20000 && rt_.metrics.inflight() > 0; ++i) {  // ≤ 20 s safety net
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    rt_.usage->flush();
    Result<std::string> recent = stats_recent_json();
    return recent.ok() ? Json::parse(*recent).get<std::vector<Json>>() : std::vector<Json>{};
  }
  Result<std::string> stats_recent_json();
  // raw_request_sha256 and transformed_request_sha256 of the first row.
  std::pair<std::string, std::string> body_hashes() {
    SQLite::Database db(rt_.config.db_path);
    SQLite::Statement q(db, "SELECT raw_request_sha256, transformed_request_sha256 FROM requests "
                            "ORDER BY id LIMIT 1");
    if (!q.executeStep()) return {};
    return {q.getColumn(0).getString(), q.getColumn(1).getString()};
  }

  testing::TempDir dir_;
  MockUpstream mock_;
  ProxyRuntime rt_;
  std::unique_ptr<ProxyServer> server_;
  std::thread serve_;
  std::unique_ptr<httplib::Client> client_;
};

Result<std::string> ProxyServerTest::stats_recent_json() { return stats_recent(rt_.config.db_path, 100); }

std::string big_log() {
  std::string s;
  for (int i = 0; i < 400; ++i) {
    s += "2025-06-24 14:36:" + std::to_string(10 + i % 50) + " INFO worker-" + std::to_string(i % 7) +
         " processed batch " + std::to_string(i) + " in 12ms status=ok\n";
    if (i == 217) s += "2025-06-24 14:40:01 ERROR worker-3 batch 217 failed: disk quota exceeded\n";
  }
  return s;
}

std::string tool_result_body(bool stream) {
  Json body = {{"model", "claude-mock"},
               {"max_tokens", 10},
               {"stream", stream},
               {"messages", Json::array({{{"role", "user"},
                                          {"content", Json::array({{{"type", "tool_result"},
                                                                    {"tool_use_id", "t1"},
                                                                    {"content", big_log()}},
                                                                   {{"type", "text"}, {"text", "why did 217 fail?"}}})}}})}};
  return body.dump();
}

TEST_F(ProxyServerTest, RecordModeJsonIsByteExactBothWays) {
  start();
  std::string answer = "{ \"id\" : \"msg_1\",\n  \"usage\": {\"input_tokens\": 5, \"output_tokens\": 2} }  ";
  mock_.answer([&](const httplib::Request&, httplib::Response& res) {
    res.status = 200;
    res.set_header("request-id", "req_upstream");
    res.set_content(answer, "application/json");
  });
  std::string body = "{\"model\":\"m\",  \"messages\":[{\"role\":\"user\",\"content\":\"h\\u00e9llo\"}] }\n";
  httplib::Headers h = {{"x-api-key", "sk-ant-api-k"}, {"Cookie", "secret"}, {"Accept-Encoding", "gzip"}};
  httplib::Result r = client_->Post("/v1/messages?beta=true", h, body, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, answer);
  EXPECT_EQ(r->get_header_value("request-id"), "req_upstream");
  EXPECT_EQ(r->get_header_value("x-cave-mode"), "record");
  EXPECT_EQ(r->get_header_value("Content-Length"), std::to_string(answer.size()));
  EXPECT_FALSE(r->has_header("Content-Encoding"));  // never re-encoded for the client
  std::vector<Seen> seen = mock_.seen();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].body, body);
  EXPECT_EQ(seen[0].path, "/v1/messages?beta=true");
  EXPECT_EQ(seen[0].headers.find("Cookie"), seen[0].headers.end());
  EXPECT_EQ(seen[0].headers.find("x-api-key")->second, "sk-ant-api-k");
  EXPECT_EQ(seen[0].headers.find("Accept-Encoding")->second, "gzip");
  std::vector<Json> r0 = rows();
  ASSERT_EQ(r0.size(), 1u);
  EXPECT_EQ(r0[0]["input_tokens"], 5);
  EXPECT_EQ(r0[0]["output_tokens"], 2);
  EXPECT_EQ(r0[0]["status_code"], 200);
  // Hashed while the request waited for the provider: the hashes of the bytes sent.
  EXPECT_EQ(body_hashes(), std::make_pair(ccr::sha256_hex(body), ccr::sha256_hex(body)));
}

TEST_F(ProxyServerTest, NonStreamingRequestsAreAnsweredWithoutARelayThread) {
  start();
  std::string answer = R"({"id":"msg_1","usage":{"input_tokens":5,"output_tokens":2}})";
  mock_.answer([&](const httplib::Request&, httplib::Response& res) { res.set_content(answer, "application/json"); });
  httplib::Result plain = client_->Post("/v1/messages", R"({"model":"m","messages":[]})", "application/json");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->body, answer);
  EXPECT_EQ(rt_.relays.thread_count(), 0u);  // exchanged on the server worker itself
  httplib::Result streamed =
      client_->Post("/v1/messages", R"({"model":"m","stream":true,"messages":[]})", "application/json");
  ASSERT_TRUE(streamed);
  EXPECT_EQ(streamed->body, answer);
  EXPECT_EQ(rt_.relays.thread_count(), 1u);
  std::vector<Json> rs = rows();
  ASSERT_EQ(rs.size(), 2u);
  for (const Json& row : rs) EXPECT_EQ(row["input_tokens"], 5);
}

TEST_F(ProxyServerTest, ANonStreamingAnswerThatBreaksOffIsAnErrorNotATruncatedBody) {
  start();
  mock_.answer([](const httplib::Request&, httplib::Response& res) {
    res.set_content_provider(1000, "application/json", [](std::size_t, std::size_t, httplib::DataSink& sink) {
      sink.write("{\"id\":\"msg", 10);
      return false;  // the provider dies after 10 of 1,000 bytes
    });
  });
  httplib::Result r = client_->Post("/v1/messages", R"({"model":"m","messages":[]})", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 502);
  EXPECT_EQ(Json::parse(r->body)["error"]["code"], "cave_upstream_unavailable");
  std::vector<Json> rs = rows();
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0]["status_code"], 502);
  EXPECT_EQ(rs[0]["error_code"], "cave_upstream_unavailable");
}

TEST_F(ProxyServerTest, RecordModeSseIsRelayedChunkByChunk) {
  start();
  std::vector<std::string> events = {
      "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":9,\"output_tokens\":1}}}\n\n",
      "event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"Hi\"}}\n\n",
      "event: message_delta\ndata: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":4}}\n\n",
      "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n"};
  mock_.answer([&](const httplib::Request&, httplib::Response& res) {
    auto i = std::make_shared<std::size_t>(0);
    res.set_chunked_content_provider("text/event-stream; charset=utf-8", [&, i](std::size_t, httplib::DataSink& sink) {
      if (*i < events.size()) {
        sink.write(events[*i].data(), events[*i].size());
        ++*i;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      } else {
        sink.done();
      }
      return true;
    });
  });
  std::string got;
  std::vector<std::string> pieces;
  httplib::Request req;
  req.method = "POST";
  req.path = "/v1/messages";
  req.body = R"({"stream":true})";
  req.headers = {{"Content-Type", "application/json"}, {"Accept-Encoding", "gzip, br"}};
  req.content_receiver = [&](const char* d, std::size_t n, std::uint64_t, std::uint64_t) {
    pieces.emplace_back(d, n);
    got.append(d, n);
    return true;
  };
  httplib::Response res;
  httplib::Error err;
  ASSERT_TRUE(client_->send(req, res, err)) << httplib::to_string(err);
  std::string all;
  for (const auto& e : events) all += e;
  EXPECT_EQ(got, all);
  EXPECT_GE(pieces.size(), events.size());  // flushed per event, not buffered to the end
  EXPECT_EQ(res.get_header_value("Content-Type"), "text/event-stream; charset=utf-8");
  EXPECT_FALSE(res.has_header("Content-Encoding"));  // httplib must not gzip the relay
  std::vector<Json> r = rows();
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0]["stream"], 1);
  EXPECT_EQ(r[0]["input_tokens"], 9);
  EXPECT_EQ(r[0]["output_tokens"], 4);
}

TEST_F(ProxyServerTest, ProviderErrorsPassThroughVerbatim) {
  start();
  std::string err = R"({"type":"error","error":{"type":"rate_limit_error","message":"slow down"}})";
  mock_.answer([&](const httplib::Request&, httplib::Response& res) {
    res.status = 429;
    res.set_header("retry-after", "7");
    res.set_content(err, "application/json");
  });
  httplib::Result r = client_->Post("/v1/chat/completions", "{}", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 429);
  EXPECT_EQ(r->body, err);
  EXPECT_EQ(r->get_header_value("retry-after"), "7");
  std::vector<Json> rows0 = rows();
  ASSERT_EQ(rows0.size(), 1u);
  EXPECT_EQ(rows0[0]["error_code"], "provider_429");
}

TEST_F(ProxyServerTest, ErrorEnvelopesForRoutesSizeAndMethod) {
  start({{"CAVE_MAX_REQUEST_BYTES", "1000"}});
  httplib::Result nf = client_->Post("/v1/unknown", "{}", "application/json");
  ASSERT_TRUE(nf);
  EXPECT_EQ(nf->status, 404);
  Json j = Json::parse(nf->body);
  EXPECT_EQ(j["error"]["code"], "cave_route_not_found");
  EXPECT_EQ(j["error"]["type"], "cave_gateway_error");
  EXPECT_FALSE(j["error"]["request_id"].get<std::string>().empty());
  httplib::Result get = client_->Get("/v1/messages");
  ASSERT_TRUE(get);
  EXPECT_EQ(get->status, 404);
  httplib::Result big = client_->Post("/v1/messages", std::string(2000, 'x'), "application/json");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->status, 413);
  EXPECT_EQ(Json::parse(big->body)["error"]["code"], "cave_request_too_large");
  EXPECT_TRUE(mock_.seen().empty());
  httplib::Result live = client_->Get("/health/live");
  ASSERT_TRUE(live);
  Json h = Json::parse(live->body);
  EXPECT_EQ(h["ok"], true);
  EXPECT_EQ(h["schema"], "caveman.proxy.health.v1");
  httplib::Result metrics = client_->Get("/metrics");
  ASSERT_TRUE(metrics);
  EXPECT_EQ(metrics->get_header_value("Content-Type"), "text/plain; version=0.0.4");
  EXPECT_NE(metrics->body.find("cave_proxy_requests_total{provider=\"none\",status=\"404\"}"), std::string::npos);
}

TEST_F(ProxyServerTest, SsrfBlockedUpstreamIs502WithTheAllowlistHint) {
  start({{"CAVE_SSRF_ALLOWLIST", "10.9.9.9"}});
  httplib::Result r = client_->Post("/v1/messages", "{}", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 502);
  Json j = Json::parse(r->body);
  EXPECT_EQ(j["error"]["code"], "cave_upstream_blocked");
  EXPECT_NE(j["error"]["message"].get<std::string>().find("CAVE_SSRF_ALLOWLIST=127.0.0.1:" + std::to_string(mock_.port())),
            std::string::npos);
  EXPECT_TRUE(mock_.seen().empty());
}

// Accepts connections, drops the first `drops` right after reading, answers the rest.
// Reads headers and a Content-Length body, so closing never resets unread bytes.
void read_request(int c) {
  std::string buf;
  char tmp[4096];
  while (true) {
    std::size_t end = buf.find("\r\n\r\n");
    if (end != std::string::npos) {
      std::size_t cl = buf.find("Content-Length: ");
      std::size_t want = cl == std::string::npos ? 0 : std::stoul(buf.substr(cl + 16));
      if (buf.size() >= end + 4 + want) return;
    }
    ssize_t n = ::recv(c, tmp, sizeof tmp, 0);
    if (n <= 0) return;
    buf.append(tmp, static_cast<std::size_t>(n));
  }
}
constexpr const char* kOkClose =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}";
constexpr const char* kOkKeepAlive =
    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

void send_text(int c, std::string_view text) { (void)::send(c, text.data(), text.size(), MSG_NOSIGNAL); }

// A raw loopback upstream; each accepted connection is handed to `serve` on the accept thread.
class RawUpstream {
 public:
  using Serve = std::function<void(int fd, int nth)>;
  explicit RawUpstream(Serve serve) : serve_(std::move(serve)) {
    fd_ = testing::listen_on_loopback(16, &port_);
    thread_ = std::thread([this] {
      while (true) {
        int c = ::accept(fd_, nullptr, nullptr);
        if (c < 0) return;
        serve_(c, ++accepted_);
        ::close(c);
      }
    });
  }
  ~RawUpstream() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  int port() const { return port_; }
  int accepted() const { return accepted_.load(); }

 private:
  Serve serve_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<int> accepted_{0};
  std::thread thread_;
};

// Drops the first `drops` connections after reading their request, then answers.
class FlakyUpstream : public RawUpstream {
 public:
  explicit FlakyUpstream(int drops)
      : RawUpstream([drops](int c, int nth) {
          read_request(c);
          if (nth > drops) send_text(c, kOkClose);
        }) {}
};

TEST_F(ProxyServerTest, TransportFailuresAreRetriedThreeTimesThen502) {
  FlakyUpstream twice(2);
  start({}, "compat:\n  flaky:\n    base_url: http://127.0.0.1:" + std::to_string(twice.port()) + "\n");
  httplib::Result ok = client_->Post("/compat/flaky/v1/chat/completions", "{}", "application/json");
  ASSERT_TRUE(ok);
  EXPECT_EQ(ok->status, 200);
  EXPECT_EQ(twice.accepted(), 3);
}

TEST_F(ProxyServerTest, ThreeFailedAttemptsAre502) {
  FlakyUpstream always(1000);
  start({}, "compat:\n  dead:\n    base_url: http://127.0.0.1:" + std::to_string(always.port()) + "\n");
  httplib::Result r = client_->Post("/compat/dead/v1/chat/completions", "{}", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 502);
  EXPECT_EQ(Json::parse(r->body)["error"]["code"], "cave_upstream_unavailable");
  EXPECT_EQ(always.accepted(), 3);
  std::vector<Json> rs = rows();
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0]["status_code"], 502);
  EXPECT_EQ(rs[0]["provider"], "openai_compatible");
}

TEST_F(ProxyServerTest, AKeepAliveConnectionTheUpstreamClosedIsReplacedAtOnce) {
  // Each connection answers one request and keeps the connection open, then drops it on
  // the next request: what a server's idle timeout does when it fires as a request arrives.
  RawUpstream closing([](int c, int) {
    timeval wait{1, 0};  // the last connection is still pooled when the test ends
    ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    read_request(c);
    send_text(c, kOkKeepAlive);
    read_request(c);
  });
  start({}, "compat:\n  idle:\n    base_url: http://127.0.0.1:" + std::to_string(closing.port()) + "\n");
  httplib::Result first = client_->Post("/compat/idle/v1/chat/completions", "{}", "application/json");
  ASSERT_TRUE(first);
  EXPECT_EQ(first->status, 200);
  auto started = std::chrono::steady_clock::now();
  httplib::Result second = client_->Post("/compat/idle/v1/chat/completions", "{}", "application/json");
  auto took = std::chrono::steady_clock::now() - started;
  ASSERT_TRUE(second);
  EXPECT_EQ(second->status, 200);
  EXPECT_EQ(closing.accepted(), 2);
  // A stale pooled connection is not a failed attempt: no 200 ms back-off before the retry.
  EXPECT_LT(took, std::chrono::milliseconds(150));
}

TEST_F(ProxyServerTest, AClientThatLeavesBeforeTheAnswerCancelsTheUpstreamRequest) {
  std::atomic<int> upstream_saw_close{0};
  RawUpstream silent([&](int c, int) {
    read_request(c);
    pollfd p{c, POLLRDHUP, 0};
    if (::poll(&p, 1, 5000) > 0) ++upstream_saw_close;  // the proxy gave the request up
  });
  start({}, "compat:\n  slow:\n    base_url: http://127.0.0.1:" + std::to_string(silent.port()) + "\n");
  // Buffered (no stream) and relayed (stream) requests alike; the provider never answers.
  int round = 0;
  for (const char* body : {R"({"model":"m","messages":[]})", R"({"model":"m","stream":true,"messages":[]})"}) {
    SCOPED_TRACE(body);
    auto started = std::chrono::steady_clock::now();
    {
      httplib::Client c("127.0.0.1", server_->port());
      c.set_read_timeout(0, 300000);  // the client gives up after 0.3 s and hangs up
      EXPECT_FALSE(c.Post("/compat/slow/v1/chat/completions", body, "application/json"));
    }
    ++round;
    for (int i = 0; i < 500 && upstream_saw_close.load() < round; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    EXPECT_EQ(upstream_saw_close.load(), round);
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(3));
  }
  std::vector<Json> rs = rows();
  ASSERT_EQ(rs.size(), 2u);
  for (const Json& row : rs) EXPECT_EQ(row["error_code"], "cave_client_cancelled");
}

TEST_F(ProxyServerTest, CompressModeShrinksTheLiveToolResultAndKeepsOtherBytes) {
  start({{"CAVEMAN_MODE", "compress"}, {"CAVEMAN_RECOVERY", "mcp"}});
  std::string body = tool_result_body(true);
  httplib::Result r = client_->Post("/v1/messages", {{"x-api-key", "sk-ant-api-1"}}, body, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  std::vector<Seen> seen = mock_.seen();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_LT(seen[0].body.size(), body.size());
  EXPECT_NE(seen[0].body.find("<<ccr:ccr_"), std::string::npos);
  // Everything before the tool result's string literal is identical.
  std::size_t lit = body.find("\"content\":\"2025");
  ASSERT_NE(lit, std::string::npos);
  EXPECT_EQ(seen[0].body.substr(0, lit), body.substr(0, lit));
  EXPECT_FALSE(r->get_header_value("x-caveman-recovery-handle").empty());
  EXPECT_EQ(r->get_header_value("x-caveman-token-count-basis"), "estimated_engine_o200k");
  std::vector<Json> rs = rows();
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_GT(rs[0]["compression_tokens_before"].get<int>(), rs[0]["compression_tokens_after"].get<int>());
  std::string handle = rs[0]["recovery_handle"];
  Result<std::string> original = rt_.store->get(handle);
  ASSERT_OK(original);
  EXPECT_EQ(*original, big_log());
  EXPECT_EQ(body_hashes(), std::make_pair(ccr::sha256_hex(body), ccr::sha256_hex(seen[0].body)));
}

TEST_F(ProxyServerTest, RefusedTransformIsRetriedOnceWithTheOriginalBytes) {
  start({{"CAVEMAN_MODE", "compress"}, {"CAVEMAN_RECOVERY", "mcp"}});
  mock_.answer([](const httplib::Request& req, httplib::Response& res) {
    if (req.body.find("<<ccr:") != std::string::npos) {
      res.status = 400;
      res.set_content(R"({"error":"markers not welcome"})", "application/json");
      return;
    }
    res.set_content(R"({"ok":"original"})", "application/json");
  });
  std::string body = tool_result_body(false);
  httplib::Result r = client_->Post("/v1/messages", {{"x-api-key", "sk-ant-api-1"}}, body, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->body, R"({"ok":"original"})");
  EXPECT_FALSE(r->has_header("x-caveman-recovery-handle"));
  std::vector<Seen> seen = mock_.seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1].body, body);
}

TEST_F(ProxyServerTest, BypassHeaderAndMalformedJsonAreForwardedUntouched) {
  start({{"CAVEMAN_MODE", "compress"}, {"CAVEMAN_RECOVERY", "mcp"}});
  std::string body = tool_result_body(false);
  httplib::Result r = client_->Post("/v1/messages", {{"x-caveman-bypass", "1"}}, body, "application/json");
  ASSERT_TRUE(r);
  std::string malformed = body.substr(0, body.size() - 1);  // cut the closing brace
  httplib::Result m = client_->Post("/v1/messages", malformed, "application/json");
  ASSERT_TRUE(m);
  std::vector<Seen> seen = mock_.seen();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].body, body);
  EXPECT_EQ(seen[0].headers.count("x-caveman-bypass"), 0u);
  EXPECT_EQ(seen[1].body, malformed);
}

TEST_F(ProxyServerTest, ServerSideRetrieveLoopAnswersTheModelAndHidesTheTool) {
  start({{"CAVEMAN_MODE", "compress"}});
  mock_.answer([](const httplib::Request& req, httplib::Response& res) {
    Json body = Json::parse(req.body);
    const Json& last = body["messages"].back();
    bool has_retrieve_tool = false;
    for (const Json& t : body["tools"]) has_retrieve_tool |= t["name"] == "caveman_retrieve";
    if (!has_retrieve_tool) {
      res.status = 500;
      return;
    }
    if (last["role"] == "user" && last["content"][0]["type"] == "tool_result" &&
        last["content"][0]["tool_use_id"] == "tu_r") {
      std::string got = last["content"][0]["content"];
      Json done = {{"content", Json::array({{{"type", "text"}, {"text", "recovered " + std::to_string(got.size())}}})},
                   {"stop_reason", "end_turn"},
                   {"usage", {{"input_tokens", 50}, {"output_tokens", 3}}}};
      res.set_content(done.dump(), "application/json");
      return;
    }
    std::string text = last["content"][0]["content"];
    std::string handle = text.substr(text.rfind("<<ccr:") + 6, 36);
    Json call = {{"content", Json::array({{{"type", "tool_use"}, {"id", "tu_r"}, {"name", "caveman_retrieve"},
                                           {"input", {{"handle", handle}}}}})},
                 {"stop_reason", "tool_use"},
                 {"usage", {{"input_tokens", 20}, {"output_tokens", 1}}}};
    res.set_content(call.dump(), "application/json");
  });
  httplib::Result r = client_->Post("/v1/messages", {{"x-api-key", "sk-ant-api-1"}}, tool_result_body(false),
                                    "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  Json j = Json::parse(r->body);
  EXPECT_EQ(j["content"][0]["text"], "recovered " + std::to_string(big_log().size()));
  EXPECT_EQ(mock_.seen().size(), 2u);
  std::vector<Json> rs = rows();
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0]["input_tokens"], 70);
}

// An Anthropic request without cache_control is never cached and would pay for the injected
// tool on every turn: it gets the tool only once a marker is in the prompt. A request that
// may be cached gets it from the first turn, so its tool list never changes mid-session.
TEST_F(ProxyServerTest, RetrieveToolGoesIntoAnUncachedRequestOnlyWithAMarker) {
  start({{"CAVEMAN_MODE", "compress"}});
  std::vector<bool> had_tool;
  std::mutex mu;
  mock_.answer([&](const httplib::Request& req, httplib::Response& res) {
    Json body = Json::parse(req.body);
    bool has = false;
    for (const Json& t : body.value("tools", Json::array())) has |= t["name"] == "caveman_retrieve";
    std::lock_guard<std::mutex> lock(mu);
    had_tool.push_back(has);
    res.set_content(R"({"content":[{"type":"text","text":"hi"}],"stop_reason":"end_turn",)"
                    R"("usage":{"input_tokens":5,"output_tokens":1}})",
                    "application/json");
  });
  Json plain = {{"model", "claude-sonnet-4-6"}, {"max_tokens", 10},
                {"messages", Json::array({{{"role", "user"}, {"content", "hello"}}})}};
  Json cached = plain;
  cached["messages"][0]["content"] =
      Json::array({{{"type", "text"}, {"text", "hello"}, {"cache_control", {{"type", "ephemeral"}}}}});
  for (const Json& body : {plain, cached}) {
    httplib::Result r = client_->Post("/v1/messages", {{"x-api-key", "sk-ant-api-1"}}, body.dump(),
                                      "application/json");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
  }
  std::lock_guard<std::mutex> lock(mu);
  EXPECT_EQ(had_tool, (std::vector<bool>{false, true}));
}

TEST_F(ProxyServerTest, ClientDisconnectCancelsTheUpstreamStream) {
  start();
  std::atomic<bool> upstream_saw_cancel{false};
  std::atomic<int> sent{0};
  mock_.answer([&](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider(
        "text/event-stream",
        [&](std::size_t, httplib::DataSink& sink) {
          std::string ev = "data: {\"n\":" + std::to_string(sent.load()) + "}\n\n";
          if (!sink.write(ev.data(), ev.size())) return false;
          ++sent;
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
          return sent.load() < 100000;
        },
        [&](bool success) {
          if (!success) upstream_saw_cancel = true;
        });
  });
  httplib::Client c("127.0.0.1", server_->port());
  int received = 0;
  httplib::Request req;
  req.method = "POST";
  req.path = "/v1/chat/completions";
  req.body = R"({"stream":true})";
  req.content_receiver = [&](const char*, std::size_t, std::uint64_t, std::uint64_t) {
    return ++received < 3;  // hang up after a few events
  };
  httplib::Response res;
  httplib::Error err;
  c.send(req, res, err);
  c.stop();
  for (int i = 0; i < 500 && !upstream_saw_cancel.load(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(upstream_saw_cancel.load());
  EXPECT_LT(sent.load(), 1000);
  std::vector<Json> rs = rows();
  for (int i = 0; i < 100 && rs.empty(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    rs = rows();
  }
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0]["error_code"], "cave_client_cancelled");
}

TEST_F(ProxyServerTest, ShutdownLetsAStreamInFlightFinish) {
  start();
  mock_.answer([](const httplib::Request&, httplib::Response& res) {
    auto n = std::make_shared<int>(0);
    res.set_chunked_content_provider("text/event-stream", [n](std::size_t, httplib::DataSink& sink) {
      if (*n == 10) {
        sink.done();
        return true;
      }
      std::string ev = "data: " + std::to_string((*n)++) + "\n\n";
      sink.write(ev.data(), ev.size());
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      return true;
    });
  });
  std::string got;
  std::atomic<bool> first{false};
  std::thread reader([&] {
    httplib::Client c("127.0.0.1", server_->port());
    httplib::Request req;
    req.method = "POST";
    req.path = "/v1/chat/completions";
    req.body = "{}";
    req.content_receiver = [&](const char* d, std::size_t n, std::uint64_t, std::uint64_t) {
      got.append(d, n);
      first = true;
      return true;
    };
    httplib::Response res;
    httplib::Error err;
    c.send(req, res, err);
  });
  while (!first.load()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  server_->begin_shutdown();  // returns once the request in flight has finished
  serve_.join();
  reader.join();
  std::string want;
  for (int i = 0; i < 10; ++i) want += "data: " + std::to_string(i) + "\n\n";
  EXPECT_EQ(got, want);
  httplib::Client late("127.0.0.1", server_->port());
  late.set_connection_timeout(1, 0);
  EXPECT_FALSE(late.Get("/health/live"));  // nothing listens any more
  server_.reset();
}

}  // namespace
}  // namespace caveman::proxy
