#include "native/protocol.h"

#include <nlohmann/json.hpp>

#include "caveman/base/codes.h"
#include "caveman/base/enum_names.h"
#include "caveman/base/text.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

constexpr base::EnumName<EventType> kEvents[] = {
    {EventType::kSessionStart, "session.start"},
    {EventType::kPromptSubmit, "prompt.submit"},
    {EventType::kModelBefore, "model.before"},
    {EventType::kModelAfter, "model.after"},
    {EventType::kToolBefore, "tool.before"},
    {EventType::kToolAfter, "tool.after"},
    {EventType::kToolFailure, "tool.failure"},
    {EventType::kCompactBefore, "context.compact.before"},
    {EventType::kCompactAfter, "context.compact.after"},
    {EventType::kTurnStop, "turn.stop"},
    {EventType::kSessionEnd, "session.end"},
    {EventType::kSubagentStart, "subagent.start"},
    {EventType::kSubagentStop, "subagent.stop"},
};
constexpr base::EnumName<PolicyMode> kPolicies[] = {
    {PolicyMode::kRecord, "record"}, {PolicyMode::kSafe, "safe"}, {PolicyMode::kMax, "max"}};
constexpr base::EnumName<Action> kActions[] = {{Action::kAllow, "allow"},
                                               {Action::kObserve, "observe"},
                                               {Action::kBlock, "block"},
                                               {Action::kAsk, "ask"},
                                               {Action::kDefer, "defer"}};

Status bad(std::string message) {
  return Status::InvalidArgument(codes::kNativeBadRequest, std::move(message));
}

// Optional string member; a present non-string value is an error.
Status get_string(const Json& obj, const char* key, std::string* out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return Status::Ok();
  if (!it->is_string()) return bad(std::string(key) + " must be a string");
  *out = it->get<std::string>();
  return Status::Ok();
}

Status get_int(const Json& obj, const char* key, std::int64_t* out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return Status::Ok();
  if (!it->is_number_integer()) return bad(std::string(key) + " must be an integer");
  *out = it->get<std::int64_t>();
  return Status::Ok();
}

Status optional_object(const Json& obj, const char* key, const Json** out) {
  auto it = obj.find(key);
  *out = nullptr;
  if (it == obj.end() || it->is_null()) return Status::Ok();
  if (!it->is_object()) return bad(std::string(key) + " must be an object");
  *out = &*it;
  return Status::Ok();
}

Result<std::string> decode_output(const Json& out) {
  if (out.is_string()) return out.get<std::string>();
  if (!out.is_object()) return bad("tool.output must be {bytes} or {base64}");
  if (auto it = out.find("bytes"); it != out.end() && it->is_string()) return it->get<std::string>();
  if (auto it = out.find("base64"); it != out.end() && it->is_string()) {
    std::optional<std::string> bytes = base64_decode(it->get_ref<const std::string&>());
    if (!bytes) return bad("tool.output.base64 is not valid base64");
    return *bytes;
  }
  return bad("tool.output must be {bytes} or {base64}");
}

std::string capped(std::string_view s, std::size_t max) { return std::string(utf8_prefix(s, max)); }

}  // namespace

std::string_view event_name(EventType type) { return base::name_of(kEvents, type, "unknown"); }

EventType parse_event_type(std::string_view name) {
  return base::value_named(kEvents, name).value_or(EventType::kUnknown);
}

std::string_view policy_name(PolicyMode mode) { return base::name_of(kPolicies, mode, "safe"); }

std::optional<PolicyMode> parse_policy(std::string_view name) {
  if (name.empty()) return PolicyMode::kSafe;  // the default when a request names none
  return base::value_named(kPolicies, name);
}

std::string_view action_name(Action action) { return base::name_of(kActions, action, "allow"); }

