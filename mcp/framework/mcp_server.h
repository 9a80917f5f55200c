// mcp_server.h — an MCP (Model Context Protocol) server core shared by caveman-mcp,
// caveman-browse and cavemem: JSON-RPC 2.0 dispatch, protocol-version negotiation, tools,
// and the transports (newline-delimited stdio and loopback Streamable HTTP).
//
// The server is un-killable by input: every malformed, oversized or hostile message gets a
// JSON-RPC error (or, for notifications, nothing) and the loop continues; only EOF on stdin
// ends stdio serving. Tool handlers may throw; the exception becomes a tool error
// (cave_tool_panicked). A Server is used by one transport at a time; each Session (one per
// stdio process, one per HTTP session id) owns the tools its factory built, so per-session
// state (stats, ledgers) lives in the handlers' closures. Handlers of one session never run
// concurrently.
#ifndef CAVEMAN_MCP_FRAMEWORK_MCP_SERVER_H_
#define CAVEMAN_MCP_FRAMEWORK_MCP_SERVER_H_

#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace caveman::mcp {

using Json = nlohmann::ordered_json;

// Protocol versions this server implements, oldest first. initialize answers the client's
// requested version when it is one of these, else the newest.
inline constexpr std::string_view kProtocolVersions[] = {"2024-11-05", "2025-03-26",
                                                         "2025-06-18", "2025-11-25"};
inline constexpr std::size_t kDefaultMaxLineBytes = 16u << 20;
inline constexpr std::size_t kDefaultMaxResultBytes = 16u << 20;

// JSON-RPC error codes.
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;

struct ToolResult {
  std::vector<std::string> texts;    // content items of type "text", in order
  std::optional<Json> structured;    // structuredContent (also serialized as texts[0])
  bool is_error = false;

  // A payload object given both as structuredContent and as the JSON text of the first item.
  static ToolResult payload(Json object);
  // {"error":"cave_…","message":…} as an isError result.
  static ToolResult error(std::string_view cave_code, std::string_view message);
};

struct CallContext {
  std::string protocol_version;  // negotiated for this session
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

  const std::string& protocol_version() const { return protocol_version_; }
  bool initialized() const { return initialized_; }

 private:
  std::optional<Json> handle_single(const Json& message);
  Json dispatch(const std::string& method, const Json& params, bool* ok);
  Json initialize(const Json& params);
  Json list_tools() const;
  Json call_tool(const Json& params, bool* ok, Json* error);
  const Tool* find_tool(std::string_view name) const;
  bool at_least(std::string_view version) const;

  const ServerInfo& info_;
  const ServerOptions& options_;
  std::vector<Tool> tools_;
  std::string protocol_version_{kProtocolVersions[std::size(kProtocolVersions) - 1]};
  bool initialized_ = false;
  std::mutex mu_;  // one message at a time per session
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

// Serializes `j` compactly; invalid UTF-8 inside strings is replaced (never throws).
std::string dump(const Json& j);

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_FRAMEWORK_MCP_SERVER_H_
