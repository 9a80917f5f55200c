#include "ssrf.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "caveman/base/codes.h"
#include "caveman/base/text.h"

namespace caveman::proxy {
namespace {

AddressClass classify_v4(const std::array<std::uint8_t, 4>& a) {
  if (a[0] == 169 && a[1] == 254 && a[2] == 169 && a[3] == 254) return AddressClass::kMetadata;
  if (a[0] == 127) return AddressClass::kLoopback;
  if (a[0] == 0) return AddressClass::kUnspecified;
  if (a[0] == 10) return AddressClass::kPrivate;
  if (a[0] == 172 && (a[1] & 0xF0) == 16) return AddressClass::kPrivate;
  if (a[0] == 192 && a[1] == 168) return AddressClass::kPrivate;
  if (a[0] == 100 && (a[1] & 0xC0) == 64) return AddressClass::kPrivate;
  if (a[0] == 169 && a[1] == 254) return AddressClass::kLinkLocal;
  if (a[0] >= 224) return AddressClass::kMulticast;  // multicast, reserved, broadcast
  return AddressClass::kPublic;
}

}  // namespace

AddressClass classify_address(std::string_view ip) {
  if (ip.empty() || ip.find('%') != std::string_view::npos) return AddressClass::kInvalid;
  std::string text(ip);
  in_addr v4{};
  if (::inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    std::array<std::uint8_t, 4> a{};
    std::memcpy(a.data(), &v4.s_addr, 4);
    return classify_v4(a);
  }
  in6_addr v6{};
  if (::inet_pton(AF_INET6, text.c_str(), &v6) != 1) return AddressClass::kInvalid;
  const std::uint8_t* b = v6.s6_addr;
  bool zero10 = true;
  for (int i = 0; i < 10; ++i) zero10 = zero10 && b[i] == 0;
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible) carry an IPv4 address.
  if (zero10 && ((b[10] == 0xFF && b[11] == 0xFF) || (b[10] == 0 && b[11] == 0))) {
    bool high_zero = b[12] == 0 && b[13] == 0 && b[14] == 0;
    if (b[10] == 0 && high_zero && b[15] <= 1) {
      return b[15] == 1 ? AddressClass::kLoopback : AddressClass::kUnspecified;
    }
    return classify_v4({b[12], b[13], b[14], b[15]});
  }
  static constexpr std::uint8_t kEc2Metadata[16] = {0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0,
                                                    0,    0,    0,    0,    0, 0, 0x02, 0x54};
  if (std::memcmp(b, kEc2Metadata, 16) == 0) return AddressClass::kMetadata;
  if (b[0] == 0xFF) return AddressClass::kMulticast;
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) return AddressClass::kLinkLocal;
  if ((b[0] & 0xFE) == 0xFC) return AddressClass::kPrivate;
  // NAT64 (64:ff9b::/96) also embeds IPv4.
  if (b[0] == 0x00 && b[1] == 0x64 && b[2] == 0xFF && b[3] == 0x9B) {
    bool mid_zero = true;
    for (int i = 4; i < 12; ++i) mid_zero = mid_zero && b[i] == 0;
    if (mid_zero) return classify_v4({b[12], b[13], b[14], b[15]});
  }
  return AddressClass::kPublic;
}

std::string_view address_class_name(AddressClass c) {
  switch (c) {
    case AddressClass::kPublic: return "public";
    case AddressClass::kLoopback: return "loopback";
    case AddressClass::kPrivate: return "private";
    case AddressClass::kLinkLocal: return "link-local";
    case AddressClass::kMetadata: return "cloud metadata";
    case AddressClass::kUnspecified: return "unspecified";
    case AddressClass::kMulticast: return "multicast/reserved";
    case AddressClass::kInvalid: return "invalid";
  }
  return "invalid";
}

std::vector<AllowEntry> parse_allowlist(std::string_view list) { return parse_host_list(list, ","); }

bool is_allowlisted(const std::vector<AllowEntry>& allowlist, std::string_view host,
                    std::string_view ip, int port) {
  std::string h = base::ascii_lower(host);
  std::string i = base::ascii_lower(ip);
  for (const AllowEntry& e : allowlist) {
    if (e.port != 0 && e.port != port) continue;
    if (e.host == h || e.host == i) return true;
  }
  return false;
}

Resolver system_resolver() {
  return [](const std::string& host) -> Result<std::vector<std::string>> {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    int rc = ::getaddrinfo(host.c_str(), nullptr, &hints, &res);
    if (rc != 0 || res == nullptr) {
      return Status::Unavailable(codes::kUpstreamUnavailable, "cannot resolve upstream host " +
                                                                  host + ": " + ::gai_strerror(rc));
    }
    std::vector<std::string> out;
    for (addrinfo* p = res; p != nullptr; p = p->ai_next) {
      char buf[INET6_ADDRSTRLEN] = {};
      const void* addr = nullptr;
      if (p->ai_family == AF_INET) {
        addr = &reinterpret_cast<sockaddr_in*>(p->ai_addr)->sin_addr;
      } else if (p->ai_family == AF_INET6) {
        addr = &reinterpret_cast<sockaddr_in6*>(p->ai_addr)->sin6_addr;
      } else {
        continue;
      }
      if (::inet_ntop(p->ai_family, addr, buf, sizeof buf) == nullptr) continue;
      std::string s(buf);
      bool seen = false;
      for (const std::string& o : out) seen = seen || o == s;
      if (!seen) out.push_back(std::move(s));
    }
    ::freeaddrinfo(res);
    if (out.empty()) {
      return Status::Unavailable(codes::kUpstreamUnavailable,
                                 "upstream host " + host + " has no address");
    }
    return out;
  };
}

Result<std::string> guard_upstream(const std::string& host, int port,
                                   const std::vector<AllowEntry>& allowlist,
                                   const Resolver& resolver) {
  if (host.find('%') != std::string::npos) {
    return Status::Unavailable(
        codes::kUpstreamBlocked,
        "upstream " + host + " is a zoned address; zoned literals are never allowed");
  }
  std::vector<std::string> addresses;
  if (classify_address(host) != AddressClass::kInvalid) {
    addresses.push_back(host);  // an IP literal is checked as written, never resolved
  } else {
    CAVEMAN_ASSIGN_OR_RETURN(addresses, resolver(host));
  }
  std::string first_refusal;
  for (const std::string& ip : addresses) {
    AddressClass c = classify_address(ip);
    if (c == AddressClass::kPublic) return ip;
    if ((c == AddressClass::kLoopback || c == AddressClass::kPrivate) &&
        is_allowlisted(allowlist, host, ip, port)) {
      return ip;
    }
    if (!first_refusal.empty()) continue;
    std::string target = host + ":" + std::to_string(port);
    if (c == AddressClass::kLoopback || c == AddressClass::kPrivate) {
      first_refusal = "upstream " + target + " resolves to a " + std::string(address_class_name(c)) +
                      " address (" + ip +
                      "); caveman-proxy blocks loopback and private upstreams (SSRF guard). "
                      "To allow this upstream, set CAVE_SSRF_ALLOWLIST=" + host_port(host, port);
    } else {
      first_refusal = "upstream " + target + " resolves to a " +
                      std::string(address_class_name(c)) + " address (" + ip +
                      "); such upstreams are always blocked (SSRF guard), "
                      "CAVE_SSRF_ALLOWLIST cannot allow them";
    }
  }
  return Status::Unavailable(codes::kUpstreamBlocked, first_refusal);
}

}  // namespace caveman::proxy
