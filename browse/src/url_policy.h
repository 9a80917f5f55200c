// url_policy.h — which URLs caveman-browse may navigate to (docs/browse.md#tools).
//
// Allow-list, deny by default: http/https URLs with a host, exactly `about:blank`, and HTML
// `data:` URLs (`data:text/html,` or `data:text/html;…`) up to 1 MiB. Every other scheme
// (file:, javascript:, chrome:, view-source:, blob:, …) is refused with
// codes::kBrowserUrlDenied; text that is not a URL at all (no scheme, whitespace or control
// characters, an http URL without a host, too long) is codes::kInvalidArguments. Browsers
// strip tabs and newlines inside URLs, so any control character anywhere is refused rather
// than letting "java\tscript:" slip past the scheme check. Pure functions; thread-safe.
#ifndef CAVEMAN_BROWSE_URL_POLICY_H_
#define CAVEMAN_BROWSE_URL_POLICY_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::browse {

inline constexpr std::size_t kMaxUrlBytes = 1u << 20;

// Ok when `url` may be opened; otherwise codes::kBrowserUrlDenied or codes::kInvalidArguments.
Status check_url(std::string_view url);

// The lowercased scheme of `url` ("" when it has none).
std::string url_scheme(std::string_view url);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_URL_POLICY_H_
