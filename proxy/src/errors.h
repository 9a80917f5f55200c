// Error envelopes and request identifiers of caveman-proxy (docs/spec/proxy.md#errors).
//
// Every error the proxy itself produces is
// {"error":{"type":codes::kGatewayError,"code":…,"message":…,"request_id":…,"trace_id":…}}
// with content-type application/json. Provider errors never go through here: they are
// relayed verbatim. Statuses ≥ 500 get a generic message, except where the message is the
// fix (codes::kUpstreamBlocked names the CAVE_SSRF_ALLOWLIST entry). Pure functions apart from
// the random source of the ids.
#ifndef CAVEMAN_PROXY_ERRORS_H_
#define CAVEMAN_PROXY_ERRORS_H_

#include <string>
#include <string_view>

#include "caveman/status.h"

namespace caveman::proxy {

// UUIDv7 (RFC 9562): 48-bit Unix ms timestamp, version 7, variant 10, random bits.
std::string new_request_id();
// 32 lowercase hex random characters.
std::string random_hex32();

// The x-cave-trace-id to use: an inbound 32-hex x-cave-trace-id, else the trace id of a
// W3C traceparent, else random.
std::string pick_trace_id(std::string_view inbound_trace_id, std::string_view traceparent);

// The JSON error body. A 5xx message is replaced by a generic one (it may describe the
// upstream's internals) unless it is the proxy's own advice: blocked, timeout, tls, proxy.
std::string error_envelope(int http_status, std::string_view code, std::string_view message,
                           std::string_view request_id, std::string_view trace_id);

// HTTP status for a Status the proxy turns into an envelope.
int http_status_for(const Status& status);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_ERRORS_H_
