// SSRF guard for upstream connections (docs/spec/proxy.md#ssrf).
//
// Every upstream host is resolved by the proxy itself, each address is classified, and the
// connection is then made to the checked address (never re-resolved by the HTTP client), so
// DNS cannot change the answer between the check and the dial. Loopback and private
// targets are refused unless CAVE_SSRF_ALLOWLIST names them (host, host:port or IP; an
// entry without a port allows every port); link-local, cloud-metadata, unspecified,
// multicast and zoned addresses are refused always. Pure functions apart from the system
// resolver. Failure: kUnavailable with codes::kUpstreamBlocked and a hint naming the
// allowlist entry that would allow the target.
#ifndef CAVEMAN_PROXY_SSRF_H_
#define CAVEMAN_PROXY_SSRF_H_

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "url.h"

namespace caveman::proxy {

enum class AddressClass {
  kPublic,
  kLoopback,     // 127.0.0.0/8, ::1
  kPrivate,      // RFC 1918, 100.64.0.0/10 (CGNAT), fc00::/7
  kLinkLocal,    // 169.254.0.0/16, fe80::/10
  kMetadata,     // 169.254.169.254, fd00:ec2::254
  kUnspecified,  // 0.0.0.0/8, ::
  kMulticast,    // 224.0.0.0/4, 240.0.0.0/4, ff00::/8
  kInvalid,      // not an IP literal, or a zoned literal (fe80::1%eth0)
};

// Classifies an IPv4 or IPv6 literal (no brackets). IPv4-mapped and IPv4-compatible IPv6
// forms are classified as the IPv4 address they carry.
AddressClass classify_address(std::string_view ip);
std::string_view address_class_name(AddressClass c);

using AllowEntry = HostEntry;
// The comma list of CAVE_SSRF_ALLOWLIST (parse_host_list's grammar).
std::vector<AllowEntry> parse_allowlist(std::string_view list);
bool is_allowlisted(const std::vector<AllowEntry>& allowlist, std::string_view host,
                    std::string_view ip, int port);

// host → addresses (IP literals). The system resolver uses getaddrinfo.
using Resolver = std::function<Result<std::vector<std::string>>(const std::string& host)>;
Resolver system_resolver();

// Resolves `host` and returns the first address the guard allows for host:port.
// Errors: codes::kUpstreamBlocked (every address refused; the message carries the hint),
// codes::kUpstreamUnavailable (the name does not resolve).
Result<std::string> guard_upstream(const std::string& host, int port,
                                   const std::vector<AllowEntry>& allowlist,
                                   const Resolver& resolver);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_SSRF_H_
