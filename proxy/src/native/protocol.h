// The native runtime's wire protocol (docs/native.md#request): one JSON request per connection
// on $CAVEMAN_HOME/run/native.sock, one JSON response, close.
//
// parse_request() validates a request (protocol_version 1, a caveman_session_id, a known
// policy mode; an unknown event type is kept as kUnknown so the runtime can observe it) and
// returns kInvalidArgument (codes::kNativeBadRequest) for anything else — the server then
// closes without answering. Raw prompt text never crosses this protocol: a prompt is a byte
// count, a SHA-256 and a classified task profile. Tool outputs travel as
// {"bytes":"<utf-8>"} or {"base64":"…"}. Pure functions; no I/O.
#ifndef CAVEMAN_PROXY_NATIVE_PROTOCOL_H_
#define CAVEMAN_PROXY_NATIVE_PROTOCOL_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/base/text.h"
#include "caveman/base64.h"
#include "caveman/status.h"

namespace caveman::proxy::native {

inline constexpr int kProtocolVersion = 1;
inline constexpr std::size_t kMaxRequestBytes = 2 * 1024 * 1024;
// Response field caps (docs/native.md#response); longer values are cut at a UTF-8 boundary.
inline constexpr std::size_t kMaxContextBytes = 64 * 1024;
inline constexpr std::size_t kMaxMessageBytes = 4096;
inline constexpr std::size_t kMaxReplacementBytes = 2 * 1024 * 1024;
inline constexpr std::size_t kMaxRecoveryRefBytes = 1024;
inline constexpr std::size_t kMaxDecisionIdBytes = 256;

enum class EventType {
  kSessionStart,
  kPromptSubmit,
  kModelBefore,
  kModelAfter,
  kToolBefore,
  kToolAfter,
  kToolFailure,
  kCompactBefore,
  kCompactAfter,
  kTurnStop,
  kSessionEnd,
  kSubagentStart,
  kSubagentStop,
  kUnknown,
};
std::string_view event_name(EventType type);
EventType parse_event_type(std::string_view name);

enum class PolicyMode { kRecord, kSafe, kMax };
std::string_view policy_name(PolicyMode mode);
std::optional<PolicyMode> parse_policy(std::string_view name);  // empty → kSafe

enum class Action { kAllow, kObserve, kBlock, kAsk, kDefer };
std::string_view action_name(Action action);

struct ToolCall {
  std::string name;
  std::string input_json;  // the tool input as compact JSON ("" when absent)
  std::string input_state;
  std::optional<std::string> output;  // decoded bytes
};

struct NativeRequest {
  int protocol_version = kProtocolVersion;
  PolicyMode policy = PolicyMode::kSafe;
  std::string profile;
  std::string agent_id;
  std::string agent_version;
  std::string agent_surface;
  std::string session_id;  // caveman_session_id (required)
  std::string host_session_id;
  std::string parent_session_id;
  std::string cwd;
  std::string repository_state;
  EventType event = EventType::kUnknown;
  std::string event_type;  // as received (kept for unknown types)
  std::int64_t timestamp_ms = 0;
  std::string model_provider;
  std::string model;
  std::int64_t prompt_bytes = -1;  // -1 = no prompt digest
  std::string prompt_sha256;
  std::string task_type;
  std::vector<std::string> task_terms;
  bool continuation = false;
  std::optional<ToolCall> tool;
};

struct NativeResponse {
  PolicyMode policy = PolicyMode::kSafe;
  std::string profile;
  Action action = Action::kAllow;
  std::string context;
  std::string message;
  std::optional<std::string> output_replacement;
  std::string recovery_ref;
  std::string decision_id;
  std::string visibility = "silent";  // silent | advisory | user
  std::int64_t runtime_us = 0;
};

Result<NativeRequest> parse_request(std::string_view json);
// Compact JSON for the client: {protocol_version, policy_mode, profile, action, …,
// visibility, fail_open:true, runtime_us}. Over-long fields are cut to their caps.
std::string response_json(const NativeResponse& response);
// The client side: kInvalidArgument unless it is a protocol-1 response with fail_open:true.
Result<NativeResponse> parse_response(std::string_view json);
// Client side: the request as JSON (the tool output as {"bytes"} when valid UTF-8, else
// {"base64"}).
std::string request_json(const NativeRequest& request);

using caveman::base64_encode;
using caveman::base64_decode;
// Longest prefix of `s` no longer than `max` bytes that does not split a UTF-8 sequence.
std::string_view utf8_prefix(std::string_view s, std::size_t max);

// `j` as compact JSON; invalid UTF-8 in its strings becomes U+FFFD instead of an exception
// (hosts send whatever their tools printed).
std::string dump_json(const nlohmann::json& j);
using caveman::base::is_valid_utf8;

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_PROTOCOL_H_
