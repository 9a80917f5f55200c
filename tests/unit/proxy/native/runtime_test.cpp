// The native runtime's behaviours on an ephemeral store: task contracts and their
// currentness, tool-output masking (compressed in place vs ccr:// typed-object stubs, both
// retrievable exactly), the Decision Ledger, lifecycle updates, record policy, unknown
// events, and the typed-object collision rule.
#include "native/runtime.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "native/session_marker.h"
#include "support/test_support.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

std::shared_ptr<ccr::Store> memory_store() {
  Result<std::unique_ptr<ccr::Store>> s = ccr::open_store(std::string(ccr::kMemoryPath));
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  return std::shared_ptr<ccr::Store>(std::move(s).value());
}

NativeRequest request(EventType event, std::string session = "claude:s1") {
  NativeRequest r;
  r.agent_id = "claude";
  r.session_id = std::move(session);
  r.event = event;
  r.event_type = std::string(event_name(event));
  return r;
}

NativeRequest tool_after(std::string name, std::string input_json, std::string output) {
  NativeRequest r = request(EventType::kToolAfter);
  r.tool = ToolCall{std::move(name), std::move(input_json), "", std::move(output)};
  return r;
}

std::string log_output(int lines) {
  std::string s;
  for (int i = 0; i < lines; ++i) {
    s += "2026-11-30T10:00:" + std::to_string(10 + i % 50) + "Z INFO worker-" +
         std::to_string(i % 7) + " processed batch " + std::to_string(i) + " in 12ms\n";
    if (i % 997 == 0)
      s += "2026-11-30T10:00:00Z ERROR worker-3 failed batch " + std::to_string(i) + ": timeout\n";
  }
  return s;
}

// Prose the engine detects as text: under policy safe it is masked as a typed object.
std::string opaque_output(std::size_t bytes) {
  static constexpr const char* kWords[] = {"the",      "river",   "carried", "small", "stones",
                                           "past",     "an",      "old",     "mill",  "while",
                                           "children", "watched", "from",    "bridge"};
  std::string s;
  std::uint32_t x = 12345;
  int words = 0;
  while (s.size() < bytes) {
    x = x * 1103515245u + 12345u;
    s += kWords[(x >> 16) % 14];
    s += ++words % 11 == 0 ? ".\n" : " ";
  }
  return s;
}

class NativeRuntimeTest : public ::testing::Test {
 protected:
  std::shared_ptr<ccr::Store> store_ = memory_store();
  RuntimeOptions options_{kDefaultMaskThresholdBytes, false, std::string(32, 'k')};
  NativeRuntime rt_{store_, options_};
  Engine engine_{store_};

  std::vector<ccr::TypedObject> objects(const std::string& session = "claude:s1") {
    Result<std::vector<ccr::TypedObject>> all = store_->list_session_objects(session, 0);
    EXPECT_TRUE(all.ok());
    return all.ok() ? *all : std::vector<ccr::TypedObject>{};
  }
};

TEST_F(NativeRuntimeTest, SessionStartRecordsContractAndAnswersWithSignedMarker) {
  NativeRequest r = request(EventType::kSessionStart);
  r.cwd = "/work/project";
  NativeResponse resp = rt_.handle(r);
  EXPECT_EQ(resp.action, Action::kObserve);
  EXPECT_EQ(resp.context, *make_marker(options_.marker_key, "claude:s1"));
  std::vector<ccr::TypedObject> objs = objects();
  ASSERT_EQ(objs.size(), 1u);
  EXPECT_EQ(objs[0].type, "TaskContract");
  EXPECT_EQ(objs[0].currentness, "current");
  EXPECT_EQ(objs[0].lifecycle, "hot");
  EXPECT_EQ(Json::parse(objs[0].data)["cwd"], "/work/project");
}

TEST_F(NativeRuntimeTest, NewPromptContractMakesOlderContractsStale) {
  rt_.handle(request(EventType::kSessionStart));
  NativeRequest p = request(EventType::kPromptSubmit);
  p.prompt_bytes = 42;
  p.prompt_sha256 = std::string(64, 'e');
  p.task_type = "test";
  p.timestamp_ms = 1;
  EXPECT_EQ(rt_.handle(p).action, Action::kObserve);
  p.prompt_sha256 = std::string(64, 'f');
  p.timestamp_ms = 2;
  rt_.handle(p);
  int current = 0;
  int stale = 0;
  for (const ccr::TypedObject& o : objects()) {
    ASSERT_EQ(o.type, "TaskContract");
    EXPECT_EQ(o.data.find("secret"), std::string::npos);
    (o.currentness == "current" ? current : stale) += 1;
  }
  EXPECT_EQ(current, 1);
  EXPECT_EQ(stale, 2);
}