Result<NativeRequest> parse_request(std::string_view text) {
  if (text.size() > kMaxRequestBytes) return bad("request larger than 2 MiB");
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return bad("request is not a JSON object");
  NativeRequest r;
  auto pv = doc.find("protocol_version");
  if (pv == doc.end() || !pv->is_number_integer() || pv->get<std::int64_t>() != kProtocolVersion) {
    return bad("protocol_version must be 1");
  }
  std::string policy;
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "policy_mode", &policy));
  std::optional<PolicyMode> mode = parse_policy(policy);
  if (!mode) return bad("unknown policy_mode");
  r.policy = *mode;
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "profile", &r.profile));

  const Json* agent = nullptr;
  CAVEMAN_RETURN_IF_ERROR(optional_object(doc, "agent", &agent));
  if (agent != nullptr) {
    CAVEMAN_RETURN_IF_ERROR(get_string(*agent, "id", &r.agent_id));
    CAVEMAN_RETURN_IF_ERROR(get_string(*agent, "version", &r.agent_version));
    CAVEMAN_RETURN_IF_ERROR(get_string(*agent, "surface", &r.agent_surface));
  }
  const Json* session = nullptr;
  CAVEMAN_RETURN_IF_ERROR(optional_object(doc, "session", &session));
  if (session == nullptr) return bad("session is required");
  CAVEMAN_RETURN_IF_ERROR(get_string(*session, "caveman_session_id", &r.session_id));
  if (r.session_id.find_first_not_of(" \t\r\n") == std::string::npos) {
    return bad("session.caveman_session_id is required");
  }
  CAVEMAN_RETURN_IF_ERROR(get_string(*session, "host_session_id", &r.host_session_id));
  CAVEMAN_RETURN_IF_ERROR(get_string(*session, "parent_session_id", &r.parent_session_id));
  CAVEMAN_RETURN_IF_ERROR(get_string(*session, "cwd", &r.cwd));
  CAVEMAN_RETURN_IF_ERROR(get_string(*session, "repository_state", &r.repository_state));

  const Json* event = nullptr;
  CAVEMAN_RETURN_IF_ERROR(optional_object(doc, "event", &event));
  if (event == nullptr) return bad("event is required");
  CAVEMAN_RETURN_IF_ERROR(get_string(*event, "type", &r.event_type));
  if (r.event_type.empty()) return bad("event.type is required");
  r.event = parse_event_type(r.event_type);
  CAVEMAN_RETURN_IF_ERROR(get_int(*event, "timestamp_ms", &r.timestamp_ms));

  const Json* model = nullptr;
  CAVEMAN_RETURN_IF_ERROR(optional_object(doc, "model", &model));
  if (model != nullptr) {
    CAVEMAN_RETURN_IF_ERROR(get_string(*model, "provider", &r.model_provider));
    CAVEMAN_RETURN_IF_ERROR(get_string(*model, "model", &r.model));
  }
  const Json* prompt = nullptr;
  CAVEMAN_RETURN_IF_ERROR(optional_object(doc, "prompt", &prompt));
  if (prompt != nullptr) {
    // Only a digest is accepted: a request that carries prompt text is refused outright.
    if (prompt->contains("text")) return bad("prompt text never crosses the socket");
    r.prompt_bytes = 0;
    CAVEMAN_RETURN_IF_ERROR(get_int(*prompt, "bytes", &r.prompt_bytes));
    CAVEMAN_RETURN_IF_ERROR(get_string(*prompt, "sha256", &r.prompt_sha256));
  }
  const Json* profile = nullptr;
  CAVEMAN_RETURN_IF_ERROR(optional_object(doc, "task_profile", &profile));
  if (profile != nullptr) {
    CAVEMAN_RETURN_IF_ERROR(get_string(*profile, "type", &r.task_type));
    if (auto it = profile->find("terms"); it != profile->end() && it->is_array()) {
      for (const Json& t : *it) {
        if (t.is_string() && r.task_terms.size() < 32) r.task_terms.push_back(t.get<std::string>());
      }
    }
    if (auto it = profile->find("continuation"); it != profile->end() && it->is_boolean()) {
      r.continuation = it->get<bool>();
    }
  }
  const Json* tool = nullptr;
  CAVEMAN_RETURN_IF_ERROR(optional_object(doc, "tool", &tool));
  if (tool != nullptr) {
    ToolCall call;
    CAVEMAN_RETURN_IF_ERROR(get_string(*tool, "name", &call.name));
    CAVEMAN_RETURN_IF_ERROR(get_string(*tool, "input_state", &call.input_state));
    if (auto it = tool->find("input"); it != tool->end() && !it->is_null()) {
      call.input_json = it->dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    if (auto it = tool->find("output"); it != tool->end() && !it->is_null()) {
      CAVEMAN_ASSIGN_OR_RETURN(std::string out, decode_output(*it));
      call.output = std::move(out);
    }
    r.tool = std::move(call);
  }
  return r;
}

