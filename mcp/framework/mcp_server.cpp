#include "mcp_server.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <exception>
#include <ostream>

#include "caveman/base/codes.h"
#include "caveman/install_key.h"
#include "line_reader.h"
#include "modern.h"

namespace caveman::mcp {
namespace {

bool valid_id(const Json& id) { return id.is_string() || id.is_number_integer() || id.is_number_unsigned(); }

std::string trim_ws(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && (s[b] == ' ' || s[b] == '\t' || s[b] == '\r' || s[b] == '\n')) ++b;
  while (e > b && (s[e - 1] == ' ' || s[e - 1] == '\t' || s[e - 1] == '\r' || s[e - 1] == '\n')) --e;
  return std::string(s.substr(b, e - b));
}

bool write_all(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

}  // namespace

std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

ToolResult ToolResult::payload(Json object) {
  ToolResult r;
  r.texts.push_back(dump(object));
  r.structured = std::move(object);
  return r;
}

ToolResult ToolResult::error(std::string_view error_code, std::string_view message) {
  Json e = Json::object();
  e["error"] = std::string(error_code);
  e["message"] = std::string(message);
  ToolResult r;
  r.texts.push_back(dump(e));
  r.is_error = true;
  return r;
}

ToolResult ToolResult::ask(Json input_requests, Json state) {
  ToolResult r;
  r.input_required = InputRequired{std::move(input_requests), std::move(state)};
  return r;
}

bool CallContext::client_has(std::string_view capability) const {
  return client_capabilities.is_object() && client_capabilities.contains(std::string(capability));
}

std::string load_request_state_key() {
  Result<std::string> key = load_or_create_key(caveman_home_from_env(), "mcp-state.key");
  if (key.ok()) return std::move(key).value();
  spdlog::warn("MCP requestState key unavailable ({}); multi round-trip state is valid for this "
               "process only",
               key.status().ToString());
  return "";
}

Json error_response(const Json& id, int code, std::string_view message) {
  Json r = Json::object();
  r["jsonrpc"] = "2.0";
  r["id"] = id;
  r["error"] = Json{{"code", code}, {"message", std::string(message)}};
  return r;
}

Session::Session(const ServerInfo& info, const ServerOptions& options, std::vector<Tool> tools)
    : info_(info),
      options_(options),
      tools_(std::move(tools)),
      state_codec_(options.request_state_key) {}

const Tool* Session::find_tool(std::string_view name) const {
  for (const Tool& t : tools_) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

Json Session::initialize(const Json& params) {
  std::string requested;
  if (auto it = params.find("protocolVersion"); it != params.end() && it->is_string()) {
    requested = it->get<std::string>();
  }
  protocol_version_ = std::string(kProtocolVersions[std::size(kProtocolVersions) - 1]);
  for (std::string_view v : kProtocolVersions) {
    if (v == requested) protocol_version_ = requested;
  }
  initialized_ = true;
  Json result = Json::object();
  result["protocolVersion"] = protocol_version_;
  result["capabilities"] = Json{{"tools", Json{{"listChanged", false}}}};
  Json server_info = Json::object();
  server_info["name"] = info_.name;
  if (!info_.title.empty() && protocol_version_ >= "2025-06-18") server_info["title"] = info_.title;
  server_info["version"] = info_.version;
  result["serverInfo"] = std::move(server_info);
  if (!info_.instructions.empty()) result["instructions"] = info_.instructions;
  return result;
}

Json Session::list_tools(std::string_view version) const {
  Json tools = Json::array();
  for (const Tool& t : tools_) {
    Json j = Json::object();
    j["name"] = t.name;
    if (!t.title.empty() && version >= "2025-06-18") j["title"] = t.title;
    j["description"] = t.description;
    j["inputSchema"] = t.input_schema;
    if (t.output_schema && version >= "2025-06-18") j["outputSchema"] = *t.output_schema;
    if (!t.annotations.empty() && version >= "2025-03-26") j["annotations"] = t.annotations;
    tools.push_back(std::move(j));
  }
  return Json{{"tools", std::move(tools)}};
}

bool Session::resolve_call(const Json& params, const Tool** tool, Json* args, Json* error) const {
  auto name_it = params.find("name");
  if (name_it == params.end() || !name_it->is_string()) {
    *error = Json{{"code", kInvalidParams}, {"message", "tools/call needs a string \"name\""}};
    return false;
  }
  *tool = find_tool(name_it->get_ref<const std::string&>());
  *args = Json::object();
  if (*tool == nullptr) return true;  // answered as a codes::kUnknownTool tool result
  auto args_it = params.find("arguments");
  if (args_it != params.end() && !args_it->is_null()) {
    if (!args_it->is_object()) {
      *error = Json{{"code", kInvalidParams}, {"message", "\"arguments\" must be an object"}};
      return false;
    }
    *args = *args_it;
    return true;
  }
  auto req = (*tool)->input_schema.find("required");
  if (req != (*tool)->input_schema.end() && req->is_array() && !req->empty()) {
    *error = Json{{"code", kInvalidParams},
                  {"message", "tools/call " + (*tool)->name + " needs \"arguments\""}};
    return false;
  }
  return true;
}

ToolResult Session::run_tool(const Tool& tool, const Json& args, const CallContext& ctx) const {
  ToolResult result;
  try {
    result = tool.handler(args, ctx);
  } catch (const std::exception& e) {
    result = ToolResult::error(codes::kToolPanicked, std::string("tool failed: ") + e.what());
  } catch (...) {
    result = ToolResult::error(codes::kToolPanicked, "tool failed");
  }
  if (result.input_required && !ctx.modern) {
    // Legacy clients cannot answer input_required; a tool that asks anyway is a bug.
    return ToolResult::error(codes::kToolPanicked, "tool asked for input outside 2026-07-28");
  }
  if (!tool.exempt_result_cap) {
    std::size_t bytes = 0;
    for (const std::string& t : result.texts) bytes += t.size();
    if (bytes > options_.max_result_bytes) {
      result = ToolResult::error(codes::kPayloadTooLarge,
                                 "result of " + std::to_string(bytes) + " bytes exceeds the " +
                                     std::to_string(options_.max_result_bytes) + "-byte cap");
    }
  }
  return result;
}

Json Session::tool_result_json(ToolResult result, std::string_view version) const {
  Json content = Json::array();
  for (std::string& t : result.texts) content.push_back(Json{{"type", "text"}, {"text", std::move(t)}});
  Json out = Json::object();
  out["content"] = std::move(content);
  if (result.structured && version >= "2025-06-18") out["structuredContent"] = *result.structured;
  out["isError"] = result.is_error;
  return out;
}

Json Session::call_tool(const Json& params, const std::string& version, bool* ok, Json* error) {
  const Tool* tool = nullptr;
  Json args;
  if (!resolve_call(params, &tool, &args, error)) {
    *ok = false;
    return nullptr;
  }
  if (tool == nullptr) {
    std::string name = params["name"].get<std::string>();
    return tool_result_json(
        ToolResult::error(codes::kUnknownTool, "no tool named \"" + name + "\""), version);
  }
  CallContext ctx;
  ctx.protocol_version = version;
  return tool_result_json(run_tool(*tool, args, ctx), version);
}

Json Session::dispatch(const std::string& method, const Json& params, const std::string& version,
                       bool* ok) {
  *ok = true;
  if (method == "initialize") return initialize(params);
  if (method == "ping") return Json::object();
  if (method == "tools/list") return list_tools(version);
  if (method == "tools/call") {
    Json error;
    Json r = call_tool(params, version, ok, &error);
    return *ok ? r : error;
  }
  *ok = false;
  return Json{{"code", kMethodNotFound}, {"message", "method not found: " + method}};
}

std::optional<Json> Session::handle_single(const Json& msg) {
  if (!msg.is_object()) return error_response(nullptr, kInvalidRequest, "message must be an object");
  auto id_it = msg.find("id");
  bool has_id = id_it != msg.end() && !id_it->is_null();
  Json id = has_id ? *id_it : Json(nullptr);
  auto method_it = msg.find("method");
  if (method_it == msg.end()) {
    // A response to a request we never send, or garbage: answer garbage only.
    if (msg.contains("result") || msg.contains("error")) return std::nullopt;
    return error_response(has_id && valid_id(id) ? id : Json(nullptr), kInvalidRequest,
                          "message has no \"method\"");
  }
  if (has_id && !valid_id(id)) return error_response(nullptr, kInvalidRequest, "invalid id");
  auto version = msg.find("jsonrpc");
  if (version == msg.end() || *version != "2.0" || !method_it->is_string()) {
    if (!has_id) return std::nullopt;
    return error_response(id, kInvalidRequest, "not a JSON-RPC 2.0 request");
  }
  std::string method = method_it->get<std::string>();
  auto params_it = msg.find("params");
  Json params = Json::object();
  if (params_it != msg.end() && !params_it->is_null()) {
    if (!params_it->is_object()) {
      if (!has_id) return std::nullopt;
      return error_response(id, kInvalidParams, "\"params\" must be an object");
    }
    params = *params_it;
  }
  if (!has_id) return std::nullopt;  // notifications (known or not) are never answered
  bool ok = true;
  Json result;
  try {
    result = carries_request_meta(method, params) ? dispatch_per_request(method, params, &ok)
                                                  : dispatch(method, params, protocol_version_, &ok);
  } catch (const std::exception& e) {
    return error_response(id, kInternalError, std::string(codes::kInternalError) + ": " + e.what());
  }
  if (!ok) {
    Json r = Json::object();
    r["jsonrpc"] = "2.0";
    r["id"] = id;
    r["error"] = std::move(result);
    return r;
  }
  Json r = Json::object();
  r["jsonrpc"] = "2.0";
  r["id"] = id;
  r["result"] = std::move(result);
  return r;
}

std::optional<Json> Session::handle(const Json& message) {
  base::MutexLock lock(mu_);
  if (!message.is_array()) return handle_single(message);
  if (message.empty()) return error_response(nullptr, kInvalidRequest, "empty batch");
  Json replies = Json::array();
  for (const Json& m : message) {
    if (std::optional<Json> r = handle_single(m)) replies.push_back(std::move(*r));
  }
  if (replies.empty()) return std::nullopt;
  return replies;
}

std::string Session::handle_line(std::string_view line) {
  std::string trimmed = trim_ws(line);
  if (trimmed.empty()) return "";
  Json message = Json::parse(trimmed, nullptr, /*allow_exceptions=*/false);
  if (message.is_discarded()) return dump(error_response(nullptr, kParseError, "parse error"));
  std::optional<Json> reply;
  try {
    reply = handle(message);
  } catch (const std::exception& e) {
    reply = error_response(nullptr, kInternalError,
                           std::string(codes::kInternalError) + ": " + e.what());
  }
  return reply ? dump(*reply) : "";
}

Server::Server(ServerInfo info, ToolsFactory factory, ServerOptions options)
    : info_(std::move(info)), factory_(std::move(factory)), options_(options) {}

std::unique_ptr<Session> Server::new_session() const {
  return std::make_unique<Session>(info_, options_, factory_());
}

int Server::serve_stdio(int in_fd, int out_fd) const {
  std::signal(SIGPIPE, SIG_IGN);  // a vanished client is EOF/EPIPE, not a crash
  std::unique_ptr<Session> session = new_session();
  LineReader reader(in_fd, options_.max_line_bytes);
  std::string line;
  while (true) {
    LineReader::Status st = reader.next(&line);
    if (st == LineReader::Status::kEof) return 0;
    std::string reply;
    if (st == LineReader::Status::kOversized) {
      reply = dump(error_response(nullptr, kInvalidRequest,
                                  std::string(codes::kPayloadTooLarge) + ": line exceeds " +
                                      std::to_string(options_.max_line_bytes) + " bytes"));
    } else {
      reply = session->handle_line(line);
    }
    if (reply.empty()) continue;
    reply.push_back('\n');
    if (!write_all(out_fd, reply)) return 0;  // the client went away
  }
}

}  // namespace caveman::mcp
