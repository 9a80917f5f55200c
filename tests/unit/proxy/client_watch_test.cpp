// ClientWatch on real loopback connections: finding a connection's socket by its address
// pair, cancelling after a hang-up (not before the grace period, not once unwatched).
#include "client_watch.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "support/test_support.h"

namespace caveman::proxy {
namespace {

using std::chrono::milliseconds;

int port_of(int fd) {
  sockaddr_in addr{};
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  return ntohs(addr.sin_port);
}

// A listener, one client connected to it, and the accepted server side.
struct Connection {
  int listener = -1;
  int client = -1;
  int accepted = -1;

  Connection() {
    int port = 0;
    listener = testing::listen_on_loopback(4, &port);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    client = ::socket(AF_INET, SOCK_STREAM, 0);
    ::connect(client, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    accepted = ::accept(listener, nullptr, nullptr);
  }
  ~Connection() {
    for (int fd : {listener, client, accepted}) {
      if (fd >= 0) ::close(fd);
    }
  }
  ClientPeer peer() const { return ClientPeer{"127.0.0.1", port_of(client), port_of(listener)}; }
  void hang_up() {
    ::close(client);
    client = -1;
  }
};

bool becomes_cancelled(const CancelToken& token, milliseconds within) {
  auto until = std::chrono::steady_clock::now() + within;
  while (std::chrono::steady_clock::now() < until) {
    if (token.cancelled()) return true;
    std::this_thread::sleep_for(milliseconds(5));
  }
  return token.cancelled();
}

TEST(ClientWatch, FindsTheSocketOfAConnectionByItsAddressPair) {
  Connection c;
  ASSERT_GE(c.accepted, 0);
  EXPECT_EQ(find_client_socket(c.peer()), c.accepted);
  ClientPeer other = c.peer();
  other.remote_port = other.remote_port == 1 ? 2 : 1;
  EXPECT_EQ(find_client_socket(other), -1);
  EXPECT_EQ(find_client_socket(ClientPeer{}), -1);
}

TEST(ClientWatch, AHangUpCancelsTheExchangeOnceTheGraceIsOver) {
  ClientWatch watch(milliseconds(100), milliseconds(20));
  Connection c;
  CancelToken token;
  ClientWatchScope scope(&watch, c.peer(), &token);
  EXPECT_FALSE(becomes_cancelled(token, milliseconds(250)));  // client still connected
  c.hang_up();
  EXPECT_TRUE(becomes_cancelled(token, milliseconds(2000)));
}

TEST(ClientWatch, NothingIsCancelledOnceUnwatched) {
  ClientWatch watch(milliseconds(0), milliseconds(20));
  Connection c;
  CancelToken token;
  { ClientWatchScope scope(&watch, c.peer(), &token); }
  c.hang_up();
  EXPECT_FALSE(becomes_cancelled(token, milliseconds(200)));
}

}  // namespace
}  // namespace caveman::proxy
