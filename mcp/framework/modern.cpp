#include "modern.h"

#include "caveman/base/codes.h"
#include "mcp_server.h"

namespace caveman::mcp {
namespace {

constexpr std::string_view kLogLevels[] = {"debug",    "info",  "notice", "warning",
                                           "error",    "critical", "alert", "emergency"};

Json invalid_params(std::string message) {
  return Json{{"code", kInvalidParams}, {"message", std::move(message)}};
}

}  // namespace

bool carries_request_meta(std::string_view method, const Json& params) {
  if (method == "server/discover") return true;
  auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return false;
  return meta->contains(std::string(kMetaProtocolVersion)) ||
         meta->contains(std::string(kMetaClientCapabilities));
}

std::optional<Json> parse_request_meta(const Json& params, RequestMeta* out) {
  auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) {
    return invalid_params("params._meta with the per-request protocol fields is required");
  }
  auto version = meta->find(std::string(kMetaProtocolVersion));
  if (version == meta->end() || !version->is_string()) {
    return invalid_params("_meta needs a string \"" + std::string(kMetaProtocolVersion) + "\"");
  }
  auto caps = meta->find(std::string(kMetaClientCapabilities));
  if (caps == meta->end() || !caps->is_object()) {
    return invalid_params("_meta needs an object \"" + std::string(kMetaClientCapabilities) + "\"");
  }
  out->protocol_version = version->get<std::string>();
  out->client_capabilities = *caps;
  if (auto level = meta->find(std::string(kMetaLogLevel)); level != meta->end()) {
    bool known = false;
    for (std::string_view l : kLogLevels) known = known || (level->is_string() && *level == l);
    if (!known) return invalid_params("_meta \"" + std::string(kMetaLogLevel) + "\" is not a log level");
    out->log_level = level->get<std::string>();
  }
  return std::nullopt;
}

Json supported_versions() {
  Json v = Json::array({std::string(kModernVersion)});
  for (std::size_t i = std::size(kProtocolVersions); i > 0; --i) {
    v.push_back(std::string(kProtocolVersions[i - 1]));
  }
  return v;
}

bool is_supported_version(std::string_view version) {
  if (version == kModernVersion) return true;
  for (std::string_view v : kProtocolVersions) {
    if (v == version) return true;
  }
  return false;
}

Json unsupported_version_error(std::string_view requested) {
  return Json{{"code", kUnsupportedProtocolVersion},
              {"message", "Unsupported protocol version"},
              {"data", {{"supported", supported_versions()}, {"requested", std::string(requested)}}}};
}

Json missing_capability_error(const Json& required) {
  return Json{{"code", kMissingRequiredClientCapability},
              {"message", "Missing required client capability"},
              {"data", {{"requiredCapabilities", required}}}};
}

bool removed_in_modern(std::string_view method) {
  return method == "ping" || method == "logging/setLevel" || method == "resources/subscribe" ||
         method == "resources/unsubscribe" || method == "initialize" ||
         method == "notifications/initialized";
}

std::string capability_for_input(std::string_view method) {
  if (method == "elicitation/create") return "elicitation";
  if (method == "sampling/createMessage") return "sampling";
  if (method == "roots/list") return "roots";
  return "";
}

// ---- Session: the modern era ----------------------------------------------------------

Json Session::server_meta() const {
  Json info = Json{{"name", info_.name}, {"version", info_.version}};
  if (!info_.title.empty()) info["title"] = info_.title;
  return Json{{std::string(kMetaServerInfo), std::move(info)}};
}

Json Session::dispatch_per_request(const std::string& method, const Json& params, bool* ok) {
  RequestMeta meta;
  if (std::optional<Json> error = parse_request_meta(params, &meta)) {
    *ok = false;
    return *error;
  }
  if (!is_supported_version(meta.protocol_version)) {
    *ok = false;
    return unsupported_version_error(meta.protocol_version);
  }
  // A legacy version named per request gets that version's rules, without a handshake and
  // without touching this session's negotiated state.
  if (meta.protocol_version != kModernVersion && method != "initialize") {
    return dispatch(method, params, meta.protocol_version, ok);
  }
  Json result = dispatch_modern(method, params, meta.client_capabilities, ok);
  if (!*ok) return result;
  if (!result.contains("resultType")) result["resultType"] = "complete";
  result["_meta"] = server_meta();
  return result;
}

