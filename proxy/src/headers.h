// Header mapping for caveman-proxy (docs/spec/proxy.md#headers): which inbound headers reach the
// provider, how credentials are forwarded, how the caller's auth is classified, and which
// upstream response headers reach the client.
//
// Credentials are forwarded exactly as received — `x-api-key`, `Authorization` (a Bearer
// token stays a Bearer token) and `x-goog-api-key` — and only when the request carries none
// does the provider's env key (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY /
// GOOGLE_API_KEY, or a compat mount's api_key_env) fill in. Everything not on the allowlist is
// dropped, including every x-cave-* / x-caveman-* control header. No function here logs
// or returns a credential value in an error. Pure functions.
#ifndef CAVEMAN_PROXY_HEADERS_H_
#define CAVEMAN_PROXY_HEADERS_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "caveman/status.h"
#include "config.h"
#include "routes.h"

namespace caveman::proxy {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// First value of `name` (case-insensitive), or nullopt.
std::optional<std::string> find_header(const HeaderList& headers, std::string_view name);
// `s` without leading and trailing spaces and tabs (HTTP's optional white space).
std::string_view trim_ows(std::string_view s);
// The non-empty elements of a comma-separated header value (Connection, Transfer-Encoding),
// white space trimmed, in order.
std::vector<std::string_view> header_list_tokens(std::string_view value);

enum class AuthMode { kPayg, kOauth, kSubscription, kUnknown };
std::string_view auth_mode_name(AuthMode mode);

// Auth classification by header shape (user agent, scheme, token shape); `env_key` is the
// credential the env fallback supplied, used when the request carried none.
AuthMode classify_auth(const HeaderList& inbound, std::string_view env_key);

// Whether the request's own credential is an API key billed per token (`x-api-key` or a Bearer
// token of API-key shape, not a subscription or OAuth token). Claude Code and Codex CLI are
// classified `subscription` by their user agent whatever the credential; with an API key they
// are pay-as-you-go for the cost features (optimizers, cache keepalive).
bool api_key_credential(const HeaderList& inbound);

struct MappedHeaders {
  HeaderList upstream;            // exactly what is sent to the provider
  AuthMode auth_mode = AuthMode::kUnknown;
  std::string credential_source;  // "request", "env:<NAME>" or "none" (never the value)
};

// Errors: codes::kHeaderMappingFailed (Gemini OAuth without a valid x-goog-user-project).
Result<MappedHeaders> map_request_headers(const Route& route, const HeaderList& inbound,
                                          const Config& config, const EnvLookup& env);

// Upstream response headers minus hop-by-hop headers (and any the Connection header
// names), Content-Length / Content-Type (the server writes those itself) and every
// x-cave* / x-caveman* header.
HeaderList filter_response_headers(const HeaderList& upstream);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_HEADERS_H_
