#include "cdp_message.h"

#include <gtest/gtest.h>

#include <string>

namespace caveman::browse {
namespace {

TEST(NulFramerTest, SplitsMessagesAcrossAndWithinChunks) {
  NulFramer f;
  ASSERT_TRUE(f.feed("{\"id\":1}").ok());
  EXPECT_FALSE(f.next().has_value());
  ASSERT_TRUE(f.feed(std::string("\0{\"a\"", 5)).ok());
  EXPECT_EQ(f.next().value(), "{\"id\":1}");
  EXPECT_FALSE(f.next().has_value());
  ASSERT_TRUE(f.feed(std::string(":2}\0{}\0", 7)).ok());
  EXPECT_EQ(f.next().value(), "{\"a\":2}");
  EXPECT_EQ(f.next().value(), "{}");
  EXPECT_FALSE(f.next().has_value());
  EXPECT_EQ(f.pending_bytes(), 0u);
}

TEST(NulFramerTest, AnUnterminatedMessageOverTheCapIsAnError) {
  NulFramer f(16);
  EXPECT_TRUE(f.feed(std::string(16, 'x')).ok());
  Status s = f.feed("y");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.error_code(), "cave_browser_unavailable");
  NulFramer g(16);
  EXPECT_TRUE(g.feed(std::string(20, 'x') + std::string(1, '\0')).ok());  // terminated: fine
  EXPECT_EQ(g.next()->size(), 20u);
}

TEST(NulFramerTest, ManySmallMessagesDoNotAccumulate) {
  NulFramer f;
  std::string msg(1000, 'm');
  msg.push_back('\0');
  for (int i = 0; i < 5000; ++i) {
    ASSERT_TRUE(f.feed(msg).ok());
    ASSERT_TRUE(f.next().has_value());
  }
  EXPECT_EQ(f.pending_bytes(), 0u);
}

TEST(CdpMessageTest, ReplyKeepsTheExactResultBytes) {
  std::string raw = R"({"id":7,"result":{"nodes":[{"nodeId":"1","name":{"value":"a \"}\" ]"}}]},"sessionId":"S1"})";
  Result<CdpMessage> m = parse_cdp_message(raw);
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(*m->id, 7);
  EXPECT_EQ(m->session_id, "S1");
  EXPECT_FALSE(m->is_error);
  EXPECT_EQ(m->result(), R"({"nodes":[{"nodeId":"1","name":{"value":"a \"}\" ]"}}]})");
  EXPECT_TRUE(m->method.empty());
}

TEST(CdpMessageTest, EventsAndErrors) {
  Result<CdpMessage> e = parse_cdp_message(
      R"( { "method" : "Page.javascriptDialogOpening", "params" : {"type":"alert","message":"hi"} } )");
  ASSERT_TRUE(e.ok());
  EXPECT_FALSE(e->id.has_value());
  EXPECT_EQ(e->method, "Page.javascriptDialogOpening");
  EXPECT_EQ(e->params(), R"({"type":"alert","message":"hi"})");

  Result<CdpMessage> err = parse_cdp_message(
      R"({"id":3,"error":{"code":-32000,"message":"No node with given id found","data":"x"}})");
  ASSERT_TRUE(err.ok());
  EXPECT_TRUE(err->is_error);
  EXPECT_EQ(err->error_code, -32000);
  EXPECT_EQ(err->error_message, "No node with given id found (x)");
}

TEST(CdpMessageTest, MalformedMessagesAreProtocolErrors) {
  for (const char* bad : {"", "[]", "{", "{\"id\":}", "{\"id\":\"7\"}", "{\"method\":3}", "{\"result\":{]}",
                          "{\"id\":1 \"x\":2}", "{\"a\":\"unterminated}"}) {
    Result<CdpMessage> m = parse_cdp_message(bad);
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_EQ(m.status().error_code(), "cave_browser_protocol") << bad;
  }
  EXPECT_TRUE(parse_cdp_message("{}").ok());
}

TEST(CdpMessageTest, ValueLength) {
  EXPECT_EQ(json_value_length("\"a\\\"b\",", 0), 6u);
  EXPECT_EQ(json_value_length("[1,{\"x\":[2]}] ", 0), 13u);
  EXPECT_EQ(json_value_length("-1.5e3,", 0), 6u);
  EXPECT_EQ(json_value_length("true}", 0), 4u);
  EXPECT_FALSE(json_value_length("[1,2", 0).has_value());
  EXPECT_FALSE(json_value_length("{]", 0).has_value());
  EXPECT_FALSE(json_value_length(",", 0).has_value());
  // Deep nesting is counted, not recursed.
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  EXPECT_EQ(json_value_length(deep, 0), deep.size());
}

}  // namespace
}  // namespace caveman::browse
