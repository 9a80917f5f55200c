// The last stages (exchange.cpp): reply buffers a non-streaming answer on the worker and
// relays a stream chunk by chunk; send retries a refused transformed body with the
// client's own bytes; the row is recorded once both parties are done.
#include "exchange.h"

#include <gtest/gtest.h>

#include "exchange_fixture.h"

namespace caveman::proxy {
namespace {

using ExchangeReply = ExchangeFixture;

const char* kSmall = R"({"model":"claude-mock","max_tokens":10,"messages":[{"role":"user","content":"hi"}]})";

TEST_F(ExchangeReply, BufferedAnswerIsTheProvidersBytesWithCaveHeaders) {
  init();
  std::string answer = "{ \"id\" : \"msg_1\" }  ";
  stub_.answer([&](const httplib::Request&, httplib::Response& res) {
    res.status = 201;
    res.set_header("request-id", "req_up");
    res.set_content(answer, "application/json");
  });
  auto x = through(request("/v1/messages", kSmall), "transform");
  ProxyResponse res;
  x->reply(res);
  EXPECT_EQ(res.status, 201);
  EXPECT_EQ(res.header("request-id"), "req_up");
  EXPECT_EQ(res.header("x-cave-request-id"), x->request_id);
  EXPECT_EQ(res.header("x-cave-optimization"), "none");
  ASSERT_EQ(res.body_kind, ProxyResponse::Body::kSized);
  EXPECT_EQ(res.content_length, answer.size());
  EXPECT_EQ(res.content_type, "application/json");
  StringSink sink;
  ASSERT_TRUE(res.sized(0, answer.size(), sink));
  EXPECT_EQ(sink.bytes, answer);
  EXPECT_EQ(rt_.metrics.inflight(), 1);  // until the client side is done
  res.done(true);
  EXPECT_EQ(rt_.metrics.inflight(), 0);
  EXPECT_EQ(stub_.bodies(), std::vector<std::string>{kSmall});
}

TEST_F(ExchangeReply, AStreamIsRelayedChunkedAndEndsCleanly) {
  init();
  std::string sse = "event: message_start\ndata: {}\n\nevent: message_stop\ndata: {}\n\n";
  stub_.answer([&](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("text/event-stream", [&](std::size_t, httplib::DataSink& sink) {
      sink.write(sse.data(), sse.size());
      sink.done();
      return true;
    });
  });
  auto x = through(request("/v1/messages", R"({"model":"m","stream":true,"messages":[]})"), "transform");
  ProxyResponse res;
  x->reply(res);
  EXPECT_EQ(res.status, 200);
  ASSERT_EQ(res.body_kind, ProxyResponse::Body::kChunked);
  EXPECT_EQ(res.content_type, "text/event-stream");
  StringSink sink;
  for (std::size_t offset = 0; !sink.ended;) {
    ASSERT_TRUE(res.chunked(offset, sink));
    offset = sink.bytes.size();
  }
  EXPECT_EQ(sink.bytes, sse);
  res.done(true);
  rt_.relays.join_all();
  EXPECT_EQ(rt_.metrics.inflight(), 0);
}

TEST_F(ExchangeReply, ARefusedTransformedBodyIsSentAgainAsTheClientWroteIt) {
  init({{"CAVEMAN_MODE", "compress"}, {"CAVEMAN_RECOVERY", "mcp"}});
  stub_.answer([](const httplib::Request& req, httplib::Response& res) {
    bool original = req.body.find("disk quota exceeded") != std::string::npos &&
                    req.body.find("processed batch 300 ") != std::string::npos;
    res.status = original ? 200 : 400;
    res.set_content(original ? R"({"ok":true})" : R"({"error":"refused"})", "application/json");
  });
  auto x = through(request("/v1/messages", tool_result_body()), "transform");
  ASSERT_TRUE(x->transformed);
  ProxyResponse res;
  x->reply(res);
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.header("x-cave-optimization"), "none");  // the provider took the original
  EXPECT_FALSE(res.has_header("x-caveman-recovery-handle"));
  StringSink sink;
  ASSERT_TRUE(res.sized(0, res.content_length, sink));
  EXPECT_EQ(sink.bytes, R"({"ok":true})");
  std::vector<std::string> sent = stub_.bodies();
  ASSERT_EQ(sent.size(), 2u);
  EXPECT_EQ(sent[1], *x->raw_body);
  res.done(true);
}

TEST_F(ExchangeReply, AnUnreachableProviderGetsAnErrorEnvelope) {
  init({{"CAVE_UPSTREAM_TIMEOUT_MS", "2000"}});
  auto x = through(request("/v1/messages", kSmall), "transform");
  x->upstream.port = 1;  // nothing listens there
  ProxyResponse res;
  x->reply(res);
  EXPECT_GE(res.status, 500);
  EXPECT_EQ(res.body_kind, ProxyResponse::Body::kContent);
  EXPECT_NE(res.body.find(x->request_id), std::string::npos);
  EXPECT_EQ(rt_.metrics.inflight(), 0);
}

}  // namespace
}  // namespace caveman::proxy