Json Session::dispatch_modern(const std::string& method, const Json& params,
                              const Json& capabilities, bool* ok) {
  *ok = true;
  if (method == "server/discover") return discover();
  if (method == "tools/list") {
    Json r = list_tools(kModernVersion);
    r["ttlMs"] = kListTtlMs;
    r["cacheScope"] = "public";
    return r;
  }
  if (method == "tools/call") return call_tool_modern(params, capabilities, ok);
  *ok = false;
  if (removed_in_modern(method)) {
    return Json{{"code", kMethodNotFound},
                {"message", "method not found: " + method + " was removed in " +
                                std::string(kModernVersion)}};
  }
  return Json{{"code", kMethodNotFound}, {"message", "method not found: " + method}};
}

Json Session::discover() const {
  Json r = Json::object();
  r["resultType"] = "complete";
  r["supportedVersions"] = supported_versions();
  r["capabilities"] = Json{{"tools", Json::object()}};
  Json info = Json{{"name", info_.name}, {"version", info_.version}};
  if (!info_.title.empty()) info["title"] = info_.title;
  r["serverInfo"] = std::move(info);
  if (!info_.instructions.empty()) r["instructions"] = info_.instructions;
  r["ttlMs"] = kListTtlMs;
  r["cacheScope"] = "public";
  return r;
}

Json Session::call_tool_modern(const Json& params, const Json& capabilities, bool* ok) {
  const Tool* tool = nullptr;
  Json args;
  Json error;
  if (!resolve_call(params, &tool, &args, &error)) {
    *ok = false;
    return error;
  }
  std::string name = params["name"].get<std::string>();
  if (tool == nullptr) {
    return tool_result_json(
        ToolResult::error(codes::kUnknownTool, "no tool named \"" + name + "\""), kModernVersion);
  }
  CallContext ctx;
  ctx.protocol_version = std::string(kModernVersion);
  ctx.modern = true;
  ctx.client_capabilities = capabilities;
  if (auto it = params.find("inputResponses"); it != params.end() && !it->is_null()) {
    if (!it->is_object()) {
      *ok = false;
      return invalid_params("\"inputResponses\" must be an object");
    }
    // Our servers only ever ask through elicitation: answers from a client that did not
    // declare it cannot be interpreted.
    if (!ctx.client_has("elicitation")) {
      *ok = false;
      return missing_capability_error(Json{{"elicitation", Json::object()}});
    }
    ctx.input_responses = *it;
  }
  if (auto it = params.find("requestState"); it != params.end() && !it->is_null()) {
    Result<Json> state =
        it->is_string()
            ? state_codec_.open(it->get_ref<const std::string&>(), "tools/call", name, args)
            : Result<Json>(Status::InvalidArgument(codes::kInvalidRequestState,
                                                   "requestState must be a string"));
    if (!state.ok()) {
      *ok = false;
      return invalid_params(state.status().error_code() + ": " + state.status().message());
    }
    ctx.state = std::move(state).value();
  }
  ToolResult result = run_tool(*tool, args, ctx);
  if (!result.input_required) return tool_result_json(std::move(result), kModernVersion);
  Json missing = Json::object();
  for (const auto& [key, request] : result.input_required->input_requests.items()) {
    const bool named = request.is_object() && request.contains("method") && request["method"].is_string();
    std::string cap = named ? capability_for_input(request["method"].get<std::string>()) : "";
    if (cap.empty() || !ctx.client_has(cap)) missing[cap.empty() ? key : cap] = Json::object();
  }
  if (!missing.empty()) {
    *ok = false;
    return missing_capability_error(missing);
  }
  Json r = Json::object();
  r["resultType"] = "input_required";
  r["inputRequests"] = std::move(result.input_required->input_requests);
  r["requestState"] = state_codec_.seal("tools/call", name, args, result.input_required->state);
  return r;
}

}  // namespace caveman::mcp
