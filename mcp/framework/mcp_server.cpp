#include "mcp_server.h"

#include <cerrno>
#include <csignal>
#include <exception>
#include <unistd.h>

#include "line_reader.h"

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

ToolResult ToolResult::error(std::string_view cave_code, std::string_view message) {
  Json e = Json::object();
  e["error"] = std::string(cave_code);
  e["message"] = std::string(message);
  ToolResult r;
  r.texts.push_back(dump(e));
  r.is_error = true;
  return r;
}

Json error_response(const Json& id, int code, std::string_view message) {
  Json r = Json::object();
  r["jsonrpc"] = "2.0";
  r["id"] = id;
  r["error"] = Json{{"code", code}, {"message", std::string(message)}};
  return r;
}

Session::Session(const ServerInfo& info, const ServerOptions& options, std::vector<Tool> tools)
    : info_(info), options_(options), tools_(std::move(tools)) {}

bool Session::at_least(std::string_view version) const { return protocol_version_ >= version; }

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
  if (!info_.title.empty() && at_least("2025-06-18")) server_info["title"] = info_.title;
  server_info["version"] = info_.version;
  result["serverInfo"] = std::move(server_info);
  if (!info_.instructions.empty()) result["instructions"] = info_.instructions;
  return result;
}

Json Session::list_tools() const {
  Json tools = Json::array();
  for (const Tool& t : tools_) {
    Json j = Json::object();
    j["name"] = t.name;
    if (!t.title.empty() && at_least("2025-06-18")) j["title"] = t.title;
    j["description"] = t.description;
    j["inputSchema"] = t.input_schema;
    if (t.output_schema && at_least("2025-06-18")) j["outputSchema"] = *t.output_schema;
    if (!t.annotations.empty() && at_least("2025-03-26")) j["annotations"] = t.annotations;
    tools.push_back(std::move(j));
  }
  return Json{{"tools", std::move(tools)}};
}

Json Session::call_tool(const Json& params, bool* ok, Json* error) {
  auto name_it = params.find("name");
  if (name_it == params.end() || !name_it->is_string()) {
    *ok = false;
    *error = Json{{"code", kInvalidParams}, {"message", "tools/call needs a string \"name\""}};
    return nullptr;
  }
  std::string name = name_it->get<std::string>();
  const Tool* tool = find_tool(name);
  ToolResult result;
  if (tool == nullptr) {
    result = ToolResult::error("cave_unknown_tool", "no tool named \"" + name + "\"");
  } else {
    Json args = Json::object();
    auto args_it = params.find("arguments");
    if (args_it != params.end() && !args_it->is_null()) {
      if (!args_it->is_object()) {
        *ok = false;
        *error = Json{{"code", kInvalidParams}, {"message", "\"arguments\" must be an object"}};
        return nullptr;
      }
      args = *args_it;
    } else {
      auto req = tool->input_schema.find("required");
      if (req != tool->input_schema.end() && req->is_array() && !req->empty()) {
        *ok = false;
        *error = Json{{"code", kInvalidParams},
                      {"message", "tools/call " + name + " needs \"arguments\""}};
        return nullptr;
      }
    }
    try {
      result = tool->handler(args, CallContext{protocol_version_});
    } catch (const std::exception& e) {
      result = ToolResult::error("cave_tool_panicked", std::string("tool failed: ") + e.what());
    } catch (...) {
      result = ToolResult::error("cave_tool_panicked", "tool failed");
    }
    if (!tool->exempt_result_cap) {
      std::size_t bytes = 0;
      for (const std::string& t : result.texts) bytes += t.size();
      if (bytes > options_.max_result_bytes) {
        result = ToolResult::error(
            "cave_payload_too_large",
            "result of " + std::to_string(bytes) + " bytes exceeds the " +
                std::to_string(options_.max_result_bytes) + "-byte cap");
      }
    }
  }
  Json content = Json::array();
  for (std::string& t : result.texts) content.push_back(Json{{"type", "text"}, {"text", std::move(t)}});
  Json out = Json::object();
  out["content"] = std::move(content);
  if (result.structured && at_least("2025-06-18")) out["structuredContent"] = *result.structured;
  out["isError"] = result.is_error;
  return out;
}

Json Session::dispatch(const std::string& method, const Json& params, bool* ok) {
  *ok = true;
  if (method == "initialize") return initialize(params);
  if (method == "ping") return Json::object();
  if (method == "tools/list") return list_tools();
  if (method == "tools/call") {
    Json error;
    Json r = call_tool(params, ok, &error);
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
    result = dispatch(method, params, &ok);
  } catch (const std::exception& e) {
    return error_response(id, kInternalError, std::string("cave_internal_error: ") + e.what());
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
  std::lock_guard<std::mutex> lock(mu_);
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
    reply = error_response(nullptr, kInternalError, std::string("cave_internal_error: ") + e.what());
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
                                  "cave_payload_too_large: line exceeds " +
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