std::string response_json(const NativeResponse& r) {
  Json j = Json::object();
  j["protocol_version"] = kProtocolVersion;
  j["policy_mode"] = policy_name(r.policy);
  j["profile"] = r.profile;
  j["action"] = action_name(r.action);
  if (!r.context.empty()) j["context"] = capped(r.context, kMaxContextBytes);
  if (!r.message.empty()) j["message"] = capped(r.message, kMaxMessageBytes);
  if (r.output_replacement) j["output_replacement"] = capped(*r.output_replacement, kMaxReplacementBytes);
  if (!r.recovery_ref.empty()) j["recovery_ref"] = capped(r.recovery_ref, kMaxRecoveryRefBytes);
  if (!r.decision_id.empty()) j["decision_id"] = capped(r.decision_id, kMaxDecisionIdBytes);
  j["visibility"] = r.visibility;
  j["fail_open"] = true;
  j["runtime_us"] = r.runtime_us;
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<NativeResponse> parse_response(std::string_view text) {
  Json doc = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return bad("response is not a JSON object");
  auto pv = doc.find("protocol_version");
  auto fo = doc.find("fail_open");
  if (pv == doc.end() || !pv->is_number_integer() || pv->get<std::int64_t>() != kProtocolVersion ||
      fo == doc.end() || !fo->is_boolean() || !fo->get<bool>()) {
    return bad("not a protocol-1 fail-open response");
  }
  NativeResponse r;
  std::string text_value;
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "policy_mode", &text_value));
  r.policy = parse_policy(text_value).value_or(PolicyMode::kSafe);
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "profile", &r.profile));
  std::string action;
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "action", &action));
  r.action = base::value_named(kActions, action).value_or(Action::kAllow);
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "context", &r.context));
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "message", &r.message));
  if (auto it = doc.find("output_replacement"); it != doc.end() && it->is_string()) {
    r.output_replacement = it->get<std::string>();
  }
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "recovery_ref", &r.recovery_ref));
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "decision_id", &r.decision_id));
  CAVEMAN_RETURN_IF_ERROR(get_string(doc, "visibility", &r.visibility));
  CAVEMAN_RETURN_IF_ERROR(get_int(doc, "runtime_us", &r.runtime_us));
  return r;
}

std::string request_json(const NativeRequest& r) {
  Json j = Json::object();
  j["protocol_version"] = r.protocol_version;
  j["policy_mode"] = policy_name(r.policy);
  if (!r.profile.empty()) j["profile"] = r.profile;
  Json agent = {{"id", r.agent_id}};
  if (!r.agent_version.empty()) agent["version"] = r.agent_version;
  if (!r.agent_surface.empty()) agent["surface"] = r.agent_surface;
  j["agent"] = agent;
  Json session = {{"caveman_session_id", r.session_id}};
  if (!r.host_session_id.empty()) session["host_session_id"] = r.host_session_id;
  if (!r.parent_session_id.empty()) session["parent_session_id"] = r.parent_session_id;
  if (!r.cwd.empty()) session["cwd"] = r.cwd;
  if (!r.repository_state.empty()) session["repository_state"] = r.repository_state;
  j["session"] = session;
  Json event = {{"type", r.event_type.empty() ? std::string(event_name(r.event)) : r.event_type}};
  if (r.timestamp_ms > 0) event["timestamp_ms"] = r.timestamp_ms;
  j["event"] = event;
  if (!r.model.empty() || !r.model_provider.empty()) {
    j["model"] = {{"provider", r.model_provider}, {"model", r.model}};
  }
  if (r.prompt_bytes >= 0) j["prompt"] = {{"bytes", r.prompt_bytes}, {"sha256", r.prompt_sha256}};
  if (!r.task_type.empty() || !r.task_terms.empty() || r.continuation) {
    j["task_profile"] = {{"type", r.task_type}, {"terms", r.task_terms}, {"continuation", r.continuation}};
  }
  if (r.tool) {
    Json tool = {{"name", r.tool->name}};
    if (!r.tool->input_json.empty()) {
      Json input = Json::parse(r.tool->input_json, nullptr, false);
      if (!input.is_discarded()) tool["input"] = std::move(input);
    }
    if (!r.tool->input_state.empty()) tool["input_state"] = r.tool->input_state;
    if (r.tool->output) {
      if (base::is_valid_utf8(*r.tool->output)) {
        tool["output"] = {{"bytes", *r.tool->output}};
      } else {
        tool["output"] = {{"base64", base64_encode(*r.tool->output)}};
      }
    }
    j["tool"] = std::move(tool);
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string_view utf8_prefix(std::string_view s, std::size_t max) {
  if (s.size() <= max) return s;
  std::size_t end = max;
  // Step back over continuation bytes so the cut lands on a sequence start.
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return s.substr(0, end);
}

std::string dump_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace caveman::proxy::native
