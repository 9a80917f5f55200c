// The 2026-07-28 ("modern") request rules of the MCP server core: which requests opt into
// them, the required per-request `_meta` fields, the protocol-defined errors, and the
// methods that revision removed. Pure functions; Session (mcp_server.h) applies them.
//
// Specification pages followed: basic/index ("_meta", "Per-request protocol fields", "Error
// Codes", "ResultType"), basic/versioning ("Protocol Version Negotiation", "Backward
// Compatibility"), server/discover, server/utilities/caching, changelog ("Major changes" 5).
#ifndef CAVEMAN_MCP_FRAMEWORK_MODERN_H_
#define CAVEMAN_MCP_FRAMEWORK_MODERN_H_

#include <optional>
#include <string>
#include <string_view>

#include "json_types.h"

namespace caveman::mcp {

inline constexpr std::string_view kMetaProtocolVersion = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kMetaClientCapabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kMetaClientInfo = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kMetaLogLevel = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view kMetaServerInfo = "io.modelcontextprotocol/serverInfo";
// Cache hints of discover and list results: the tool set of a running binary never changes.
inline constexpr long long kListTtlMs = 3600000;

struct RequestMeta {
  std::string protocol_version;
  Json client_capabilities = Json::object();
  std::optional<std::string> log_level;
};

// True when the request opts into per-request metadata: `server/discover`, or params._meta
// holding the protocol version or client capabilities key. Everything else is legacy.
bool carries_request_meta(std::string_view method, const Json& params);

// Reads the required fields. nullopt on success, else a -32602 error object naming the
// missing or mistyped field.
std::optional<Json> parse_request_meta(const Json& params, RequestMeta* out);

// Every version this server speaks, newest first (2026-07-28, then the legacy versions).
Json supported_versions();
bool is_supported_version(std::string_view version);

// -32022 with data {supported, requested}.
Json unsupported_version_error(std::string_view requested);
// -32021 with data {requiredCapabilities}.
Json missing_capability_error(const Json& required);
// Methods 2026-07-28 removed (ping, logging/setLevel, resource subscriptions, the handshake).
bool removed_in_modern(std::string_view method);
// The client capability an MRTR input request needs ("elicitation/create" → "elicitation").
std::string capability_for_input(std::string_view method);

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_FRAMEWORK_MODERN_H_
