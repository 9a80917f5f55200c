// The 2026-07-28 rules of the MCP server core over one Session (stdio framing). Each test
// names the specification page and section it follows
// (https://modelcontextprotocol.io/specification/2026-07-28/...).
#include <gtest/gtest.h>

#include "mcp_server.h"
#include "modern.h"

namespace caveman::mcp {
namespace {

// A tool that needs the user: asks for confirmation through elicitation when it may, and
// otherwise acts without asking.
Tool confirm_tool() {
  Tool t;
  t.name = "confirm";
  t.description = "asks before acting";
  t.input_schema = Json{{"type", "object"}, {"properties", {{"n", {{"type", "integer"}}}}}};
  t.handler = [](const Json& args, const CallContext& ctx) {
    if (ctx.modern && ctx.client_has("elicitation") && ctx.state.is_null()) {
      Json ask = Json{{"method", "elicitation/create"},
                      {"params", {{"mode", "form"}, {"message", "go?"},
                                  {"requestedSchema", {{"type", "object"}}}}}};
      return ToolResult::ask(Json{{"go", ask}}, Json{{"n", args.value("n", 0)}});
    }
    std::string answer = ctx.input_responses.is_object()
                             ? ctx.input_responses["go"].value("action", "none")
                             : "unasked";
    return ToolResult::payload(Json{{"answer", answer}, {"state", ctx.state}});
  };
  return t;
}

// A tool that insists on sampling, which our clients never declare.
Tool sampling_tool() {
  Tool t;
  t.name = "needs_sampling";
  t.description = "asks for sampling";
  t.input_schema = Json{{"type", "object"}};
  t.handler = [](const Json&, const CallContext&) {
    return ToolResult::ask(Json{{"s", {{"method", "sampling/createMessage"}, {"params", Json::object()}}}},
                           nullptr);
  };
  return t;
}

Tool echo_tool() {
  Tool t;
  t.name = "echo";
  t.title = "Echo";
  t.description = "echo";
  t.input_schema = Json{{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}};
  t.output_schema = Json{{"type", "object"}};
  t.annotations = Json{{"readOnlyHint", true}};
  t.handler = [](const Json& args, const CallContext&) {
    return ToolResult::payload(Json{{"text", args.value("text", "")}});
  };
  return t;
}

std::vector<Tool> tools() { return {echo_tool(), confirm_tool(), sampling_tool()}; }

Json meta(const std::string& version = "2026-07-28", Json caps = Json::object()) {
  return Json{{"io.modelcontextprotocol/protocolVersion", version},
              {"io.modelcontextprotocol/clientInfo", {{"name", "unit"}, {"version", "1"}}},
              {"io.modelcontextprotocol/clientCapabilities", std::move(caps)}};
}

class ModernTest : public ::testing::Test {
 protected:
  ServerInfo info{"test", "Test", "1.0", "use echo"};
  ServerOptions options{1 << 20, 1 << 20, std::string(32, 'k')};
  Session session{info, options, tools()};

