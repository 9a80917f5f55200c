// Absolute http(s) URLs as the proxy uses them for upstream origins (no user info, no
// fragment). Pure functions.
#ifndef CAVEMAN_PROXY_URL_H_
#define CAVEMAN_PROXY_URL_H_

#include <optional>
#include <string>
#include <string_view>

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

// Joins a base path and a request path, dropping the longest run of whole segments that
// ends the base and starts the request ("/v1" + "/v1/chat" → "/v1/chat").
std::string join_overlapping(std::string_view base_path, std::string_view request_path);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_URL_H_
