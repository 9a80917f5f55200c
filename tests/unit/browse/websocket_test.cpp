#include "websocket.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include "support/test_support.h"

namespace caveman::browse {
namespace {

std::string server_frame(std::uint8_t first_byte, std::string_view payload) {
  std::string f;
  f.push_back(static_cast<char>(first_byte));
  if (payload.size() < 126) {
    f.push_back(static_cast<char>(payload.size()));
  } else {
    f.push_back(126);
    f.push_back(static_cast<char>(payload.size() >> 8));
    f.push_back(static_cast<char>(payload.size() & 0xFF));
  }
  f.append(payload);
  return f;
}

TEST(WebSocketTest, AcceptKeyMatchesRfc6455Example) {
  EXPECT_EQ(websocket_accept("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(WebSocketTest, ClientFramesAreMaskedWithTheRightLengthEncoding) {
  std::array<std::uint8_t, 4> mask{1, 2, 3, 4};
  for (std::size_t n : {0u, 5u, 125u, 126u, 65535u, 65536u}) {
    std::string payload(n, 'a');
    std::string f = encode_ws_frame(WsOpcode::kText, payload, mask);
    EXPECT_EQ(static_cast<std::uint8_t>(f[0]), 0x81);
    auto b1 = static_cast<std::uint8_t>(f[1]);
    EXPECT_TRUE(b1 & 0x80) << "client frames must be masked";
    std::size_t header = n < 126 ? 2 : (n <= 0xFFFF ? 4 : 10);
    EXPECT_EQ(b1 & 0x7F, n < 126 ? n : (n <= 0xFFFF ? 126u : 127u));
    ASSERT_EQ(f.size(), header + 4 + n);
    // The decoder (which also accepts masked frames) gets the payload back.
    WsFrameDecoder d(1 << 20);
    d.feed(f);
    auto frame = d.next();
    ASSERT_TRUE(frame.ok());
    ASSERT_TRUE(frame->has_value());
    EXPECT_EQ((*frame)->payload, payload);
  }
}

TEST(WebSocketTest, DecoderWaitsForWholeFramesAndRejectsBadOnes) {
  WsFrameDecoder d(1 << 20);
  std::string f = server_frame(0x81, std::string(300, 'x'));
  d.feed(f.substr(0, 3));
  EXPECT_FALSE(d.next()->has_value());
  d.feed(f.substr(3));
  auto frame = d.next();
  ASSERT_TRUE(frame.ok() && frame->has_value());
  EXPECT_EQ((*frame)->payload.size(), 300u);
  EXPECT_TRUE((*frame)->fin);

  for (std::string bad : {server_frame(0xC1, "x"),               // RSV1 set
                          server_frame(0x83, "x"),               // reserved opcode
                          server_frame(0x09, "x"),               // fragmented ping
                          server_frame(0x89, std::string(126, 'p'))}) {  // control frame > 125
    WsFrameDecoder bad_decoder(1 << 20);
    bad_decoder.feed(bad);
    auto r = bad_decoder.next();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().error_code(), "cave_browser_protocol");
  }
  WsFrameDecoder small(10);
  small.feed(server_frame(0x81, std::string(11, 'x')));
  EXPECT_FALSE(small.next().ok());
}

TEST(WebSocketTest, EndpointsMustBeLoopbackWithAPort) {
  Result<Endpoint> e = parse_endpoint("ws://127.0.0.1:9222/devtools/browser/abc");
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(e->host, "127.0.0.1");
  EXPECT_EQ(e->port, 9222);
  EXPECT_EQ(e->path, "/devtools/browser/abc");
  Result<Endpoint> v6 = parse_endpoint("http://[::1]:9333");
  ASSERT_TRUE(v6.ok());
  EXPECT_EQ(v6->host, "::1");
  EXPECT_EQ(v6->path, "/");
  for (const char* bad : {"ws://example.com:9222/x", "http://10.0.0.1:1/", "ws://127.0.0.1/x", "wss://127.0.0.1:1/",
                          "http://127.0.0.1:99999/", "127.0.0.1:9222"}) {
    EXPECT_FALSE(parse_endpoint(bad).ok()) << bad;
  }
}

TEST(WebSocketTest, HandshakeRequestAndResponseChecks) {
  Endpoint e{"ws", "127.0.0.1", 9, "/devtools/page/1"};
  std::string req = handshake_request(e, "KEY");
  EXPECT_TRUE(req.starts_with("GET /devtools/page/1 HTTP/1.1\r\n"));
  EXPECT_NE(req.find("Host: 127.0.0.1:9\r\n"), std::string::npos);
  EXPECT_NE(req.find("Sec-WebSocket-Key: KEY\r\n"), std::string::npos);
  EXPECT_NE(req.find("Sec-WebSocket-Version: 13\r\n"), std::string::npos);
  EXPECT_TRUE(req.ends_with("\r\n\r\n"));
  std::string good = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nsec-websocket-accept: " +
                     websocket_accept("KEY") + "\r\n";
  EXPECT_TRUE(check_handshake_response(good, "KEY").ok());
  EXPECT_FALSE(check_handshake_response(good, "OTHER").ok());
  EXPECT_FALSE(check_handshake_response("HTTP/1.1 403 Forbidden\r\n", "KEY").ok());
}

// A one-connection WebSocket server on loopback that exercises the client transport:
// handshake, a ping (answered), a fragmented message, an echo, and a close.
TEST(WebSocketTest, TransportTalksToALoopbackServer) {
  int port = 0;
  int listener = testing::listen_on_loopback(1, &port);
  ASSERT_GE(listener, 0);

  std::string pong_payload, echoed;
  std::thread server([&] {
    int c = ::accept(listener, nullptr, nullptr);
    std::string in;
    char buf[4096];
    while (in.find("\r\n\r\n") == std::string::npos) {
      ssize_t n = ::read(c, buf, sizeof buf);
      if (n <= 0) return;
      in.append(buf, static_cast<std::size_t>(n));
    }
    std::size_t k = in.find("Sec-WebSocket-Key: ") + 19;
    std::string key = in.substr(k, in.find("\r\n", k) - k);
    std::string reply = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Accept: " + websocket_accept(key) + "\r\n\r\n";
    reply += server_frame(0x89, "are you there");  // ping
    reply += server_frame(0x01, "{\"id\":");        // text, not final
    reply += server_frame(0x80, "1}");              // continuation, final
    (void)!::write(c, reply.data(), reply.size());
    // Read the pong and the client's message (both masked) through the decoder.
    WsFrameDecoder d(1 << 20);
    while (echoed.empty()) {
      ssize_t n = ::read(c, buf, sizeof buf);
      if (n <= 0) break;
      d.feed(std::string_view(buf, static_cast<std::size_t>(n)));
      while (true) {
        auto f = d.next();
        if (!f.ok() || !f->has_value()) break;
        if ((*f)->opcode == WsOpcode::kPong) pong_payload = (*f)->payload;
        if ((*f)->opcode == WsOpcode::kText) echoed = (*f)->payload;
      }
    }
    std::string back = server_frame(0x81, echoed) + server_frame(0x88, "");
    (void)!::write(c, back.data(), back.size());
    ::usleep(100000);
    ::close(c);
  });

  auto deadline = Clock::now() + std::chrono::seconds(10);
  auto t = WebSocketTransport::connect("ws://127.0.0.1:" + std::to_string(port) + "/devtools/browser/x", deadline);
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  Result<std::string> first = (*t)->receive(deadline);
  ASSERT_TRUE(first.ok()) << first.status().ToString();
  EXPECT_EQ(*first, "{\"id\":1}");
  ASSERT_TRUE((*t)->send("{\"method\":\"x\"}", deadline).ok());
  Result<std::string> second = (*t)->receive(deadline);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(*second, "{\"method\":\"x\"}");
  Result<std::string> closed = (*t)->receive(deadline);
  EXPECT_FALSE(closed.ok());
  EXPECT_EQ(closed.status().error_code(), "cave_browser_unavailable");
  server.join();
  ::close(listener);
  EXPECT_EQ(pong_payload, "are you there");
}

TEST(WebSocketTest, ConnectingToAClosedPortFails) {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  socklen_t len = sizeof addr;
  ::getsockname(s, reinterpret_cast<sockaddr*>(&addr), &len);
  int port = ntohs(addr.sin_port);
  ::close(s);  // bound then closed: nothing listens there
  auto t = WebSocketTransport::connect("ws://127.0.0.1:" + std::to_string(port) + "/x",
                                       Clock::now() + std::chrono::seconds(5));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().error_code(), "cave_browser_unavailable");
}

}  // namespace
}  // namespace caveman::browse