  Json send(const std::string& method, Json params) {
    Json req = Json{{"jsonrpc", "2.0"}, {"id", 7}, {"method", method}, {"params", std::move(params)}};
    std::string reply = session.handle_line(dump(req));
    return reply.empty() ? Json() : Json::parse(reply);
  }
  Json modern(const std::string& method, Json params = Json::object(), Json m = meta()) {
    params["_meta"] = std::move(m);
    return send(method, std::move(params));
  }
};

// basic/versioning "Backward Compatibility" (dual-era server): per-request _meta → modern,
// initialize → legacy for the process; both on one server.
TEST_F(ModernTest, VersioningBackwardCompatibility_BothErasOnOneSession) {
  Json legacy = send("initialize", Json{{"protocolVersion", "2025-06-18"}, {"capabilities", Json::object()}});
  EXPECT_EQ(legacy["result"]["protocolVersion"], "2025-06-18");
  Json list = modern("tools/list");
  EXPECT_EQ(list["result"]["resultType"], "complete");
  Json legacy_list = send("tools/list", Json::object());
  EXPECT_FALSE(legacy_list["result"].contains("resultType"));
  EXPECT_EQ(session.protocol_version(), "2025-06-18");  // the modern request changed nothing
}

// server/discover "Response" and server/utilities/caching "Cacheable Results".
TEST_F(ModernTest, ServerDiscover_ResponseListsVersionsCapabilitiesAndCacheHints) {
  Json r = modern("server/discover")["result"];
  EXPECT_EQ(r["resultType"], "complete");
  EXPECT_EQ(r["supportedVersions"],
            Json::array({"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}));
  EXPECT_TRUE(r["capabilities"].contains("tools"));
  EXPECT_EQ(r["serverInfo"]["name"], "test");
  EXPECT_EQ(r["instructions"], "use echo");
  EXPECT_GE(r["ttlMs"].get<long long>(), 0);
  EXPECT_EQ(r["cacheScope"], "public");
  // basic/index "Per-response protocol fields": serverInfo in every result's _meta.
  EXPECT_EQ(r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "test");
}

// basic/index "Per-request protocol fields": a missing required field is -32602.
TEST_F(ModernTest, Meta_MissingRequiredFieldIsInvalidParams) {
  Json no_caps = meta();
  no_caps.erase("io.modelcontextprotocol/clientCapabilities");
  EXPECT_EQ(modern("tools/list", Json::object(), no_caps)["error"]["code"], kInvalidParams);
  Json no_version = meta();
  no_version.erase("io.modelcontextprotocol/protocolVersion");
  EXPECT_EQ(modern("tools/list", Json::object(), no_version)["error"]["code"], kInvalidParams);
  // server/discover is modern by name: without _meta it is malformed, not legacy.
  EXPECT_EQ(send("server/discover", Json::object())["error"]["code"], kInvalidParams);
  Json bad_level = meta();
  bad_level["io.modelcontextprotocol/logLevel"] = "loud";
  EXPECT_EQ(modern("tools/list", Json::object(), bad_level)["error"]["code"], kInvalidParams);
}

// basic/versioning "Protocol Version Negotiation": -32022 with data {supported, requested}.
TEST_F(ModernTest, Versioning_UnsupportedVersionIsRejectedWithSupportedList) {
  Json e = modern("tools/list", Json::object(), meta("1900-01-01"))["error"];
  EXPECT_EQ(e["code"], kUnsupportedProtocolVersion);
  EXPECT_EQ(e["data"]["requested"], "1900-01-01");
  EXPECT_EQ(e["data"]["supported"][0], "2026-07-28");
  EXPECT_EQ(e["data"]["supported"].size(), 5u);
}

// basic/index "ResultType" and server/utilities/caching: every result has resultType;
// tools/list carries ttlMs/cacheScope and is the same, in the same order, for every caller.
TEST_F(ModernTest, Caching_ToolsListIsCacheableAndIdenticalForEveryCaller) {
  Json a = modern("tools/list")["result"];
  Json b = modern("tools/list", Json::object(),
                  meta("2026-07-28", Json{{"elicitation", Json::object()}}))["result"];
  EXPECT_EQ(a["resultType"], "complete");
  EXPECT_EQ(a["cacheScope"], "public");
  EXPECT_TRUE(a["ttlMs"].is_number_integer());
  EXPECT_EQ(a["tools"], b["tools"]);
  EXPECT_EQ(a["tools"][0]["name"], "echo");
  EXPECT_EQ(a["tools"][0]["title"], "Echo");
  EXPECT_TRUE(a["tools"][0].contains("outputSchema"));
  Json call = modern("tools/call", Json{{"name", "echo"}, {"arguments", {{"text", "hi"}}}})["result"];
  EXPECT_EQ(call["resultType"], "complete");
  EXPECT_EQ(call["structuredContent"]["text"], "hi");
}

// changelog "Major changes" 5 and basic/versioning (initialize is unknown to a modern
// server): removed methods are -32601.
TEST_F(ModernTest, Changelog_RemovedMethodsAreMethodNotFound) {
  for (const char* m : {"ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe",
                        "initialize", "no/such"}) {
    EXPECT_EQ(modern(m)["error"]["code"], kMethodNotFound) << m;
  }
}

// basic/patterns/mrtr "Server Requirements": input_required only with a declared
// capability; without it the tool acts without asking.
TEST_F(ModernTest, Mrtr_AsksOnlyWhenElicitationIsDeclared) {
  Json quiet = modern("tools/call", Json{{"name", "confirm"}, {"arguments", {{"n", 3}}}})["result"];
  EXPECT_EQ(quiet["resultType"], "complete");
  EXPECT_EQ(quiet["structuredContent"]["answer"], "unasked");

  Json caps = Json{{"elicitation", Json::object()}};
  Json first = modern("tools/call", Json{{"name", "confirm"}, {"arguments", {{"n", 3}}}},
                      meta("2026-07-28", caps))["result"];
  ASSERT_EQ(first["resultType"], "input_required");
  EXPECT_EQ(first["inputRequests"]["go"]["method"], "elicitation/create");
  ASSERT_TRUE(first["requestState"].is_string());

  Json retry = modern("tools/call",
                      Json{{"name", "confirm"},
                           {"arguments", {{"n", 3}}},
                           {"inputResponses", {{"go", {{"action", "accept"}, {"content", Json::object()}}}}},
                           {"requestState", first["requestState"]}},
                      meta("2026-07-28", caps))["result"];
  EXPECT_EQ(retry["resultType"], "complete");
  EXPECT_EQ(retry["structuredContent"]["answer"], "accept");
  EXPECT_EQ(retry["structuredContent"]["state"]["n"], 3);
}

// basic/patterns/mrtr "Server Requirements" 4-5: tampered state, state replayed on other
// arguments, and expired state are rejected.
TEST_F(ModernTest, Mrtr_TamperedOrReplayedRequestStateIsRejected) {
  Json caps = Json{{"elicitation", Json::object()}};
  Json first = modern("tools/call", Json{{"name", "confirm"}, {"arguments", {{"n", 3}}}},
                      meta("2026-07-28", caps))["result"];
  std::string state = first["requestState"];
  std::string tampered = state;
  tampered[5] = tampered[5] == 'A' ? 'B' : 'A';
  auto retry = [&](const std::string& s, int n) {
    return modern("tools/call",
                  Json{{"name", "confirm"}, {"arguments", {{"n", n}}},
                       {"inputResponses", {{"go", {{"action", "accept"}}}}}, {"requestState", s}},
                  meta("2026-07-28", caps));
  };
  EXPECT_EQ(retry(tampered, 3)["error"]["code"], kInvalidParams);
  EXPECT_EQ(retry(state, 4)["error"]["code"], kInvalidParams);  // minted for n=3
  EXPECT_EQ(retry("garbage", 3)["error"]["code"], kInvalidParams);
  EXPECT_EQ(retry(state, 3)["result"]["resultType"], "complete");
}

TEST(RequestStateCodecTest, MrtrServerRequirements_ExpiredStateIsRejected) {
  std::int64_t now = 1000;
  RequestStateCodec codec(std::string(32, 'k'), [&] { return now; }, 50);
  std::string token = codec.seal("tools/call", "t", Json::object(), Json{{"x", 1}});
  Result<Json> fresh = codec.open(token, "tools/call", "t", Json::object());
  ASSERT_TRUE(fresh.ok());
  EXPECT_EQ((*fresh)["x"], 1);
  now += 50;
  Result<Json> old = codec.open(token, "tools/call", "t", Json::object());
  ASSERT_FALSE(old.ok());
  EXPECT_NE(old.status().message().find("expired"), std::string::npos);
  RequestStateCodec other(std::string(32, 'x'), [&] { return 0; }, 50);
  EXPECT_FALSE(other.open(codec.seal("tools/call", "t", nullptr, nullptr), "tools/call", "t", nullptr).ok());
}

// basic/index "Per-request protocol fields" (-32021): answers to an elicitation from a
// client that did not declare it, and a tool that needs an undeclared capability.
TEST_F(ModernTest, Meta_UndeclaredCapabilityIsMissingRequiredClientCapability) {
  Json answered = modern("tools/call", Json{{"name", "confirm"}, {"arguments", Json::object()},
                                            {"inputResponses", {{"go", {{"action", "accept"}}}}}});
  EXPECT_EQ(answered["error"]["code"], kMissingRequiredClientCapability);
  EXPECT_TRUE(answered["error"]["data"]["requiredCapabilities"].contains("elicitation"));
  Json sampling = modern("tools/call", Json{{"name", "needs_sampling"}, {"arguments", Json::object()}});
  EXPECT_EQ(sampling["error"]["code"], kMissingRequiredClientCapability);
  EXPECT_TRUE(sampling["error"]["data"]["requiredCapabilities"].contains("sampling"));
}

// A legacy session never sees input_required: the same tool acts without asking.
TEST_F(ModernTest, Legacy_ToolsNeverAskLegacyClients) {
  send("initialize", Json{{"protocolVersion", "2025-11-25"}, {"capabilities", {{"elicitation", Json::object()}}}});
  Json r = send("tools/call", Json{{"name", "confirm"}, {"arguments", Json::object()}});
  EXPECT_EQ(r["result"]["structuredContent"]["answer"], "unasked");
  EXPECT_EQ(send("ping", Json::object())["result"], Json::object());  // ping stays legacy
}

// basic/patterns/progress & server/utilities/logging via changelog 5: no notification is
// ever written for a request (none asked for a log level here; none is emitted either way).
TEST_F(ModernTest, Changelog_NoNotificationsWithoutALogLevel) {
  std::string line = session.handle_line(dump(Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"},
                                                  {"params", {{"_meta", meta()}}}}));
  EXPECT_EQ(line.find("notifications/"), std::string::npos);
  EXPECT_EQ(std::count(line.begin(), line.end(), '\n'), 0);
}

}  // namespace
}  // namespace caveman::mcp
