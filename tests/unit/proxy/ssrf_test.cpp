#include "ssrf.h"

#include <gtest/gtest.h>

#include <map>

#include "support/test_support.h"

namespace caveman::proxy {
namespace {

Resolver fake_resolver(std::map<std::string, std::vector<std::string>> answers) {
  return [answers](const std::string& host) -> Result<std::vector<std::string>> {
    auto it = answers.find(host);
    if (it == answers.end()) return Status::Unavailable("cave_upstream_unavailable", "no such host");
    return it->second;
  };
}

TEST(ProxySsrf, ClassifiesAddresses) {
  struct Case {
    const char* ip;
    AddressClass c;
  } cases[] = {
      {"8.8.8.8", AddressClass::kPublic},
      {"127.0.0.1", AddressClass::kLoopback},
      {"127.255.0.9", AddressClass::kLoopback},
      {"10.1.2.3", AddressClass::kPrivate},
      {"172.16.0.1", AddressClass::kPrivate},
      {"172.31.255.255", AddressClass::kPrivate},
      {"172.32.0.1", AddressClass::kPublic},
      {"192.168.0.1", AddressClass::kPrivate},
      {"100.64.0.1", AddressClass::kPrivate},
      {"169.254.169.254", AddressClass::kMetadata},
      {"169.254.1.1", AddressClass::kLinkLocal},
      {"0.0.0.0", AddressClass::kUnspecified},
      {"224.0.0.1", AddressClass::kMulticast},
      {"255.255.255.255", AddressClass::kMulticast},
      {"::1", AddressClass::kLoopback},
      {"::", AddressClass::kUnspecified},
      {"::ffff:127.0.0.1", AddressClass::kLoopback},
      {"::ffff:169.254.169.254", AddressClass::kMetadata},
      {"::ffff:8.8.8.8", AddressClass::kPublic},
      {"64:ff9b::10.0.0.1", AddressClass::kPrivate},
      {"fe80::1", AddressClass::kLinkLocal},
      {"fe80::1%eth0", AddressClass::kInvalid},
      {"fd00:ec2::254", AddressClass::kMetadata},
      {"fd12::1", AddressClass::kPrivate},
      {"ff02::1", AddressClass::kMulticast},
      {"2606:4700::1111", AddressClass::kPublic},
      {"example.com", AddressClass::kInvalid},
  };
  for (const Case& k : cases) EXPECT_EQ(classify_address(k.ip), k.c) << k.ip;
}

TEST(ProxySsrf, AllowlistEntriesWithoutPortAllowEveryPort) {
  std::vector<AllowEntry> list = parse_allowlist(" 127.0.0.1 , localhost:11434,[::1]:80,bad:port, ,10.0.0.5:0");
  ASSERT_EQ(list.size(), 3u);
  EXPECT_TRUE(is_allowlisted(list, "127.0.0.1", "127.0.0.1", 1));
  EXPECT_TRUE(is_allowlisted(list, "127.0.0.1", "127.0.0.1", 65535));
  EXPECT_TRUE(is_allowlisted(list, "localhost", "127.0.0.2", 11434));
  EXPECT_FALSE(is_allowlisted(list, "localhost", "127.0.0.2", 11435));
  EXPECT_TRUE(is_allowlisted(list, "::1", "::1", 80));
  EXPECT_FALSE(is_allowlisted(list, "::1", "::1", 81));
  EXPECT_FALSE(is_allowlisted(list, "10.0.0.5", "10.0.0.5", 1));
  // An entry matches the host as written or the address it resolved to.
  EXPECT_TRUE(is_allowlisted(list, "my-box", "127.0.0.1", 8080));
}

TEST(ProxySsrf, GuardBlocksLoopbackAndPrivateWithAHint) {
  Resolver dns = fake_resolver({{"internal.corp", {"10.0.0.7"}}, {"api.example.com", {"93.184.216.34"}}});
  Result<std::string> blocked = guard_upstream("127.0.0.1", 18001, {}, dns);
  ASSERT_FALSE(blocked.ok());
  EXPECT_EQ(blocked.status().error_code(), "cave_upstream_blocked");
  EXPECT_NE(blocked.status().message().find("CAVE_SSRF_ALLOWLIST=127.0.0.1:18001"), std::string::npos)
      << blocked.status().message();
  Result<std::string> corp = guard_upstream("internal.corp", 443, {}, dns);
  EXPECT_EQ(corp.status().error_code(), "cave_upstream_blocked");
  EXPECT_NE(corp.status().message().find("CAVE_SSRF_ALLOWLIST=internal.corp:443"), std::string::npos);
  Result<std::string> pub = guard_upstream("api.example.com", 443, {}, dns);
  ASSERT_OK(pub);
  EXPECT_EQ(*pub, "93.184.216.34");
}

TEST(ProxySsrf, AllowlistReallowsLoopbackButNeverMetadata) {
  Resolver dns = fake_resolver({{"meta", {"169.254.169.254"}}, {"two", {"127.0.0.1", "8.8.4.4"}}});
  std::vector<AllowEntry> allow = parse_allowlist("127.0.0.1,169.254.169.254,meta,fe80::1");
  Result<std::string> ok = guard_upstream("127.0.0.1", 18001, allow, dns);
  ASSERT_OK(ok);
  EXPECT_EQ(*ok, "127.0.0.1");
  Result<std::string> meta = guard_upstream("169.254.169.254", 80, allow, dns);
  EXPECT_EQ(meta.status().error_code(), "cave_upstream_blocked");
  EXPECT_NE(meta.status().message().find("always blocked"), std::string::npos);
  EXPECT_FALSE(guard_upstream("meta", 80, allow, dns).ok());
  EXPECT_FALSE(guard_upstream("fe80::1", 80, allow, dns).ok());
  EXPECT_FALSE(guard_upstream("fe80::1%lo", 80, allow, dns).ok());
  // A name with a blocked and a public address dials the public one.
  Result<std::string> mixed = guard_upstream("two", 443, {}, dns);
  ASSERT_OK(mixed);
  EXPECT_EQ(*mixed, "8.8.4.4");
}

TEST(ProxySsrf, UnresolvableHostIsUnavailable) {
  Result<std::string> r = guard_upstream("nowhere.invalid", 443, {}, fake_resolver({}));
  EXPECT_EQ(r.status().error_code(), "cave_upstream_unavailable");
}

}  // namespace
}  // namespace caveman::proxy
