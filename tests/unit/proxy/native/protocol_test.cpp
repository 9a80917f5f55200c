// The native wire protocol: request validation, every event type, outputs as bytes or
// base64, prompt digests only, response caps.
#include "native/protocol.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/test_support.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

Json minimal(std::string_view event) {
  return {{"protocol_version", 1},
          {"agent", {{"id", "claude"}}},
          {"session", {{"caveman_session_id", "claude:s1"}}},
          {"event", {{"type", event}}}};
}

TEST(NativeProtocol, ParsesEveryEventType) {
  const char* names[] = {"session.start", "prompt.submit", "model.before", "model.after",
                         "tool.before", "tool.after", "tool.failure", "context.compact.before",
                         "context.compact.after", "turn.stop", "session.end", "subagent.start",
                         "subagent.stop"};
  for (const char* name : names) {
    Result<NativeRequest> r = parse_request(minimal(name).dump());
    ASSERT_OK(r);
    EXPECT_NE(r->event, EventType::kUnknown) << name;
    EXPECT_EQ(event_name(r->event), name);
  }
}

TEST(NativeProtocol, UnknownEventTypeIsKeptNotRefused) {
  Result<NativeRequest> r = parse_request(minimal("agent.dreamed").dump());
  ASSERT_OK(r);
  EXPECT_EQ(r->event, EventType::kUnknown);
  EXPECT_EQ(r->event_type, "agent.dreamed");
}

TEST(NativeProtocol, RefusesBadRequests) {
  EXPECT_FALSE(parse_request("not json").ok());
  EXPECT_FALSE(parse_request("[1,2]").ok());
  Json v2 = minimal("turn.stop");
  v2["protocol_version"] = 2;
  EXPECT_FALSE(parse_request(v2.dump()).ok());
  Json no_session = minimal("turn.stop");
  no_session.erase("session");
  EXPECT_FALSE(parse_request(no_session.dump()).ok());
  Json blank = minimal("turn.stop");
  blank["session"]["caveman_session_id"] = "  ";
  EXPECT_FALSE(parse_request(blank.dump()).ok());
  Json no_event = minimal("turn.stop");
  no_event["event"] = Json::object();
  EXPECT_FALSE(parse_request(no_event.dump()).ok());
  Json bad_policy = minimal("turn.stop");
  bad_policy["policy_mode"] = "yolo";
  EXPECT_FALSE(parse_request(bad_policy.dump()).ok());
  Json wrong_type = minimal("turn.stop");
  wrong_type["session"]["cwd"] = 5;
  EXPECT_FALSE(parse_request(wrong_type.dump()).ok());
  std::string huge = minimal("turn.stop").dump();
  huge.append(kMaxRequestBytes, ' ');
  EXPECT_FALSE(parse_request(huge).ok());
}

TEST(NativeProtocol, PromptTextNeverCrossesTheSocket) {
  Json j = minimal("prompt.submit");
  j["prompt"] = {{"bytes", 12}, {"sha256", std::string(64, 'a')}};
  ASSERT_OK(parse_request(j.dump()));
  j["prompt"]["text"] = "secret plans";
  Result<NativeRequest> r = parse_request(j.dump());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_native_bad_request");
}

TEST(NativeProtocol, PolicyModesDefaultToSafe) {
  EXPECT_EQ(parse_request(minimal("turn.stop").dump())->policy, PolicyMode::kSafe);
  for (auto [name, mode] : {std::pair{"record", PolicyMode::kRecord}, std::pair{"max", PolicyMode::kMax}}) {
    Json j = minimal("turn.stop");
    j["policy_mode"] = name;
    EXPECT_EQ(parse_request(j.dump())->policy, mode);
  }
}

TEST(NativeProtocol, ToolOutputAsBytesOrBase64) {
  Json j = minimal("tool.after");
  j["tool"] = {{"name", "Bash"}, {"input", {{"command", "ls"}}}, {"output", {{"bytes", "a\nb"}}}};
  Result<NativeRequest> r = parse_request(j.dump());
  ASSERT_OK(r);
  ASSERT_TRUE(r->tool && r->tool->output);
  EXPECT_EQ(*r->tool->output, "a\nb");
  EXPECT_EQ(r->tool->input_json, "{\"command\":\"ls\"}");
  std::string binary("\x00\xff\xfe\x01", 4);
  j["tool"]["output"] = {{"base64", base64_encode(binary)}};
  r = parse_request(j.dump());
  ASSERT_OK(r);
  EXPECT_EQ(*r->tool->output, binary);
  j["tool"]["output"] = {{"base64", "!!!"}};
  EXPECT_FALSE(parse_request(j.dump()).ok());
}

TEST(NativeProtocol, RequestJsonRoundTripsAndUsesBase64ForBinary) {
  NativeRequest req;
  req.agent_id = "claude";
  req.session_id = "claude:abc";
  req.event = EventType::kToolAfter;
  req.tool = ToolCall{"Bash", "{\"command\":\"cat x\"}", "", std::string("\xff\x00z", 3)};
  std::string wire = request_json(req);
  EXPECT_NE(wire.find("\"base64\""), std::string::npos);
  Result<NativeRequest> back = parse_request(wire);
  ASSERT_OK(back);
  EXPECT_EQ(back->event, EventType::kToolAfter);
  EXPECT_EQ(*back->tool->output, std::string("\xff\x00z", 3));
}

TEST(NativeProtocol, ResponseHasFailOpenAndCapsFields) {
  NativeResponse resp;
  resp.action = Action::kObserve;
  resp.message = std::string(5000, 'm');
  resp.recovery_ref = "ccr://" + std::string(2000, 'x');
  std::string wire = response_json(resp);
  Json j = Json::parse(wire);
  EXPECT_EQ(j["protocol_version"], 1);
  EXPECT_EQ(j["fail_open"], true);
  EXPECT_EQ(j["action"], "observe");
  EXPECT_EQ(j["visibility"], "silent");
  EXPECT_EQ(j["message"].get<std::string>().size(), kMaxMessageBytes);
  EXPECT_EQ(j["recovery_ref"].get<std::string>().size(), kMaxRecoveryRefBytes);
  Result<NativeResponse> back = parse_response(wire);
  ASSERT_OK(back);
  EXPECT_EQ(back->action, Action::kObserve);
  EXPECT_FALSE(parse_response("{\"protocol_version\":1}").ok());  // no fail_open
}

TEST(NativeProtocol, Utf8HelpersAndBase64) {
  EXPECT_EQ(utf8_prefix("h\xc3\xa9llo", 2), "h");  // never splits é
  EXPECT_TRUE(is_valid_utf8("h\xc3\xa9"));
  EXPECT_FALSE(is_valid_utf8("\xc3"));
  EXPECT_FALSE(is_valid_utf8("\xed\xa0\x80"));  // surrogate
  for (std::string s : {"", "f", "fo", "foo", "foob", "fooba", "foobar"}) {
    EXPECT_EQ(base64_decode(base64_encode(s)).value_or("?"), s);
  }
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

}  // namespace
}  // namespace caveman::proxy::native
