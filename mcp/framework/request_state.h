// Integrity-protected MRTR requestState (2026-07-28 basic/patterns/mrtr, "Server
// Requirements": requestState is attacker-controlled input; protect its integrity with an
// HMAC, reject state that fails verification, and bind it to an expiry and to the
// originating request).
//
// A token is "v1.<base64url payload>.<hex HMAC-SHA256>"; the payload names the method, the
// tool, an HMAC digest of the call's arguments and an expiry, next to the tool's own state.
// open() accepts a token only when the MAC verifies, it has not expired, and it was minted
// for the same method, tool and arguments. The codec is immutable and thread-safe.
#ifndef CAVEMAN_MCP_FRAMEWORK_REQUEST_STATE_H_
#define CAVEMAN_MCP_FRAMEWORK_REQUEST_STATE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "caveman/status.h"
#include "json_types.h"

namespace caveman::mcp {

class RequestStateCodec {
 public:
  using Clock = std::function<std::int64_t()>;  // milliseconds since the Unix epoch
  static constexpr std::int64_t kDefaultTtlMs = 10 * 60 * 1000;
  static constexpr std::size_t kMaxTokenBytes = 64 * 1024;

  // An empty key is replaced by 32 random bytes (state then dies with the process).
  explicit RequestStateCodec(std::string key, Clock now = {}, std::int64_t ttl_ms = kDefaultTtlMs);

  std::string seal(std::string_view method, std::string_view name, const Json& arguments,
                   const Json& state) const;
  // The tool state inside `token`. Errors (all kInvalidArgument, codes::kInvalidRequestState):
  // malformed, bad signature, expired, or minted for another method/tool/arguments.
  Result<Json> open(std::string_view token, std::string_view method, std::string_view name,
                    const Json& arguments) const;

 private:
  std::string mac(std::string_view payload_b64) const;
  std::string digest(const Json& arguments) const;

  std::string key_;
  Clock now_;
  std::int64_t ttl_ms_;
};

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_FRAMEWORK_REQUEST_STATE_H_
