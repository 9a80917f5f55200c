// Session markers: `[[caveman-session-v1 sid="<base64url id>" sig="<HMAC-SHA256 hex>"]]`
// (docs/native.md#session-markers). The native runtime hands a signed marker to the agent at
// session start; the agent's requests carry it to the provider through caveman-proxy, which removes
// every valid marker before forwarding and uses it to correlate the usage row.
//
// The key is the per-install key $CAVEMAN_HOME/runtime/session.key (caveman/install_key.h,
// which also holds the HMAC and base64url helpers used here). A marker whose
// signature does not verify is left untouched and correlates nothing; markers naming two
// different sessions are ambiguous and correlate nothing either. Pure functions apart from
// load_or_create_key(); failures are Status values.
#ifndef CAVEMAN_PROXY_NATIVE_SESSION_MARKER_H_
#define CAVEMAN_PROXY_NATIVE_SESSION_MARKER_H_

#include <string>
#include <string_view>

#include "caveman/install_key.h"
#include "caveman/status.h"

namespace caveman::proxy::native {

inline constexpr std::size_t kSessionKeyBytes = kInstallKeyBytes;
inline constexpr std::size_t kMaxSidChars = 384;

using caveman::base64url_encode;
using caveman::hmac_sha256_hex;
using caveman::load_or_create_key;
// The marker for `session_id`. kInvalidArgument (codes::kNativeBadRequest) when the encoded
// id would exceed kMaxSidChars.
Result<std::string> make_marker(std::string_view key, std::string_view session_id);

struct MarkerScan {
  std::string body;          // input with every valid marker removed; left empty when
                             // valid == 0 (the input is unchanged — no copy is made)
  int valid = 0;             // valid markers removed
  int invalid = 0;           // marker-shaped text whose signature failed (kept)
  std::string session_id;    // set only when the valid markers name exactly one session
                             // and no invalid marker was seen
  bool ambiguous = false;    // valid markers naming different sessions
};

// Finds markers in a request body, raw or inside JSON strings (quotes escaped as \").
// Removing a marker from a JSON string keeps the document valid.
MarkerScan strip_session_markers(std::string_view body, std::string_view key);

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_SESSION_MARKER_H_
