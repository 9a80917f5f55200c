// mcp_server.h — an MCP (Model Context Protocol) server core shared by caveman-mcp,
// caveman-browse and cavemem: JSON-RPC 2.0 dispatch, protocol-version negotiation, tools,
// and the transports (newline-delimited stdio and loopback Streamable HTTP).
//
// The server is un-killable by input: every malformed, oversized or hostile message gets a
// JSON-RPC error (or, for notifications, nothing) and the loop continues; only EOF on stdin
// ends stdio serving. Tool handlers may throw; the exception becomes a tool error
// (codes::kToolPanicked). A Server is used by one transport at a time; each Session (one per
// stdio process, one per HTTP session id) owns the tools its factory built, so per-session
// state (stats, ledgers) lives in the handlers' closures. Handlers of one session never run
// concurrently.
#ifndef CAVEMAN_MCP_FRAMEWORK_MCP_SERVER_H_
#define CAVEMAN_MCP_FRAMEWORK_MCP_SERVER_H_

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/base/mutex.h"
#include "json_types.h"
#include "request_state.h"

namespace caveman::mcp {

// Protocol versions this server implements, oldest first. initialize answers the client's
// requested version when it is one of these, else the newest.
inline constexpr std::string_view kProtocolVersions[] = {"2024-11-05", "2025-03-26",
                                                         "2025-06-18", "2025-11-25"};
// The stateless revision: no handshake, per-request _meta, server/discover, resultType.
inline constexpr std::string_view kModernVersion = "2026-07-28";
inline constexpr std::size_t kDefaultMaxLineBytes = 16u << 20;
inline constexpr std::size_t kDefaultMaxResultBytes = 16u << 20;

// JSON-RPC error codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
// Codes the 2026-07-28 specification defines (basic/index "Error Codes").
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kMissingRequiredClientCapability = -32021;
inline constexpr int kUnsupportedProtocolVersion = -32022;

// A Multi Round-Trip answer (2026-07-28 basic/patterns/mrtr): the requests the client must
// fulfil, and the tool's own state, which the framework seals (HMAC) into requestState.
struct InputRequired {
  Json input_requests;  // {key: {"method": "elicitation/create", "params": {…}}, …}
  Json state;           // any JSON; comes back verified as CallContext::state on the retry
};

struct ToolResult {
  std::vector<std::string> texts;    // content items of type "text", in order
  std::optional<Json> structured;    // structuredContent (also serialized as texts[0])
  bool is_error = false;
  std::optional<InputRequired> input_required;  // only for modern calls (CallContext::modern)

  // A payload object given both as structuredContent and as the JSON text of the first item.
  static ToolResult payload(Json object);
  // {"error":<code>,"message":…} as an isError result.
  static ToolResult error(std::string_view error_code, std::string_view message);
  // An input_required answer; the client retries with inputResponses and the sealed state.
  static ToolResult ask(Json input_requests, Json state);
};

struct CallContext {
  std::string protocol_version;  // negotiated for this session, or named by this request
  bool modern = false;           // served under kModernVersion (per-request _meta)
  Json client_capabilities = Json::object();  // declared on this request (modern only)
  Json input_responses;          // MRTR retry: the client's inputResponses object, else null
  Json state;                    // MRTR retry: the verified requestState payload, else null

  // True when the request declared `capability` (e.g. "elicitation") in its _meta.
  bool client_has(std::string_view capability) const;
};

struct Tool {
  std::string name;
  std::string title;
  std::string description;
  Json input_schema;
  std::optional<Json> output_schema;
  Json annotations;                 // readOnlyHint, idempotentHint, … (object)
  bool exempt_result_cap = false;   // e.g. retrieve: exact originals may exceed the cap
  std::function<ToolResult(const Json& arguments, const CallContext& ctx)> handler;
};

struct ServerInfo {
  std::string name;
  std::string title;
  std::string version;
  std::string instructions;  // optional guidance returned by initialize
};

struct ServerOptions {
  std::size_t max_line_bytes = kDefaultMaxLineBytes;
  std::size_t max_result_bytes = kDefaultMaxResultBytes;
  // HMAC key of MRTR requestState (load_request_state_key()); empty → a random key for
  // this process, so state does not survive a restart.
  std::string request_state_key;
};

using ToolsFactory = std::function<std::vector<Tool>()>;

// One client conversation: negotiated version + its own tool instances.
class Session {
 public:
  Session(const ServerInfo& info, const ServerOptions& options, std::vector<Tool> tools);

  // Handles one parsed JSON-RPC message (object or batch array). nullopt = no reply.
  std::optional<Json> handle(const Json& message);
  // Handles one line of newline-delimited JSON-RPC. Returns the reply line without '\n', or
  // "" when nothing is to be sent (notifications, blank lines).
  std::string handle_line(std::string_view line);

  std::string protocol_version() const EXCLUDES(mu_) {
    base::MutexLock lock(mu_);
    return protocol_version_;
  }
  bool initialized() const EXCLUDES(mu_) {
    base::MutexLock lock(mu_);
    return initialized_;
  }

 private:
  std::optional<Json> handle_single(const Json& message) REQUIRES(mu_);
  Json dispatch(const std::string& method, const Json& params, const std::string& version, bool* ok)
      REQUIRES(mu_);
  Json initialize(const Json& params) REQUIRES(mu_);
  Json list_tools(std::string_view version) const;
  Json call_tool(const Json& params, const std::string& version, bool* ok, Json* error);
  bool resolve_call(const Json& params, const Tool** tool, Json* args, Json* error) const;
  ToolResult run_tool(const Tool& tool, const Json& args, const CallContext& ctx) const;
  Json tool_result_json(ToolResult result, std::string_view version) const;
  const Tool* find_tool(std::string_view name) const;
  // 2026-07-28 (modern.cpp).
  Json dispatch_per_request(const std::string& method, const Json& params, bool* ok) REQUIRES(mu_);
  Json dispatch_modern(const std::string& method, const Json& params, const Json& capabilities,
                       bool* ok);
  Json discover() const;
  Json call_tool_modern(const Json& params, const Json& capabilities, bool* ok);
  Json server_meta() const;

  const ServerInfo& info_;
  const ServerOptions& options_;
  std::vector<Tool> tools_;
  RequestStateCodec state_codec_;
  mutable base::Mutex mu_;  // one message at a time per session
  std::string protocol_version_ GUARDED_BY(mu_){
      kProtocolVersions[std::size(kProtocolVersions) - 1]};
  bool initialized_ GUARDED_BY(mu_) = false;
};

Json error_response(const Json& id, int code, std::string_view message);

class Server {
 public:
  Server(ServerInfo info, ToolsFactory factory, ServerOptions options = {});

  std::unique_ptr<Session> new_session() const;

  // Serves newline-delimited JSON-RPC on the given fds until EOF on `in_fd`. Returns 0.
  int serve_stdio(int in_fd, int out_fd) const;

  const ServerInfo& info() const { return info_; }
  const ServerOptions& options() const { return options_; }

 private:
  ServerInfo info_;
  ToolsFactory factory_;
  ServerOptions options_;
};

// Reads (creating it 0600) the per-install requestState key $CAVEMAN_HOME/runtime/mcp-state.key.
// On failure logs a warning and returns "" (ServerOptions then uses a per-process key).
std::string load_request_state_key();

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_FRAMEWORK_MCP_SERVER_H_
