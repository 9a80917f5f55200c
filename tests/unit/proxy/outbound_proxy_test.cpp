#include "outbound_proxy.h"

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace caveman::proxy {
namespace {

OutboundProxy parsed(std::string_view value) {
  Result<std::optional<OutboundProxy>> p = parse_outbound_proxy(value);
  EXPECT_TRUE(p.ok()) << value << ": " << p.status().ToString();
  EXPECT_TRUE(p.ok() && p->has_value()) << value;
  return p.ok() && p->has_value() ? **p : OutboundProxy{};
}

TEST(OutboundProxy, ParsesTheUsualForms) {
  OutboundProxy a = parsed("http://proxy.corp:3128");
  EXPECT_EQ(a.host, "proxy.corp");
  EXPECT_EQ(a.port, 3128);
  EXPECT_TRUE(a.user.empty());
  OutboundProxy b = parsed("  10.0.0.7:8080/ ");  // no scheme, trailing slash, spaces
  EXPECT_EQ(b.host, "10.0.0.7");
  EXPECT_EQ(b.port, 8080);
  OutboundProxy c = parsed("HTTP://alice:s%40cret:x@[fd00::1]:3128");
  EXPECT_EQ(c.host, "fd00::1");
  EXPECT_EQ(c.user, "alice");
  EXPECT_EQ(c.password, "s@cret:x");
  EXPECT_EQ(c.display(), "http://[fd00::1]:3128");  // credentials never shown
  EXPECT_EQ(parsed("http://proxy.corp").port, 80);
}

TEST(OutboundProxy, EmptyIsNoProxy) {
  Result<std::optional<OutboundProxy>> p = parse_outbound_proxy("  ");
  ASSERT_OK(p);
  EXPECT_FALSE(p->has_value());
}

TEST(OutboundProxy, RefusesWhatCannotBeUsed) {
  for (std::string_view bad : {"https://proxy.corp:443", "socks5://127.0.0.1:1080", "http://",
                               "http://proxy.corp:0", "http://proxy.corp:99999", "http://proxy.corp:3128/path",
                               "http://pro xy:1"}) {
    Result<std::optional<OutboundProxy>> p = parse_outbound_proxy(bad);
    EXPECT_FALSE(p.ok()) << bad;
    if (!p.ok()) EXPECT_EQ(p.status().error_code(), "cave_invalid_config") << bad;
  }
}

TEST(NoProxy, NamesMatchThemselvesAndSubdomains) {
  NoProxy n("example.com, .corp.internal localhost,10.1.2.3 [::1]:8443,api.test:443");
  EXPECT_TRUE(n.matches("example.com", 443));
  EXPECT_TRUE(n.matches("API.Example.com", 443));
  EXPECT_FALSE(n.matches("notexample.com", 443));
  EXPECT_TRUE(n.matches("corp.internal", 443));
  EXPECT_TRUE(n.matches("llm.corp.internal", 443));
  EXPECT_TRUE(n.matches("localhost", 1234));
  EXPECT_TRUE(n.matches("10.1.2.3", 443));
  EXPECT_FALSE(n.matches("10.1.2.30", 443));
  EXPECT_TRUE(n.matches("::1", 8443));
  EXPECT_FALSE(n.matches("::1", 443));
  EXPECT_TRUE(n.matches("api.test", 443));
  EXPECT_FALSE(n.matches("api.test", 8443));
  EXPECT_FALSE(n.matches("api.anthropic.com", 443));
  // An entry whose port is not a port names nothing (it does not widen to every port).
  EXPECT_FALSE(NoProxy("api.test:https, .").matches("api.test", 443));
}

TEST(NoProxy, StarMatchesEverythingAndEmptyMatchesNothing) {
  EXPECT_TRUE(NoProxy("*").matches("api.anthropic.com", 443));
  EXPECT_FALSE(NoProxy("").matches("api.anthropic.com", 443));
  EXPECT_FALSE(NoProxy(" , ,").matches("api.anthropic.com", 443));
}

}  // namespace
}  // namespace caveman::proxy
