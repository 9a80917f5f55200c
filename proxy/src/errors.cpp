#include "errors.h"

#include <chrono>
#include <cstdint>
#include <random>

#include "caveman/base/codes.h"
#include "json_spans.h"

namespace caveman::proxy {
namespace {

std::uint64_t random64() {
  thread_local std::mt19937_64 rng([] {
    std::random_device rd;
    std::seed_seq seq{rd(), rd(), rd(), rd()};
    return std::mt19937_64(seq);
  }());
  return rng();
}

constexpr char kHex[] = "0123456789abcdef";

void append_hex(std::uint64_t v, int digits, std::string* out) {
  for (int i = digits - 1; i >= 0; --i) out->push_back(kHex[(v >> (i * 4)) & 0xF]);
}

bool is_hex(std::string_view s) {
  for (char c : s) {
    bool ok = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string new_request_id() {
  auto ms = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                           std::chrono::system_clock::now().time_since_epoch())
                                           .count());
  std::uint64_t r1 = random64();
  std::uint64_t r2 = random64();
  std::string hex;
  append_hex(ms & 0xFFFFFFFFFFFFULL, 12, &hex);
  append_hex(0x7000 | (r1 & 0x0FFF), 4, &hex);
  append_hex(0x8000 | ((r1 >> 12) & 0x3FFF), 4, &hex);
  append_hex(r2 & 0xFFFFFFFFFFFFULL, 12, &hex);
  return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" +
         hex.substr(16, 4) + "-" + hex.substr(20, 12);
}

std::string random_hex32() {
  std::string out;
  append_hex(random64(), 16, &out);
  append_hex(random64(), 16, &out);
  return out;
}

std::string pick_trace_id(std::string_view inbound_trace_id, std::string_view traceparent) {
  if (inbound_trace_id.size() == 32 && is_hex(inbound_trace_id)) {
    std::string out(inbound_trace_id);
    for (char& c : out) {
      if (c >= 'A' && c <= 'F') c = static_cast<char>(c - 'A' + 'a');
    }
    return out;
  }
  // traceparent: version "-" trace-id(32) "-" parent-id(16) "-" flags(2)
  if (traceparent.size() >= 55 && traceparent[2] == '-' && traceparent[35] == '-') {
    std::string_view id = traceparent.substr(3, 32);
    if (is_hex(id) && id != "00000000000000000000000000000000") return std::string(id);
  }
  return random_hex32();
}

std::string error_envelope(int http_status, std::string_view code, std::string_view message,
                           std::string_view request_id, std::string_view trace_id) {
  std::string msg(message);
  bool keep = code == codes::kUpstreamBlocked || code == codes::kUpstreamTimeout ||
              code == codes::kUpstreamTls || code == codes::kUpstreamProxy;
  if (http_status >= 500 && !keep) {
    msg = http_status == 502 ? "Upstream service error." : "Service error.";
  }
  std::string out = "{\"error\":{\"type\":" + json_quote(codes::kGatewayError) +
                    ",\"code\":" + json_quote(code) + ",\"message\":" + json_quote(msg) +
                    ",\"request_id\":" + json_quote(request_id);
  if (!trace_id.empty()) out += ",\"trace_id\":" + json_quote(trace_id);
  out += "}}";
  return out;
}

int http_status_for(const Status& status) {
  const std::string& c = status.error_code();
  if (c == codes::kRouteNotFound) return 404;
  if (c == codes::kRequestTooLarge) return 413;
  if (c == codes::kHeaderMappingFailed || c == codes::kProviderRequestInvalid) return 400;
  if (c == codes::kUpstreamTimeout) return 504;
  if (c == codes::kClientCancelled) return 499;
  if (c == codes::kUpstreamBlocked || c == codes::kUpstreamUnavailable ||
      c == codes::kUpstreamTls || c == codes::kUpstreamProxy ||
      c == codes::kUpstreamResponseTooLarge) {
    return 502;
  }
  return 500;
}

}  // namespace caveman::proxy
