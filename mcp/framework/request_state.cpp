#include "request_state.h"

#include <openssl/rand.h>

#include <chrono>

#include "caveman/base/codes.h"
#include "caveman/install_key.h"

namespace caveman::mcp {
namespace {

constexpr std::string_view kVersionPrefix = "v1.";
// Domain separation: the same key must never sign anything else the same way.
constexpr std::string_view kMacLabel = "caveman-mcp-request-state.v1.";
constexpr std::string_view kDigestLabel = "caveman-mcp-request-args.v1.";

std::int64_t system_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string random_key() {
  unsigned char bytes[kInstallKeyBytes] = {};
  if (RAND_bytes(bytes, sizeof bytes) != 1) return std::string(kInstallKeyBytes, '\0');
  return std::string(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

Status invalid(std::string_view why) {
  return Status::InvalidArgument(codes::kInvalidRequestState, "requestState " + std::string(why));
}

}  // namespace

RequestStateCodec::RequestStateCodec(std::string key, Clock now, std::int64_t ttl_ms)
    : key_(key.empty() ? random_key() : std::move(key)),
      now_(now ? std::move(now) : Clock(system_now_ms)),
      ttl_ms_(ttl_ms) {}

std::string RequestStateCodec::mac(std::string_view payload_b64) const {
  return hmac_sha256_hex(key_, std::string(kMacLabel) + std::string(payload_b64));
}

std::string RequestStateCodec::digest(const Json& arguments) const {
  return hmac_sha256_hex(key_, std::string(kDigestLabel) + dump(arguments));
}

std::string RequestStateCodec::seal(std::string_view method, std::string_view name,
                                    const Json& arguments, const Json& state) const {
  Json payload = Json::object();
  payload["m"] = std::string(method);
  payload["n"] = std::string(name);
  payload["a"] = digest(arguments);
  payload["exp"] = now_() + ttl_ms_;
  payload["s"] = state;
  std::string b64 = base64url_encode(dump(payload));
  return std::string(kVersionPrefix) + b64 + "." + mac(b64);
}

Result<Json> RequestStateCodec::open(std::string_view token, std::string_view method,
                                     std::string_view name, const Json& arguments) const {
  if (token.size() > kMaxTokenBytes) return invalid("is too large");
  if (token.substr(0, kVersionPrefix.size()) != kVersionPrefix) return invalid("is malformed");
  token.remove_prefix(kVersionPrefix.size());
  std::size_t dot = token.rfind('.');
  if (dot == std::string_view::npos) return invalid("is malformed");
  std::string_view b64 = token.substr(0, dot);
  // The MAC is checked before the payload is parsed: unauthenticated bytes are never decoded.
  if (!constant_time_equal(mac(b64), token.substr(dot + 1))) return invalid("failed verification");
  std::optional<std::string> raw = base64url_decode(b64);
  if (!raw) return invalid("is malformed");
  Json payload = Json::parse(*raw, nullptr, /*allow_exceptions=*/false);
  if (!payload.is_object() || !payload.contains("exp") || !payload["exp"].is_number_integer()) {
    return invalid("is malformed");
  }
  if (payload["exp"].get<std::int64_t>() <= now_()) return invalid("has expired");
  if (payload.value("m", "") != method || payload.value("n", "") != name ||
      payload.value("a", "") != digest(arguments)) {
    return invalid("belongs to another request");
  }
  return payload.contains("s") ? payload["s"] : Json();
}

}  // namespace caveman::mcp
