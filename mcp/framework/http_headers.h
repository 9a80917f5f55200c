// The Streamable HTTP request-metadata rules of MCP 2026-07-28 (basic/transports/
// streamable-http "Request Metadata", "Value Encoding", "Server Validation"): the
// MCP-Protocol-Version, Mcp-Method and Mcp-Name headers must be present and equal the body
// (`_meta` protocol version, `method`, `params.name` / `params.uri`); Mcp-Name may carry the
// `=?base64?…?=` sentinel, decoded before comparing. Pure functions over a header lookup so
// they are testable without a socket.
#ifndef CAVEMAN_MCP_FRAMEWORK_HTTP_HEADERS_H_
#define CAVEMAN_MCP_FRAMEWORK_HTTP_HEADERS_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "json_types.h"

namespace caveman::mcp {

// nullopt when the header is absent.
using HeaderLookup = std::function<std::optional<std::string>(std::string_view name)>;

// The request's method, or "" when it has none or it is not a string.
std::string method_of(const Json& message);

// A header value as the body value it stands for: plain visible ASCII (and inner spaces)
// as is, the base64 sentinel decoded. nullopt for invalid characters or a bad sentinel.
std::optional<std::string> decode_header_value(std::string_view raw);

// True when the POST should be served under 2026-07-28: its body carries the per-request
// `_meta` fields (or is server/discover), or its MCP-Protocol-Version header names 2026-07-28.
bool is_modern_post(const HeaderLookup& headers, const Json& message);

// nullopt when the headers agree with `message` (a single request object), else the message
// of the HeaderMismatch (-32020) error.
std::optional<std::string> check_request_headers(const HeaderLookup& headers, const Json& message);

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_FRAMEWORK_HTTP_HEADERS_H_
