// MCP 2026-07-28: the request envelope (per-request _meta, server/discover, removed methods,
// MRTR params) and requestState decoding. Byte 0 picks the input's role:
//   even → one JSON-RPC line to a Session holding the engine tools: no reply or exactly one
//          single-line JSON reply, and every modern reply is a result with resultType or an
//          error with an integer code;
//   odd  → a requestState token: open() never crashes, and a token sealed by the codec itself
//          round-trips while any single-byte change to it is rejected;
//   both → the Streamable HTTP header check over headers taken from the input never crashes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine_tools.h"
#include "fuzz_util.h"
#include "http_headers.h"
#include "json/json.h"
#include "mcp_server.h"
#include "request_state.h"

namespace {

using caveman::mcp::Json;

void fuzz_envelope(std::string_view line) {
  static auto engine = caveman::fuzz::new_memory_engine();
  static caveman::mcp::ServerInfo info{"caveman", "Caveman", "fuzz", "i"};
  static caveman::mcp::ServerOptions options{1 << 20, 1 << 20, std::string(32, 'k')};
  static caveman::mcp::Session session(info, options, caveman::mcp::make_engine_tools(engine));
  std::string reply = session.handle_line(line);
  if (reply.empty()) return;
  FUZZ_CHECK(reply.find('\n') == std::string::npos, "reply spans lines");
  FUZZ_CHECK(caveman::json::is_valid(reply), "reply is not JSON");
  Json r = Json::parse(reply, nullptr, false);
  Json req = Json::parse(line, nullptr, false);
  bool modern = req.is_object() && req.value("params", Json()).is_object() &&
                req["params"].value("_meta", Json()).is_object() &&
                req["params"]["_meta"].value("io.modelcontextprotocol/protocolVersion", Json()) == "2026-07-28" &&
                req["params"]["_meta"].value("io.modelcontextprotocol/clientCapabilities", Json()).is_object();
  if (modern && r.is_object() && r.contains("result")) {
    FUZZ_CHECK(r["result"].contains("resultType"), "modern result without resultType");
  }
  if (r.is_object() && r.contains("error")) {
    FUZZ_CHECK(r["error"].value("code", Json()).is_number_integer(), "error without integer code");
  }
}

void fuzz_state(std::string_view token) {
  static caveman::mcp::RequestStateCodec codec(std::string(32, 's'), [] { return std::int64_t{1000}; });
  Json args = Json{{"a", 1}};
  (void)codec.open(token, "tools/call", "t", args);
  std::string sealed = codec.seal("tools/call", "t", args, Json(std::string(token)));
  FUZZ_CHECK(codec.open(sealed, "tools/call", "t", args).ok(), "sealed state does not open");
  if (token.empty()) return;
  std::size_t at = static_cast<unsigned char>(token[0]) % sealed.size();
  sealed[at] = static_cast<char>(sealed[at] ^ 0x01);
  FUZZ_CHECK(!codec.open(sealed, "tools/call", "t", args).ok(), "tampered state opens");
}

void fuzz_headers(std::string_view data) {
  std::string value(data.substr(0, data.find('\n')));
  caveman::mcp::HeaderLookup headers = [&](std::string_view) { return std::optional<std::string>(value); };
  Json body = Json::parse(data.substr(value.size()), nullptr, false);
  if (body.is_discarded()) body = Json{{"method", "tools/call"}, {"params", {{"name", value}}}};
  (void)caveman::mcp::check_request_headers(headers, body);
  (void)caveman::mcp::decode_header_value(value);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] % 2 == 0) {
    fuzz_envelope(input);
  } else {
    fuzz_state(input);
  }
  fuzz_headers(input);
  return 0;
}
