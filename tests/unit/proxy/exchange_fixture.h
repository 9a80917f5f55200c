// Shared by the request-path stage tests: a runtime whose providers all point at a local
// httplib stub, and requests built the way the adapter builds them.
#ifndef CAVEMAN_TESTS_UNIT_PROXY_EXCHANGE_FIXTURE_H_
#define CAVEMAN_TESTS_UNIT_PROXY_EXCHANGE_FIXTURE_H_

#include <gtest/gtest.h>
#include <httplib.h>

#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "caveman/ccr.h"
#include "exchange.h"
#include "support/test_support.h"

namespace caveman::proxy {

// A provider stand-in: records each body and answers with `answer`.
class UpstreamStub {
 public:
  using Answer = std::function<void(const httplib::Request&, httplib::Response&)>;
  UpstreamStub() {
    server_.Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
      Answer a;
      {
        std::lock_guard<std::mutex> lock(mu_);
        bodies_.push_back(req.body);
        a = answer_;
      }
      a(req, res);
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // stop() before the loop runs would be lost and join() would wait forever.
    while (!server_.is_running()) std::this_thread::yield();
  }
  ~UpstreamStub() {
    server_.stop();
    thread_.join();
  }
  void answer(Answer a) {
    std::lock_guard<std::mutex> lock(mu_);
    answer_ = std::move(a);
  }
  std::vector<std::string> bodies() {
    std::lock_guard<std::mutex> lock(mu_);
    return bodies_;
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  httplib::Server server_;
  std::mutex mu_;
  std::vector<std::string> bodies_;
  Answer answer_ = [](const httplib::Request&, httplib::Response& res) {
    res.set_content(R"({"content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":5,"output_tokens":1}})",
                    "application/json");
  };
  int port_ = 0;
  std::thread thread_;
};

// Collects what a body provider writes.
class StringSink final : public BodySink {
 public:
  bool write(const char* data, std::size_t n) override {
    bytes.append(data, n);
    return true;
  }
  bool is_writable() const override { return true; }
  void done() override { ended = true; }
  std::string bytes;
  bool ended = false;
};

class ExchangeFixture : public ::testing::Test {
 protected:
  void init(std::map<std::string, std::string> env = {}) {
    std::string yaml = "providers:\n  anthropic:\n    base_url: " + stub_.url() + "\n  openai:\n    base_url: " +
                       stub_.url() + "\n  gemini:\n    base_url: " + stub_.url() + "\n";
    env.emplace("CAVE_SSRF_ALLOWLIST", "127.0.0.1");
    Result<Config> config = parse_config(yaml, map_env(env), dir_.path(), dir_.file("caveman.yaml"));
    ASSERT_OK(config);
    rt_.config = *config;
    rt_.env = map_env(env);
    if (rt_.config.mode == "compress" || rt_.config.mode == "pixel") {
      Result<std::unique_ptr<ccr::Store>> store = ccr::open_store(dir_.file("ccr.db"));
      ASSERT_OK(store);
      rt_.store = std::shared_ptr<ccr::Store>(std::move(store).value());
      rt_.engine = std::make_unique<Engine>(rt_.store);
      Result<std::unique_ptr<SqlitePrefixCache>> cache = SqlitePrefixCache::open(rt_.config.db_path);
      ASSERT_OK(cache);
      rt_.prefix_cache = std::move(cache).value();
    }
    rt_.upstream = std::make_unique<UpstreamClient>(rt_.config);
  }

  void TearDown() override { rt_.relays.join_all(); }

  static ProxyRequest request(std::string target, std::string body, HeaderList headers = {{"x-api-key", "sk-ant-api-1"}}) {
    ProxyRequest req;
    req.method = "POST";
    req.target = target;
    req.path = target.substr(0, target.find('?'));
    req.headers = std::move(headers);
    req.body = std::move(body);
    return req;
  }

  // The stages up to (not including) the first one a test wants to look at.
  std::shared_ptr<Exchange> through(ProxyRequest req, const std::string& last) {
    auto x = Exchange::begin(&rt_, nullptr, req);
    ProxyResponse res;
    EXPECT_TRUE(x->route_request(req, res));
    x->strip_markers(std::move(req.body));
    x->open_row(req.path);
    EXPECT_TRUE(x->authenticate(res));
    if (last == "authenticate") return x;
    x->inspect();
    if (last == "inspect") return x;
    x->decide_mode();
    if (last == "decide_mode") return x;
    x->transform();
    return x;
  }

  static std::string big_log() {
    std::string s;
    for (int i = 0; i < 400; ++i) {
      s += "2025-06-24 14:36:" + std::to_string(10 + i % 50) + " INFO worker-" + std::to_string(i % 7) +
           " processed batch " + std::to_string(i) + " in 12ms status=ok\n";
      if (i == 217) s += "2025-06-24 14:40:01 ERROR worker-3 batch 217 failed: disk quota exceeded\n";
    }
    return s;
  }
  static std::string tool_result_body(bool stream = false) {
    using Json = nlohmann::json;
    Json tool = {{"type", "tool_result"}, {"tool_use_id", "t1"}, {"content", big_log()}};
    Json text = {{"type", "text"}, {"text", "why did 217 fail?"}, {"cache_control", {{"type", "ephemeral"}}}};
    Json body = {{"model", "claude-mock"},
                 {"max_tokens", 10},
                 {"stream", stream},
                 {"messages", Json::array({{{"role", "user"}, {"content", Json::array({tool, text})}}})}};
    return body.dump();
  }

  testing::TempDir dir_;
  UpstreamStub stub_;
  ProxyRuntime rt_;
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_TESTS_UNIT_PROXY_EXCHANGE_FIXTURE_H_
