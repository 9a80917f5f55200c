// Loopback Streamable HTTP transport for the MCP server core (MCP 2025-03-26+): POST /mcp
// carries JSON-RPC messages and is answered with application/json; sessions are named by the
// Mcp-Session-Id header issued on initialize; DELETE /mcp ends a session; GET /mcp (server
// push) is not offered (405). Only loopback binds are accepted, and requests whose Origin
// header is not a loopback origin are refused (403) — DNS-rebinding protection.
#ifndef CAVEMAN_MCP_FRAMEWORK_HTTP_TRANSPORT_H_
#define CAVEMAN_MCP_FRAMEWORK_HTTP_TRANSPORT_H_

#include <string>
#include <string_view>

#include "caveman/status.h"
#include "mcp_server.h"

namespace caveman::mcp {

// "127.0.0.1:PORT", "localhost:PORT" or "[::1]:PORT" → host and port.
// Errors: cave_listen_not_loopback, cave_invalid_arguments.
Status parse_loopback_listen(std::string_view listen, std::string* host, int* port);

// True for http(s)://127.0.0.1[:p], http(s)://localhost[:p], http(s)://[::1][:p].
bool is_loopback_origin(std::string_view origin);

// Serves until SIGINT/SIGTERM. Prints "listening on http://HOST:PORT/mcp" to stderr once
// bound (PORT 0 picks a free port). Errors: bind failure (cave_listen_failed).
Status serve_http(const Server& server, const std::string& host, int port);

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_FRAMEWORK_HTTP_TRANSPORT_H_
