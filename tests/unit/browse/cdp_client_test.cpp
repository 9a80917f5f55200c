#include "cdp_client.h"

#include <gtest/gtest.h>

#include <deque>
#include <fcntl.h>
#include <unistd.h>

namespace caveman::browse {
namespace {

// Replies to each command with the scripted messages queued for it.
class FakeTransport final : public Transport {
 public:
  struct Shared {
    std::vector<std::string> sent;
    std::deque<std::string> incoming;  // delivered in order, one per receive()
    bool gone = false;                 // after incoming runs out: EOF instead of timeout
  };
  explicit FakeTransport(std::shared_ptr<Shared> s) : s_(std::move(s)) {}
  Status send(std::string_view m, Clock::time_point) override {
    if (s_->gone && s_->incoming.empty()) return Status::Unavailable("cave_browser_unavailable", "gone");
    s_->sent.emplace_back(m);
    return Status::Ok();
  }
  Result<std::string> receive(Clock::time_point) override {
    if (s_->incoming.empty()) {
      if (s_->gone) return Status::Unavailable("cave_browser_unavailable", "pipe closed");
      return timeout_status("nothing");
    }
    std::string m = std::move(s_->incoming.front());
    s_->incoming.pop_front();
    return m;
  }

 private:
  std::shared_ptr<Shared> s_;
};

Clock::time_point soon() { return Clock::now() + std::chrono::seconds(1); }

TEST(CdpClientTest, CallSkipsEventsAndStaleRepliesAndHooksEvents) {
  auto s = std::make_shared<FakeTransport::Shared>();
  s->incoming = {R"({"method":"Page.lifecycleEvent","params":{"name":"load"},"sessionId":"S"})",
                 R"({"id":99,"result":{"late":true}})", "not json at all",
                 R"({"id":1,"result":{"frameId":"F"},"sessionId":"S"})"};
  CdpClient c(std::make_unique<FakeTransport>(s));
  std::vector<std::string> hooked;
  c.set_event_hook([&](const CdpMessage& e) { hooked.push_back(e.method); });
  Result<Json> r = c.call_json("Page.navigate", Json{{"url", "about:blank"}}, "S", soon());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ((*r)["frameId"], "F");
  ASSERT_EQ(s->sent.size(), 1u);
  EXPECT_EQ(s->sent[0], R"({"id":1,"method":"Page.navigate","params":{"url":"about:blank"},"sessionId":"S"})");
  EXPECT_EQ(hooked, std::vector<std::string>{"Page.lifecycleEvent"});
  // The queued event is still there for wait_event.
  Result<CdpMessage> e = c.wait_event([](const CdpMessage& m) { return m.method == "Page.lifecycleEvent"; }, soon());
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->params(), R"({"name":"load"})");
}

TEST(CdpClientTest, ErrorsTimeoutsAndBrokenConnections) {
  auto s = std::make_shared<FakeTransport::Shared>();
  s->incoming = {R"({"id":1,"error":{"code":-32000,"message":"No node with given id found"}})"};
  CdpClient c(std::make_unique<FakeTransport>(s));
  Result<CdpMessage> err = c.call("DOM.resolveNode", Json{{"backendNodeId", 5}}, "S", soon());
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.status().error_code(), "cave_browser_cdp_error");
  EXPECT_NE(err.status().message().find("No node with given id found"), std::string::npos);

  Result<CdpMessage> slow = c.call("Accessibility.getFullAXTree", Json::object(), "S", soon());
  ASSERT_FALSE(slow.ok());
  EXPECT_TRUE(is_timeout(slow.status()));
  EXPECT_FALSE(c.broken());  // a time-out leaves the connection usable

  s->gone = true;
  Result<CdpMessage> dead = c.call("Runtime.evaluate", Json::object(), "S", soon());
  ASSERT_FALSE(dead.ok());
  EXPECT_EQ(dead.status().error_code(), "cave_browser_unavailable");
  EXPECT_TRUE(c.broken());
  EXPECT_FALSE(c.call("Page.enable", Json::object(), "S", soon()).ok());
}

TEST(CdpClientTest, HookMaySendWhileACallWaits) {
  // The way dialogs are answered: the hook sends a command in the middle of a call.
  auto s = std::make_shared<FakeTransport::Shared>();
  s->incoming = {R"({"method":"Page.javascriptDialogOpening","params":{"type":"alert"},"sessionId":"S"})",
                 R"({"id":2,"result":{}})", R"({"id":1,"result":{"result":{"type":"undefined"}}})"};
  CdpClient c(std::make_unique<FakeTransport>(s));
  c.set_event_hook([&](const CdpMessage& e) {
    if (e.method == "Page.javascriptDialogOpening") {
      (void)c.send_only("Page.handleJavaScriptDialog", Json{{"accept", true}}, e.session_id);
    }
  });
  ASSERT_TRUE(c.call("Runtime.evaluate", Json{{"expression", "alert(1)"}}, "S", soon()).ok());
  ASSERT_EQ(s->sent.size(), 2u);
  EXPECT_NE(s->sent[1].find("Page.handleJavaScriptDialog"), std::string::npos);
}

TEST(PipeTransportTest, NulFramedMessagesBothWays) {
  int to_browser[2], from_browser[2];
  ASSERT_EQ(::pipe(to_browser), 0);
  ASSERT_EQ(::pipe(from_browser), 0);
  PipeTransport t(to_browser[1], from_browser[0]);
  ASSERT_TRUE(t.send("{\"id\":1}", soon()).ok());
  char buf[32] = {};
  ASSERT_EQ(::read(to_browser[0], buf, sizeof buf), 9);
  EXPECT_EQ(std::string(buf, 9), std::string("{\"id\":1}\0", 9));
  std::string two("{\"a\":1}\0{\"b\":2}\0", 16);
  ASSERT_EQ(::write(from_browser[1], two.data(), two.size()), 16);
  EXPECT_EQ(t.receive(soon()).value(), "{\"a\":1}");
  EXPECT_EQ(t.receive(soon()).value(), "{\"b\":2}");
  Result<std::string> none = t.receive(Clock::now() + std::chrono::milliseconds(20));
  EXPECT_TRUE(is_timeout(none.status()));
  ::close(from_browser[1]);
  Result<std::string> eof = t.receive(soon());
  ASSERT_FALSE(eof.ok());
  EXPECT_EQ(eof.status().error_code(), "cave_browser_unavailable");
  ::close(to_browser[0]);
}

}  // namespace
}  // namespace caveman::browse
