#include "native/runtime.h"

#include <chrono>
#include <nlohmann/json.hpp>

#include "live_zone.h"
#include "native/masking.h"
#include "native/session_marker.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

Json agent_json(const NativeRequest& r) {
  Json a = {{"id", r.agent_id}};
  if (!r.agent_version.empty()) a["version"] = r.agent_version;
  if (!r.agent_surface.empty()) a["surface"] = r.agent_surface;
  return a;
}

ccr::TypedObject base_object(const NativeRequest& r, std::string type, std::string source) {
  ccr::TypedObject o;
  o.type = std::move(type);
  o.source = std::move(source);
  o.session_id = r.session_id;
  o.repository_state = r.repository_state;
  o.transform_version = std::string(kTransformVersion);
  return o;
}

}  // namespace

NativeRuntime::NativeRuntime(std::shared_ptr<ccr::Store> store, RuntimeOptions options)
    : store_(std::move(store)), engine_(store_), options_(std::move(options)) {}

std::optional<std::string> NativeRuntime::handle_json(std::string_view request) const {
  Result<NativeRequest> r = parse_request(request);
  if (!r.ok()) return std::nullopt;
  return response_json(handle(*r));
}

NativeResponse NativeRuntime::handle(const NativeRequest& r) const {
  auto start = std::chrono::steady_clock::now();
  NativeResponse resp;
  resp.policy = options_.force_record ? PolicyMode::kRecord : r.policy;
  resp.profile = r.profile.empty() ? (resp.policy == PolicyMode::kRecord ? "record-only" : "core")
                                   : r.profile;
  switch (r.event) {
    case EventType::kSessionStart:
      resp = on_session_start(r, std::move(resp));
      break;
    case EventType::kPromptSubmit:
      resp = on_prompt_submit(r, std::move(resp));
      break;
    case EventType::kToolAfter:
      resp = on_tool_after(r, std::move(resp));
      break;
    case EventType::kCompactAfter:
      set_session_lifecycle(r.session_id, "hot", "warm");
      resp.action = Action::kObserve;
      break;
    case EventType::kSessionEnd:
      set_session_lifecycle(r.session_id, "", "cold");
      resp.action = Action::kObserve;
      break;
    case EventType::kUnknown:
      // A newer host may send events this runtime does not know: observe, never refuse.
      resp.action = Action::kObserve;
      break;
    default:
      resp.action = Action::kAllow;
      break;
  }
  resp.runtime_us = std::chrono::duration_cast<std::chrono::microseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
  return resp;
}

NativeResponse NativeRuntime::on_session_start(const NativeRequest& r, NativeResponse resp) const {
  resp.action = Action::kObserve;
  Json data = {{"kind", "session"}, {"session_id", r.session_id}, {"agent", agent_json(r)}};
  if (!r.host_session_id.empty()) data["host_session_id"] = r.host_session_id;
  if (!r.parent_session_id.empty()) data["parent_session_id"] = r.parent_session_id;
  if (!r.cwd.empty()) data["cwd"] = r.cwd;
  if (!r.model.empty()) data["model"] = {{"provider", r.model_provider}, {"model", r.model}};
  if (r.timestamp_ms > 0) data["started_ms"] = r.timestamp_ms;
  ccr::TypedObject o = base_object(r, "TaskContract", "native:session.start");
  o.data = dump_json(data);
  if (store_) (void)store_->put_object(std::move(o));  // the ledger is best effort
  if (!options_.marker_key.empty()) {
    Result<std::string> marker = make_marker(options_.marker_key, r.session_id);
    if (marker.ok()) resp.context = *marker;
  }
  return resp;
}

