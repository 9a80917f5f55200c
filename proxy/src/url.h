// Absolute http(s) URLs as the proxy uses them for upstream origins (no user info, no
// fragment), and the host-name helpers around them. Pure functions.
#ifndef CAVEMAN_PROXY_URL_H_
#define CAVEMAN_PROXY_URL_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::proxy {

struct Url {
  std::string scheme;  // "http" or "https"
  std::string host;    // lowercased; IPv6 literals without brackets
  int port = 0;        // explicit or the scheme default
  std::string path;    // "" or starting with '/', trailing '/' removed; no query

  // "scheme://host[:port]" with brackets around IPv6 literals, default port omitted.
  std::string origin() const;
};

// nullopt for anything but an absolute http(s) URL with a host (user info, fragments,
// queries and bad ports are refused).
std::optional<Url> parse_url(std::string_view text);

// `host` as it appears before ":port" in a URL or Host header: IPv6 literals in brackets.
std::string url_host(std::string_view host);
// url_host(host) + ":" + port.
std::string host_port(std::string_view host, int port);

// One entry of a host list (CAVE_SSRF_ALLOWLIST, NO_PROXY).
struct HostEntry {
  std::string host;  // lowercased; IPv6 literals without brackets
  int port = 0;      // 0 = every port
};
// Entries separated by any of `separators`, each `host`, `host:port`, `[v6]` or `[v6]:port`
// (a bare IPv6 literal, with several colons, has no port), trimmed of spaces and tabs.
// Empty entries and malformed ones (unclosed bracket, port not in 1–65535) are skipped.
std::vector<HostEntry> parse_host_list(std::string_view list, std::string_view separators);

// A name that stands as one segment of a proxy route, a /w/<slug>/ attribution or a
// /compat/<name>/ mount: 1–64 chars, [a-z0-9] first, then [a-z0-9._-].
bool valid_route_name(std::string_view name);

// Joins a base path and a request path, dropping the longest run of whole segments that
// ends the base and starts the request ("/v1" + "/v1/chat" → "/v1/chat").
std::string join_overlapping(std::string_view base_path, std::string_view request_path);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_URL_H_
