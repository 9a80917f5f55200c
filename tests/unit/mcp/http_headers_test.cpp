// Streamable HTTP request-metadata headers of MCP 2026-07-28
// (basic/transports/streamable-http "Standard Request Headers", "Value Encoding",
// "Server Validation").
#include "http_headers.h"

#include <gtest/gtest.h>

#include <map>

namespace caveman::mcp {
namespace {

HeaderLookup headers(std::map<std::string, std::string> h) {
  return [h](std::string_view name) -> std::optional<std::string> {
    auto it = h.find(std::string(name));
    if (it == h.end()) return std::nullopt;
    return it->second;
  };
}

Json call(const std::string& name) {
  return Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"},
              {"params", {{"name", name}, {"arguments", Json::object()},
                          {"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                                     {"io.modelcontextprotocol/clientCapabilities", Json::object()}}}}}};
}

// "Value Encoding": the sentinel is decoded; plain values must be visible ASCII.
TEST(HttpHeadersTest, ValueEncoding_Base64SentinelIsDecoded) {
  EXPECT_EQ(decode_header_value("us-west1"), "us-west1");
  EXPECT_EQ(decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?="), "Hello, 世界");
  EXPECT_EQ(decode_header_value("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="), "=?base64?literal?=");
  EXPECT_FALSE(decode_header_value("=?base64?not base64!?=").has_value());
  EXPECT_FALSE(decode_header_value("caf\xc3\xa9").has_value());  // raw non-ASCII
  EXPECT_FALSE(decode_header_value("a\nb").has_value());
}

// "Server Validation": present and matching headers pass.
TEST(HttpHeadersTest, ServerValidation_MatchingHeadersPass) {
  EXPECT_FALSE(check_request_headers(headers({{"Mcp-Method", "tools/call"},
                                              {"MCP-Protocol-Version", "2026-07-28"},
                                              {"Mcp-Name", "echo"}}),
                                     call("echo")));
  EXPECT_FALSE(check_request_headers(headers({{"Mcp-Method", "tools/call"},
                                              {"MCP-Protocol-Version", "2026-07-28"},
                                              {"Mcp-Name", "=?base64?w6ljaG8=?="}}),
                                     call("\xc3\xa9" "cho")));
}

// "Server Validation": missing, mismatched or invalid headers are HeaderMismatch.
TEST(HttpHeadersTest, ServerValidation_MissingMismatchedOrInvalidHeadersFail) {
  std::map<std::string, std::string> good = {
      {"Mcp-Method", "tools/call"}, {"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Name", "echo"}};
  for (const char* drop : {"Mcp-Method", "MCP-Protocol-Version", "Mcp-Name"}) {
    auto h = good;
    h.erase(drop);
    EXPECT_TRUE(check_request_headers(headers(h), call("echo"))) << drop;
  }
  auto wrong_method = good;
  wrong_method["Mcp-Method"] = "tools/list";
  EXPECT_TRUE(check_request_headers(headers(wrong_method), call("echo")));
  auto wrong_version = good;
  wrong_version["MCP-Protocol-Version"] = "2025-11-25";
  EXPECT_TRUE(check_request_headers(headers(wrong_version), call("echo")));
  auto wrong_name = good;
  wrong_name["Mcp-Name"] = "other";
  EXPECT_TRUE(check_request_headers(headers(wrong_name), call("echo")));
  auto raw_utf8 = good;
  raw_utf8["Mcp-Name"] = "\xc3\xa9" "cho";
  EXPECT_TRUE(check_request_headers(headers(raw_utf8), call("\xc3\xa9" "cho")));
}

// basic/versioning "Backward Compatibility": which POSTs are modern.
TEST(HttpHeadersTest, VersioningBackwardCompatibility_ModernPostDetection) {
  EXPECT_TRUE(is_modern_post(headers({}), call("echo")));
  EXPECT_TRUE(is_modern_post(headers({{"MCP-Protocol-Version", "2026-07-28"}}),
                             Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}}));
  EXPECT_FALSE(is_modern_post(headers({{"MCP-Protocol-Version", "2025-11-25"}}),
                              Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}}));
  EXPECT_FALSE(is_modern_post(headers({}), Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"}}));
}

}  // namespace
}  // namespace caveman::mcp
