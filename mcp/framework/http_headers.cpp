#include "http_headers.h"

#include "caveman/base64.h"
#include "mcp_server.h"
#include "modern.h"

namespace caveman::mcp {
namespace {

constexpr std::string_view kSentinelOpen = "=?base64?";
constexpr std::string_view kSentinelClose = "?=";

bool plain_header_char(char c) { return c == ' ' || c == '\t' || (c >= 0x21 && c <= 0x7e); }

// The body value a header mirrors for `method`: params.name for tools/call and prompts/get,
// params.uri for resources/read; nullopt when the method has no Mcp-Name.
std::optional<Json> name_source(const Json& message, std::string_view method) {
  const Json& params = message.contains("params") ? message["params"] : Json::object();
  if (!params.is_object()) return std::nullopt;
  const char* key = method == "resources/read"                          ? "uri"
                    : (method == "tools/call" || method == "prompts/get") ? "name"
                                                                          : nullptr;
  if (key == nullptr) return std::nullopt;
  return params.contains(key) ? params[key] : Json();
}

std::string mismatch(std::string_view header, std::string_view got, std::string_view want) {
  return "Header mismatch: " + std::string(header) + " header value '" + std::string(got) +
         "' does not match body value '" + std::string(want) + "'";
}

}  // namespace

std::string method_of(const Json& message) {
  auto it = message.is_object() ? message.find("method") : message.end();
  return it != message.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::string> decode_header_value(std::string_view raw) {
  if (raw.size() >= kSentinelOpen.size() + kSentinelClose.size() &&
      raw.substr(0, kSentinelOpen.size()) == kSentinelOpen &&
      raw.substr(raw.size() - kSentinelClose.size()) == kSentinelClose) {
    return base64_decode(raw.substr(kSentinelOpen.size(),
                                    raw.size() - kSentinelOpen.size() - kSentinelClose.size()));
  }
  for (char c : raw) {
    if (!plain_header_char(c)) return std::nullopt;
  }
  return std::string(raw);
}

bool is_modern_post(const HeaderLookup& headers, const Json& message) {
  if (std::optional<std::string> v = headers("MCP-Protocol-Version"); v && *v == kModernVersion) {
    return true;
  }
  if (!message.is_object() || method_of(message).empty()) return false;
  const Json& params = message.contains("params") && message["params"].is_object()
                           ? message["params"]
                           : Json::object();
  return carries_request_meta(method_of(message), params);
}

std::optional<std::string> check_request_headers(const HeaderLookup& headers, const Json& message) {
  if (!message.is_object()) return "Header mismatch: the body is not a JSON-RPC request";
  std::string method = method_of(message);
  std::optional<std::string> method_header = headers("Mcp-Method");
  if (!method_header) return "Header mismatch: required header Mcp-Method is missing";
  if (*method_header != method) return mismatch("Mcp-Method", *method_header, method);

  std::optional<std::string> version_header = headers("MCP-Protocol-Version");
  if (!version_header) return "Header mismatch: required header MCP-Protocol-Version is missing";
  const Json& params = message.contains("params") ? message["params"] : Json();
  if (params.is_object() && params.contains("_meta") && params["_meta"].is_object()) {
    auto it = params["_meta"].find(std::string(kMetaProtocolVersion));
    const Json v = it != params["_meta"].end() ? *it : Json();
    if (v.is_string() && v != *version_header) {
      return mismatch("MCP-Protocol-Version", *version_header, v.get<std::string>());
    }
  }

  std::optional<Json> name = name_source(message, method);
  if (!name || name->is_null()) return std::nullopt;
  std::optional<std::string> name_header = headers("Mcp-Name");
  if (!name_header) return "Header mismatch: required header Mcp-Name is missing";
  std::optional<std::string> decoded = decode_header_value(*name_header);
  if (!decoded) return "Header mismatch: Mcp-Name header value is not a valid header value";
  if (!name->is_string() || *decoded != name->get<std::string>()) {
    return mismatch("Mcp-Name", *decoded, name->is_string() ? name->get<std::string>() : dump(*name));
  }
  return std::nullopt;
}

}  // namespace caveman::mcp
