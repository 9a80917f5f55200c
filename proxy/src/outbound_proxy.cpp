#include "outbound_proxy.h"

#include <cctype>

#include "caveman/base/codes.h"
#include "caveman/base/text.h"
#include "url.h"

namespace caveman::proxy {
namespace {

Status invalid(std::string message) {
  return Status::InvalidArgument(codes::kInvalidConfig, "HTTPS_PROXY: " + std::move(message));
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// %XX escapes decoded; a '%' not followed by two hex digits stays as it is.
std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

std::string OutboundProxy::display() const { return "http://" + host_port(host, port); }

Result<std::optional<OutboundProxy>> parse_outbound_proxy(std::string_view value) {
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.front()))) value.remove_prefix(1);
  while (!value.empty() && std::isspace(static_cast<unsigned char>(value.back()))) value.remove_suffix(1);
  if (value.empty()) return std::optional<OutboundProxy>();
  std::string_view rest = value;
  if (std::size_t sep = rest.find("://"); sep != std::string_view::npos) {
    std::string scheme = base::ascii_lower(rest.substr(0, sep));
    if (scheme != "http") {
      return invalid("only http:// proxies are supported (got " + scheme +
                     "://); the tunnel to the provider is TLS either way");
    }
    rest = rest.substr(sep + 3);
  }
  OutboundProxy proxy;
  std::size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    std::string_view userinfo = authority.substr(0, at);
    std::size_t colon = userinfo.find(':');
    proxy.user = percent_decode(userinfo.substr(0, colon));
    if (colon != std::string_view::npos) proxy.password = percent_decode(userinfo.substr(colon + 1));
    authority = authority.substr(at + 1);
  }
  std::string_view path = slash == std::string_view::npos ? "" : rest.substr(slash);
  std::optional<Url> url = parse_url("http://" + std::string(authority) + std::string(path));
  if (!url || !url->path.empty()) return invalid("expected http://[user:password@]host[:port]");
  proxy.host = url->host;
  proxy.port = url->port;
  return std::optional<OutboundProxy>(std::move(proxy));
}

NoProxy::NoProxy(std::string_view list) {
  for (HostEntry& e : parse_host_list(list, ", \t")) {
    std::size_t dots = e.host.find_first_not_of('.');
    if (dots == std::string::npos) continue;  // "." alone names nothing
    e.host.erase(0, dots);
    entries_.push_back(std::move(e));
  }
}

bool NoProxy::matches(std::string_view host, int port) const {
  std::string h = base::ascii_lower(host);
  for (const HostEntry& e : entries_) {
    if (e.port != 0 && e.port != port) continue;
    if (e.host == "*" || h == e.host) return true;
    if (h.size() > e.host.size() && h.compare(h.size() - e.host.size(), e.host.size(), e.host) == 0 &&
        h[h.size() - e.host.size() - 1] == '.') {
      return true;
    }
  }
  return false;
}

}  // namespace caveman::proxy
