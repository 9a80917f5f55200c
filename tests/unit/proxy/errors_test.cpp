#include "errors.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "metrics.h"

namespace caveman::proxy {
namespace {

TEST(ProxyErrors, EnvelopeShapeAndCodes) {
  nlohmann::json e = nlohmann::json::parse(
      error_envelope(404, "cave_route_not_found", "no provider route for /x", "rid", "tid"));
  EXPECT_EQ(e["error"]["type"], "cave_gateway_error");
  EXPECT_EQ(e["error"]["code"], "cave_route_not_found");
  EXPECT_EQ(e["error"]["message"], "no provider route for /x");
  EXPECT_EQ(e["error"]["request_id"], "rid");
  EXPECT_EQ(e["error"]["trace_id"], "tid");
  nlohmann::json no_trace = nlohmann::json::parse(error_envelope(413, "cave_request_too_large", "m", "r", ""));
  EXPECT_FALSE(no_trace["error"].contains("trace_id"));
}

TEST(ProxyErrors, ServerErrorsHideDetailsExceptActionableOnes) {
  nlohmann::json generic = nlohmann::json::parse(
      error_envelope(502, "cave_upstream_unavailable", "connect to 10.0.0.1 refused", "r", ""));
  EXPECT_EQ(generic["error"]["message"], "Upstream service error.");
  nlohmann::json internal = nlohmann::json::parse(error_envelope(500, "cave_internal_error", "boom", "r", ""));
  EXPECT_EQ(internal["error"]["message"], "Service error.");
  nlohmann::json hint = nlohmann::json::parse(
      error_envelope(502, "cave_upstream_blocked", "set CAVE_SSRF_ALLOWLIST=127.0.0.1:1", "r", ""));
  EXPECT_EQ(hint["error"]["message"], "set CAVE_SSRF_ALLOWLIST=127.0.0.1:1");
  nlohmann::json tls = nlohmann::json::parse(
      error_envelope(502, "cave_upstream_tls", "certificate refused; use SSL_CERT_FILE", "r", ""));
  EXPECT_EQ(tls["error"]["message"], "certificate refused; use SSL_CERT_FILE");
}

TEST(ProxyErrors, StatusMapping) {
  EXPECT_EQ(http_status_for(Status::NotFound("cave_route_not_found", "")), 404);
  EXPECT_EQ(http_status_for(Status::InvalidArgument("cave_header_mapping_failed", "")), 400);
  EXPECT_EQ(http_status_for(Status::Unavailable("cave_upstream_blocked", "")), 502);
  EXPECT_EQ(http_status_for(Status::Unavailable("cave_upstream_unavailable", "")), 502);
  EXPECT_EQ(http_status_for(Status::Unavailable("cave_upstream_tls", "")), 502);
  EXPECT_EQ(http_status_for(Status::Unavailable("cave_upstream_timeout", "")), 504);
  EXPECT_EQ(http_status_for(Status::Internal("cave_internal_error", "")), 500);
}

TEST(ProxyErrors, RequestIdsAreUuidV7AndUnique) {
  std::regex v7("^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    std::string id = new_request_id();
    EXPECT_TRUE(std::regex_match(id, v7)) << id;
    seen.insert(id);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(ProxyErrors, TraceIdPrefersInboundThenTraceparent) {
  EXPECT_EQ(pick_trace_id("0123456789ABCDEF0123456789abcdef", ""), "0123456789abcdef0123456789abcdef");
  EXPECT_EQ(pick_trace_id("short", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"),
            "4bf92f3577b34da6a3ce929d0e0e4736");
  std::string random = pick_trace_id("", "garbage");
  EXPECT_EQ(random.size(), 32u);
  EXPECT_NE(random, pick_trace_id("", "garbage"));
}

TEST(ProxyMetrics, RendersSortedPrometheusText) {
  Metrics m;
  m.request_started();
  m.request_started();
  m.request_finished("openai", 200);
  m.request_started();
  m.request_finished("anthropic", 429);
  m.add_saved(1000, 250);
  std::string text = m.render();
  EXPECT_NE(text.find("cave_proxy_inflight_requests 1\n"), std::string::npos);
  std::size_t a = text.find("cave_proxy_requests_total{provider=\"anthropic\",status=\"429\"} 1");
  std::size_t o = text.find("cave_proxy_requests_total{provider=\"openai\",status=\"200\"} 1");
  EXPECT_NE(a, std::string::npos);
  EXPECT_NE(o, std::string::npos);
  EXPECT_LT(a, o);
  EXPECT_NE(text.find("cave_proxy_compression_bytes_saved_total 1000\n"), std::string::npos);
  EXPECT_NE(text.find("cave_proxy_compression_tokens_saved_total 250\n"), std::string::npos);
}

// The whole exposition, byte for byte: scrapers and dashboards match these names and lines.
TEST(ProxyMetrics, RendersTheExactExposition) {
  Metrics m;
  m.request_started();
  m.request_finished("openai", 200);
  m.add_saved(7, 3);
  EXPECT_EQ(
      m.render(),
      "# HELP cave_proxy_inflight_requests Requests being served right now.\n"
      "# TYPE cave_proxy_inflight_requests gauge\n"
      "cave_proxy_inflight_requests 0\n"
      "# HELP cave_proxy_requests_total Requests served, by provider and HTTP status.\n"
      "# TYPE cave_proxy_requests_total counter\n"
      "cave_proxy_requests_total{provider=\"openai\",status=\"200\"} 1\n"
      "# HELP cave_proxy_compression_bytes_saved_total Request bytes removed by compression.\n"
      "# TYPE cave_proxy_compression_bytes_saved_total counter\n"
      "cave_proxy_compression_bytes_saved_total 7\n"
      "# HELP cave_proxy_compression_tokens_saved_total Inferred o200k_base tokens removed.\n"
      "# TYPE cave_proxy_compression_tokens_saved_total counter\n"
      "cave_proxy_compression_tokens_saved_total 3\n"
      "# HELP cave_proxy_usage_rows_dropped_total Usage rows not written (queue full or store "
      "error).\n"
      "# TYPE cave_proxy_usage_rows_dropped_total counter\n"
      "cave_proxy_usage_rows_dropped_total 0\n");
}

}  // namespace
}  // namespace caveman::proxy