NativeResponse NativeRuntime::on_prompt_submit(const NativeRequest& r, NativeResponse resp) const {
  resp.action = Action::kObserve;
  if (!store_) return resp;
  Json data = {{"kind", "prompt"}, {"session_id", r.session_id}};
  if (r.prompt_bytes >= 0) data["prompt"] = {{"bytes", r.prompt_bytes}, {"sha256", r.prompt_sha256}};
  data["task_profile"] = {{"type", r.task_type}, {"terms", r.task_terms}, {"continuation", r.continuation}};
  if (r.timestamp_ms > 0) data["submitted_ms"] = r.timestamp_ms;
  ccr::TypedObject o = base_object(r, "TaskContract", "native:prompt.submit");
  o.data = dump_json(data);
  Result<ccr::TypedObject> put = store_->put_object(std::move(o));
  if (!put.ok()) return resp;
  // The newest contract is the current one; earlier contracts of the session go stale.
  Result<std::vector<ccr::TypedObject>> all = store_->list_session_objects(r.session_id, 10000);
  if (!all.ok()) return resp;
  for (const ccr::TypedObject& other : *all) {
    if (other.type == "TaskContract" && other.object_id != put->object_id &&
        other.currentness == "current") {
      (void)store_->set_object_currentness(other.object_id, "stale");
    }
  }
  return resp;
}

NativeResponse NativeRuntime::on_tool_after(const NativeRequest& r, NativeResponse resp) const {
  resp.action = Action::kAllow;
  if (!r.tool || !r.tool->output || r.tool->output->size() <= options_.mask_threshold_bytes) {
    return resp;
  }
  // A retrieve's answer is the exact original the model asked for: compressing it again would
  // hand back the view it could not answer from, and the next retrieve would get the same.
  if (is_retrieve_tool_name(r.tool->name)) return resp;
  if (resp.policy == PolicyMode::kRecord) {
    resp.action = Action::kObserve;
    return resp;
  }
  if (!store_) return resp;
  MaskInput in{r.session_id, r.repository_state, r.tool->name, r.tool->input_json, *r.tool->output,
               resp.policy};
  Result<MaskOutcome> mask = mask_tool_output(engine_, *store_, in);
  if (!mask.ok() || !mask->replaced) return resp;  // fail open: the host keeps the original

  // The Decision Ledger entry that `caveman-proxy native-why` explains.
  Json decision = {
      {"decision_id", mask->decision_id},
      {"event", event_name(r.event)},
      {"policy_mode", policy_name(resp.policy)},
      {"tool", r.tool->name},
      {"action", mask->method == "ccr-pointer" ? "mask" : "compress"},
      {"reason", mask->reason},
      {"recovery_ref", mask->recovery_ref},
      {"content_type", mask->content_type},
      {"method", mask->method},
      {"original_bytes", r.tool->output->size()},
      {"replacement_bytes", mask->replacement.size()},
      {"tokens_before", mask->tokens_before},
      {"tokens_after", mask->tokens_after},
      {"basis", "inferred"},
  };
  ccr::TypedObject o = base_object(r, "TaskDecision", "native:decision");
  o.data = dump_json(decision);
  if (!mask->object_id.empty()) o.dependencies.push_back(mask->object_id);
  if (Result<ccr::TypedObject> put = store_->put_object(std::move(o)); put.ok()) {
    resp.decision_id = mask->decision_id;
  }
  resp.output_replacement = std::move(mask->replacement);
  resp.recovery_ref = mask->recovery_ref;
  resp.visibility = "advisory";
  resp.action = Action::kAllow;
  return resp;
}

void NativeRuntime::set_session_lifecycle(const std::string& session, std::string_view from,
                                          std::string_view to) const {
  if (!store_) return;
  Result<std::vector<ccr::TypedObject>> all = store_->list_session_objects(session, 10000);
  if (!all.ok()) return;
  for (const ccr::TypedObject& o : *all) {
    if ((from.empty() || o.lifecycle == from) && o.lifecycle != to && o.lifecycle != "archived") {
      (void)store_->set_object_lifecycle(o.object_id, to);
    }
  }
}

}  // namespace caveman::proxy::native
