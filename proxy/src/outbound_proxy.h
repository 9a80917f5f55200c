// The outbound HTTPS proxy of networks that reach the internet only through one
// (HTTPS_PROXY, NO_PROXY, as curl and the agents themselves read them). https:// upstreams
// are tunnelled through it with CONNECT; plain http:// upstreams (local model servers) are
// always dialled directly. Pure functions.
#ifndef CAVEMAN_PROXY_OUTBOUND_PROXY_H_
#define CAVEMAN_PROXY_OUTBOUND_PROXY_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "url.h"

namespace caveman::proxy {

struct OutboundProxy {
  std::string host;  // IPv6 literals without brackets
  int port = 80;
  std::string user;      // percent-decoded; empty = no Proxy-Authorization
  std::string password;  // percent-decoded; never logged
  // "http://host:port" with the credentials left out, for logs and messages.
  std::string display() const;
};

// Parses an HTTPS_PROXY value: `http://[user[:password]@]host[:port][/]` or the same
// without a scheme; the port defaults to 80. An empty value is no proxy (nullopt).
// Errors: codes::kInvalidConfig — other schemes (https:// proxies, socks5://), a missing host,
// a bad port, a path.
Result<std::optional<OutboundProxy>> parse_outbound_proxy(std::string_view value);

// NO_PROXY: comma- or space-separated entries; `*` matches every host; a name matches itself
// and its subdomains (a leading dot is optional: `example.com` and `.example.com` both match
// api.example.com); an IP literal matches itself; `entry:port` matches that port only (an
// entry with a bad port is skipped, as in parse_host_list). Matching ignores ASCII case.
class NoProxy {
 public:
  NoProxy() = default;
  explicit NoProxy(std::string_view list);
  bool matches(std::string_view host, int port) const;

 private:
  std::vector<HostEntry> entries_;  // hosts without a leading dot; "*" for all
};

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_OUTBOUND_PROXY_H_