TEST_F(NativeRuntimeTest, SmallToolOutputIsLeftAlone) {
  NativeResponse resp = rt_.handle(tool_after("Bash", "{\"command\":\"ls\"}", "a\nb\n"));
  EXPECT_EQ(resp.action, Action::kAllow);
  EXPECT_FALSE(resp.output_replacement);
  EXPECT_TRUE(objects().empty());
}

TEST_F(NativeRuntimeTest, BigLogIsCompressedInPlaceAndRecoverable) {
  std::string out = log_output(6000);
  ASSERT_EQ(detect(out), "log");
  NativeResponse resp = rt_.handle(tool_after("Bash", "{\"command\":\"./server --verbose\"}", out));
  ASSERT_TRUE(resp.output_replacement);
  EXPECT_LT(resp.output_replacement->size(), out.size() / 4);
  EXPECT_EQ(resp.recovery_ref.rfind("ccr_", 0), 0u);
  EXPECT_NE(resp.output_replacement->find(resp.recovery_ref), std::string::npos);
  EXPECT_NE(resp.output_replacement->find("ERROR worker-3"), std::string::npos);
  Result<std::string> back = engine_.retrieve(resp.recovery_ref);
  ASSERT_OK(back);
  EXPECT_EQ(*back, out);
  // The Decision Ledger explains it.
  ASSERT_FALSE(resp.decision_id.empty());
  Result<std::optional<ccr::TypedObject>> d = store_->find_task_decision(resp.decision_id);
  ASSERT_OK(d);
  ASSERT_TRUE(d->has_value());
  Json data = Json::parse((*d)->data);
  EXPECT_EQ(data["action"], "compress");
  EXPECT_EQ(data["content_type"], "log");
  EXPECT_EQ(data["recovery_ref"], resp.recovery_ref);
}

TEST_F(NativeRuntimeTest, OpaqueOutputBecomesTypedObjectStub) {
  std::string out = opaque_output(std::size_t{200} * 1024);
  ASSERT_EQ(detect(out), "text");
  NativeResponse resp = rt_.handle(tool_after("Bash", "{\"command\":\"pytest -q\"}", out));
  ASSERT_TRUE(resp.output_replacement);
  ASSERT_EQ(resp.recovery_ref.rfind("ccr://ccr_obj_", 0), 0u) << resp.recovery_ref;
  std::string id = resp.recovery_ref.substr(6);
  EXPECT_NE(resp.output_replacement->find("ccr://" + id), std::string::npos);
  EXPECT_LT(resp.output_replacement->size(), 8000u);
  Result<std::string> back = engine_.retrieve(id);
  ASSERT_OK(back);
  EXPECT_EQ(*back, out);
  Result<ccr::TypedObject> o = store_->get_object(id);
  ASSERT_OK(o);
  EXPECT_EQ(o->type, "TestResult");
  EXPECT_EQ(o->session_id, "claude:s1");
  // The decision depends on the object; the same output again gives the same id.
  NativeResponse again = rt_.handle(tool_after("Bash", "{\"command\":\"pytest -q\"}", out));
  EXPECT_EQ(again.recovery_ref, resp.recovery_ref);
  EXPECT_EQ(again.decision_id, resp.decision_id);
  Result<std::optional<ccr::TypedObject>> d = store_->find_task_decision(resp.decision_id);
  ASSERT_TRUE(d.ok() && d->has_value());
  EXPECT_EQ((*d)->dependencies, std::vector<std::string>{id});
}

TEST_F(NativeRuntimeTest, ObjectKindsFollowTheTool) {
  EXPECT_EQ(object_kind_for("Read", tool_args_of("{}")), "FileObservation");
  EXPECT_EQ(object_kind_for("Grep", tool_args_of("{}")), "SearchResult");
  EXPECT_EQ(object_kind_for("WebFetch", tool_args_of("{}")), "DocumentationExcerpt");
  EXPECT_EQ(object_kind_for("mcp__browse__snapshot", tool_args_of("{}")), "BrowserSnapshot");
  EXPECT_EQ(object_kind_for("Bash", tool_args_of("{\"command\":\"cmake --build build\"}")),
            "BuildResult");
  EXPECT_EQ(object_kind_for("Bash", tool_args_of("{\"command\":\"go test ./...\"}")), "TestResult");
  EXPECT_EQ(object_kind_for("Bash", tool_args_of("{\"command\":\"git diff HEAD~1\"}")),
            "DiffSnapshot");
  EXPECT_EQ(object_kind_for("Bash", tool_args_of("{\"command\":\"echo hi\"}")), "CommandResult");
  EXPECT_EQ(object_kind_for("Bash", tool_args_of("not json")), "CommandResult");
}

