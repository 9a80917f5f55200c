// The one definition of loopback (docs/base.md). The proxy, caveman-mcp and caveman-browse each
// had their own and disagreed: browse accepted 127.999.0.1, caveman-mcp refused 127.0.0.2 and
// LOCALHOST and took an unbracketed "::1:80". These cases pin the chosen answer.
#include "caveman/base/net.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace caveman::base {
namespace {

TEST(LoopbackHost, AcceptsLocalhostAnyCaseIpv6AndAll127Slash8) {
  for (const char* h : {"localhost", "LOCALHOST", "LocalHost", "::1", "[::1]", "127.0.0.1",
                        "127.1.2.3", "127.255.255.255", "127.0.0.01"}) {
    EXPECT_TRUE(is_loopback_host(h)) << h;
  }
}

TEST(LoopbackHost, RefusesOctetsOutOfRangeAndLookalikes) {
  for (const char* h : {"", "127.999.0.1", "127.0.0.256", "127.0.0.1000", "127.0.0", "127.0.0.",
                        "127..0.1", "127.0.0.1.evil.com", "127.0.0.1 ", "127.0.0.x", "10.0.0.1",
                        "0.0.0.0", "localhost.com", "localhost.", "[::1", "::", "[::]",
                        "0:0:0:0:0:0:0:1", "128.0.0.1"}) {
    EXPECT_FALSE(is_loopback_host(h)) << h;
  }
}

TEST(ParseLoopbackListen, NormalisesHostAndKeepsPort) {
  struct Case {
    const char* listen;
    const char* host;
    int port;
  };
  for (const Case& c : {Case{"127.0.0.1:8787", "127.0.0.1", 8787},
                        Case{"LOCALHOST:1", "127.0.0.1", 1}, Case{"localhost:9999", "127.0.0.1", 9999},
                        Case{"[::1]:2", "::1", 2}, Case{"127.0.0.2:65535", "127.0.0.2", 65535},
                        Case{"127.0.0.1:0", "127.0.0.1", 0}}) {
    Result<ListenAddress> a = parse_loopback_listen(c.listen, "cave_x");
    ASSERT_OK(a.status());
    EXPECT_EQ(a->host, c.host) << c.listen;
    EXPECT_EQ(a->port, c.port) << c.listen;
  }
}

TEST(ParseLoopbackListen, MalformedAddressesCarryTheCallersCode) {
  for (const char* listen : {"", "8787", ":8787", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:99999",
                             "127.0.0.1:-1", "127.0.0.1:+80", "127.0.0.1:x", "127.0.0.1:123456",
                             "::1:80", "[::1:80", "[]:80"}) {
    Result<ListenAddress> a = parse_loopback_listen(listen, "cave_x");
    ASSERT_FALSE(a.ok()) << listen;
    EXPECT_EQ(a.status().error_code(), "cave_x") << listen;
    EXPECT_EQ(a.status().code(), Code::kInvalidArgument) << listen;
  }
}

TEST(ParseLoopbackListen, NonLoopbackHostsAreRefused) {
  for (const char* listen : {"0.0.0.0:8787", "192.168.1.5:8787", "example.com:80", "[::]:8787",
                             "127.999.0.1:80"}) {
    Result<ListenAddress> a = parse_loopback_listen(listen, "cave_x");
    ASSERT_FALSE(a.ok()) << listen;
    EXPECT_EQ(a.status().error_code(), "cave_listen_not_loopback") << listen;
  }
}

}  // namespace
}  // namespace caveman::base
