// Loopback Streamable HTTP transport for the MCP server core, dual-era:
// - 2026-07-28 (a body with the per-request `_meta` fields, or MCP-Protocol-Version:
//   2026-07-28): stateless; the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers must
//   match the body (400 + -32020 otherwise, http_headers.h); unknown methods 404, malformed
//   requests, unsupported versions and missing capabilities 400, notifications 202; a reply
//   is one JSON object, or a per-request SSE stream when the request may get notifications.
// - 2025-03-26 … 2025-11-25: sessions named by the Mcp-Session-Id header issued on
//   initialize; DELETE /mcp ends a session; GET /mcp (server push) is not offered (405).
// Only loopback binds are accepted, and requests whose Origin header is not a loopback
// origin are refused (403) — DNS-rebinding protection.
#ifndef CAVEMAN_MCP_FRAMEWORK_HTTP_TRANSPORT_H_
#define CAVEMAN_MCP_FRAMEWORK_HTTP_TRANSPORT_H_

#include <string>
#include <string_view>

#include "caveman/status.h"
#include "mcp_server.h"

namespace caveman::mcp {

// True for http(s)://HOST[:p] where HOST passes base::is_loopback_host (127.0.0.0/8,
// localhost, [::1]).
bool is_loopback_origin(std::string_view origin);

// Serves until SIGINT/SIGTERM. Logs "listening on http://HOST:PORT/mcp" (info) once
// bound (PORT 0 picks a free port). Errors: bind failure (codes::kListenFailed).
Status serve_http(const Server& server, const std::string& host, int port);

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_FRAMEWORK_HTTP_TRANSPORT_H_