TEST_F(NativeRuntimeTest, RecordPolicyTransformsNothing) {
  NativeRequest r = tool_after("Bash", "{}", log_output(6000));
  r.policy = PolicyMode::kRecord;
  NativeResponse resp = rt_.handle(r);
  EXPECT_EQ(resp.action, Action::kObserve);
  EXPECT_EQ(resp.policy, PolicyMode::kRecord);
  EXPECT_FALSE(resp.output_replacement);
  // A proxy in record mode overrides the host's policy.
  NativeRuntime recording(store_, RuntimeOptions{kDefaultMaskThresholdBytes, true, ""});
  NativeResponse forced = recording.handle(tool_after("Bash", "{}", log_output(6000)));
  EXPECT_FALSE(forced.output_replacement);
  EXPECT_EQ(forced.policy, PolicyMode::kRecord);
  EXPECT_TRUE(objects().empty());
}

TEST_F(NativeRuntimeTest, CompactCoolsHotObjectsAndSessionEndMakesThemCold) {
  rt_.handle(request(EventType::kSessionStart));
  rt_.handle(tool_after("Bash", "{}", opaque_output(std::size_t{40} * 1024)));
  rt_.handle(request(EventType::kCompactAfter));
  for (const ccr::TypedObject& o : objects()) EXPECT_EQ(o.lifecycle, "warm") << o.type;
  rt_.handle(request(EventType::kSessionEnd));
  for (const ccr::TypedObject& o : objects()) EXPECT_EQ(o.lifecycle, "cold") << o.type;
  EXPECT_EQ(objects().size(), 3u);  // contract, CommandResult, decision
}

TEST_F(NativeRuntimeTest, EveryEventTypeAnswersAndUnknownIsObserved) {
  for (EventType e : {EventType::kModelBefore, EventType::kModelAfter, EventType::kToolBefore,
                      EventType::kToolFailure, EventType::kCompactBefore, EventType::kTurnStop,
                      EventType::kSubagentStart, EventType::kSubagentStop}) {
    NativeResponse resp = rt_.handle(request(e));
    EXPECT_EQ(resp.action, Action::kAllow) << event_name(e);
    EXPECT_FALSE(resp.output_replacement);
  }
  NativeRequest unknown = request(EventType::kUnknown);
  unknown.event_type = "agent.dreamed";
  EXPECT_EQ(rt_.handle(unknown).action, Action::kObserve);
  std::optional<std::string> wire = rt_.handle_json(
      R"({"protocol_version":1,"session":{"caveman_session_id":"x"},"event":{"type":"agent.dreamed"}})");
  ASSERT_TRUE(wire);
  EXPECT_NE(wire->find("\"action\":\"observe\""), std::string::npos);
  EXPECT_NE(wire->find("\"fail_open\":true"), std::string::npos);
  EXPECT_FALSE(rt_.handle_json("{not json"));
}

TEST_F(NativeRuntimeTest, NoStoreMeansNoTransform) {
  NativeRuntime bare(nullptr, options_);
  NativeResponse resp = bare.handle(tool_after("Bash", "{}", log_output(6000)));
  EXPECT_FALSE(resp.output_replacement);
  EXPECT_EQ(resp.action, Action::kAllow);
}

TEST_F(NativeRuntimeTest, ObjectIdCollisionIsRefused) {
  // Same derived id (type, session, source, repository state, content hash) but different
  // immutable fields → cave_object_id_collision; currentness/lifecycle may differ.
  ccr::TypedObject a;
  a.type = "CommandResult";
  a.session_id = "claude:s1";
  a.source = "tool:Bash";
  a.data = "output";
  Result<ccr::TypedObject> put = store_->put_object(a);
  ASSERT_OK(put);
  ccr::TypedObject same = a;
  same.object_id = put->object_id;
  same.currentness = "stale";
  EXPECT_OK(store_->put_object(same));
  ccr::TypedObject clash = a;
  clash.object_id = put->object_id;
  clash.transform_version = "other";
  Result<ccr::TypedObject> bad = store_->put_object(clash);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().error_code(), "cave_object_id_collision");
}

}  // namespace
}  // namespace caveman::proxy::native
