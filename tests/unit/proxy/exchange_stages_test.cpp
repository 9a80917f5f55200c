// Each request-path stage on its own (exchange_stages.cpp), in the order the path runs them.
#include <gtest/gtest.h>

#include "exchange_fixture.h"
#include "native/session_marker.h"

namespace caveman::proxy {
namespace {

using ExchangeStages = ExchangeFixture;

const char* kSmall = R"({"model":"claude-mock","max_tokens":10,"messages":[{"role":"user","content":"hi"}]})";

TEST_F(ExchangeStages, BeginTakesIdsTraceAndPeer) {
  init();
  ProxyRequest req = request("/v1/messages", kSmall, {{"x-cave-trace-id", "0123456789abcdef0123456789abcdef"}});
  req.peer = ClientPeer{"127.0.0.1", 5555, 8080};
  auto x = Exchange::begin(&rt_, nullptr, req);
  EXPECT_FALSE(x->request_id.empty());
  EXPECT_EQ(x->trace_id, "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(x->client.remote_port, 5555);
  EXPECT_TRUE(find_header(x->inbound, "x-cave-trace-id"));
}

TEST_F(ExchangeStages, RouteAnswersAnUnknownPathItself) {
  init();
  ProxyRequest req = request("/v9/nothing", kSmall);
  auto x = Exchange::begin(&rt_, nullptr, req);
  ProxyResponse res;
  EXPECT_FALSE(x->route_request(req, res));
  EXPECT_EQ(res.status, 404);
  EXPECT_EQ(res.header("x-cave-request-id"), x->request_id);
  EXPECT_EQ(res.header("x-cave-optimization"), "none");
  EXPECT_NE(res.body.find("cave_route_not_found"), std::string::npos);
  EXPECT_EQ(rt_.metrics.inflight(), 0);
}

TEST_F(ExchangeStages, RouteFindsProviderAndEndpoint) {
  init();
  ProxyRequest req = request("/v1/messages?beta=true", kSmall);
  auto x = Exchange::begin(&rt_, nullptr, req);
  ProxyResponse res;
  ASSERT_TRUE(x->route_request(req, res));
  EXPECT_EQ(x->route.provider, Provider::kAnthropic);
  EXPECT_EQ(x->route.endpoint, Endpoint::kMessages);
  EXPECT_EQ(res.status, -1);  // nothing answered yet
}

TEST_F(ExchangeStages, StripMarkersKeepsTheBodyWithoutASessionKey) {
  init();
  auto x = Exchange::begin(&rt_, nullptr, request("/v1/messages", ""));
  x->strip_markers(kSmall);
  EXPECT_EQ(*x->raw_body, kSmall);
  EXPECT_TRUE(x->marker_session.empty());
}

TEST_F(ExchangeStages, StripMarkersRemovesAValidMarkerAndNamesItsSession) {
  init();
  rt_.session_key = std::string(32, 'k');
  Result<std::string> marker = native::make_marker(rt_.session_key, "claude:s1");
  ASSERT_OK(marker);
  std::string body = R"({"messages":[{"role":"user","content":"hi)" + *marker + R"("}]})";
  auto x = through(request("/v1/messages", body), "authenticate");
  EXPECT_EQ(*x->raw_body, R"({"messages":[{"role":"user","content":"hi"}]})");
  EXPECT_EQ(x->row.session_id, "claude:s1");
  EXPECT_EQ(x->row.session_correlation_basis, "native_marker");
}

TEST_F(ExchangeStages, OpenRowRecordsTheRequest) {
  init();
  auto x = through(request("/v1/messages?beta=true", kSmall, {{"x-api-key", "k"}, {"x-cave-agent", "codex"}}),
                   "authenticate");
  EXPECT_EQ(x->row.route_from, "/v1/messages");
  EXPECT_EQ(x->row.request_bytes, static_cast<std::int64_t>(std::string(kSmall).size()));
  EXPECT_EQ(x->row.agent_slug, "codex");
  EXPECT_EQ(x->row.raw_body, x->raw_body);
  EXPECT_EQ(rt_.metrics.inflight(), 1);
  x->parties.store(1);
  x->party_done();
  EXPECT_EQ(rt_.metrics.inflight(), 0);
}

TEST_F(ExchangeStages, AuthenticateMapsTheClientsCredential) {
  init();
  auto x = through(request("/v1/messages", kSmall), "authenticate");
  EXPECT_EQ(x->row.auth_mode, "payg");
  EXPECT_EQ(find_header(x->mapped.upstream, "x-api-key"), "sk-ant-api-1");
}

TEST_F(ExchangeStages, AuthenticateAnswersAMappingFailureAndRecordsIt) {
  init();
  ProxyRequest req = request("/v1beta/models/gemini-2.5-flash:generateContent", "{}",
                             {{"Authorization", "Bearer ya29.token"}});
  auto x = Exchange::begin(&rt_, nullptr, req);
  ProxyResponse res;
  ASSERT_TRUE(x->route_request(req, res));
  x->strip_markers(req.body);
  x->open_row(req.path);
  EXPECT_FALSE(x->authenticate(res));
  EXPECT_GE(res.status, 400);
  EXPECT_NE(res.body.find("cave_header_mapping_failed"), std::string::npos);
  EXPECT_EQ(rt_.metrics.inflight(), 0);  // the row is recorded: the exchange is finished
}

TEST_F(ExchangeStages, InspectReadsModelStreamAndTarget) {
  init();
  auto x = through(request("/v1/messages?beta=true", R"({"model":"m1","stream":true,"messages":[]})"), "inspect");
  EXPECT_TRUE(x->doc.has_value());
  EXPECT_EQ(x->row.model, "m1");
  EXPECT_TRUE(x->row.stream);
  EXPECT_EQ(x->upstream.path, "/v1/messages?beta=true");
  EXPECT_EQ(x->upstream.body, x->raw_body);
  EXPECT_EQ(find_header(x->upstream.headers, "x-api-key"), "sk-ant-api-1");
}

TEST_F(ExchangeStages, InspectForwardsMalformedJsonUntouched) {
  init();
  auto x = through(request("/v1/messages", "{not json"), "inspect");
  EXPECT_FALSE(x->doc.has_value());
  EXPECT_EQ(x->row.model, "unknown");
  EXPECT_EQ(*x->upstream.body, "{not json");
}

TEST_F(ExchangeStages, DecideModeRecordModeNeverCompresses) {
  init();
  auto x = through(request("/v1/messages", tool_result_body()), "decide_mode");
  EXPECT_FALSE(x->mode.eligible);
  EXPECT_FALSE(x->row.compression_eligible);
}

TEST_F(ExchangeStages, DecideModeCompressWithAKeyRetrievesOnTheServer) {
  init({{"CAVEMAN_MODE", "compress"}});
  auto x = through(request("/v1/messages", tool_result_body()), "decide_mode");
  EXPECT_EQ(x->mode.auth, AuthMode::kPayg);
  EXPECT_TRUE(x->mode.server_retrieve);
  EXPECT_FALSE(x->mode.marker_only);
  EXPECT_TRUE(x->mode.eligible);
}

TEST_F(ExchangeStages, DecideModeAStreamIsNotRetrievedOnTheServer) {
  init({{"CAVEMAN_MODE", "compress"}});
  auto x = through(request("/v1/messages", tool_result_body(true)), "decide_mode");
  EXPECT_FALSE(x->mode.server_retrieve);
  EXPECT_FALSE(x->mode.eligible);
}

TEST_F(ExchangeStages, DecideModeMarkerOnlyRecoveryCompressesAStream) {
  init({{"CAVEMAN_MODE", "compress"}, {"CAVEMAN_RECOVERY", "mcp"}});
  auto x = through(request("/v1/messages", tool_result_body(true)), "decide_mode");
  EXPECT_TRUE(x->mode.marker_only);
  EXPECT_TRUE(x->mode.eligible);
}

TEST_F(ExchangeStages, DecideModeBypassHeaderTurnsCompressionOff) {
  init({{"CAVEMAN_MODE", "compress"}});
  auto x = through(request("/v1/messages", tool_result_body(), {{"x-api-key", "k"}, {"x-caveman-bypass", "1"}}),
                   "decide_mode");
  EXPECT_TRUE(x->mode.bypass);
  EXPECT_FALSE(x->mode.eligible);
}

TEST_F(ExchangeStages, TransformCompressesTheLiveZone) {
  init({{"CAVEMAN_MODE", "compress"}});
  auto x = through(request("/v1/messages", tool_result_body()), "transform");
  EXPECT_TRUE(x->transformed);
  EXPECT_TRUE(x->row.guard_charge);
  EXPECT_LT(x->upstream.body->size(), x->raw_body->size());
  EXPECT_EQ(x->row.sent_body, x->upstream.body);
  EXPECT_EQ(x->optimization, "caveman-live-zone-compress");
  ASSERT_FALSE(x->handles.empty());
  EXPECT_EQ(find_header(x->compression_headers, "x-caveman-token-count-basis"), "estimated_engine_o200k");
  EXPECT_EQ(find_header(x->compression_headers, "x-caveman-recovery-handle"), x->row.recovery_handle);
}

TEST_F(ExchangeStages, TransformLeavesASmallRequestAlone) {
  init({{"CAVEMAN_MODE", "compress"}});
  auto x = through(request("/v1/messages", kSmall), "transform");
  EXPECT_FALSE(x->transformed);
  EXPECT_FALSE(x->row.guard_charge);
  EXPECT_EQ(x->upstream.body, x->raw_body);
  EXPECT_TRUE(x->compression_headers.empty());
}

TEST_F(ExchangeStages, RetrieveLoopDoesNotRunInRecordMode) {
  init();
  auto x = through(request("/v1/messages", tool_result_body()), "transform");
  ProxyResponse res;
  EXPECT_EQ(x->retrieve_loop(res), LoopStage::kNotRun);
  EXPECT_EQ(res.status, -1);
  EXPECT_TRUE(stub_.bodies().empty());
}

TEST_F(ExchangeStages, RetrieveLoopAnswersWithTheProvidersReply) {
  init({{"CAVEMAN_MODE", "compress"}});
  auto x = through(request("/v1/messages", tool_result_body()), "transform");
  ProxyResponse res;
  ASSERT_EQ(x->retrieve_loop(res), LoopStage::kAnswered);
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.header("x-cave-optimization"), "caveman-live-zone-compress,caveman-retrieve-tool");
  EXPECT_NE(res.header("x-caveman-recovery-handle"), "");
  EXPECT_NE(res.body.find("\"hi\""), std::string::npos);
  ASSERT_EQ(stub_.bodies().size(), 1u);
  EXPECT_NE(stub_.bodies()[0].find("caveman_retrieve"), std::string::npos);
  EXPECT_EQ(rt_.metrics.inflight(), 0);
}

TEST_F(ExchangeStages, RetrieveLoopFallsBackToTheClientsBytesOnARefusal) {
  init({{"CAVEMAN_MODE", "compress"}});
  stub_.answer([](const httplib::Request&, httplib::Response& res) {
    res.status = 400;
    res.set_content(R"({"error":"no"})", "application/json");
  });
  auto x = through(request("/v1/messages", tool_result_body()), "transform");
  ProxyResponse res;
  ASSERT_EQ(x->retrieve_loop(res), LoopStage::kFellBack);
  EXPECT_EQ(res.status, -1);
  EXPECT_FALSE(x->transformed);
  EXPECT_EQ(x->upstream.body, x->raw_body);
  EXPECT_TRUE(x->optimization.empty());
  EXPECT_TRUE(x->compression_headers.empty());
  EXPECT_EQ(x->row.error_code, "transformed_request_refused");
  x->parties.store(1);
  x->party_done();
}

TEST_F(ExchangeStages, PixelDoesNothingOutsidePixelMode) {
  init({{"CAVEMAN_MODE", "compress"}});
  auto x = through(request("/v1/messages", tool_result_body()), "transform");
  auto before = x->upstream.body;
  x->pixel();
  EXPECT_EQ(x->upstream.body, before);
  EXPECT_EQ(x->optimization, "caveman-live-zone-compress");
}

}  // namespace
}  // namespace caveman::proxy
