#include "headers.h"

#include "caveman/base/codes.h"
#include "caveman/base/text.h"

namespace caveman::proxy {
namespace {

constexpr std::string_view kForwarded[] = {
    "content-type",   "accept",          "accept-encoding", "user-agent",
    "idempotency-key", "api-version",    "anthropic-version", "anthropic-beta",
    "anthropic-dangerous-direct-browser-access", "x-goog-user-project", "x-goog-api-client"};
constexpr std::string_view kForwardedPrefixes[] = {"openai-", "x-stainless-"};
constexpr std::string_view kCredentialHeaders[] = {"x-api-key", "authorization", "x-goog-api-key"};
constexpr std::string_view kSubscriptionAgents[] = {
    "claude-cli/", "claude-code/", "codex-cli/", "cursor/", "claude-vscode/",
    "github-copilot/", "anthropic-cli/", "antigravity/"};
constexpr std::string_view kHopByHop[] = {"connection", "keep-alive", "te", "trailer",
                                          "transfer-encoding", "upgrade", "content-length",
                                          "content-type"};
// A stand-in some clients send when they have no key of their own.
constexpr std::string_view kPlaceholderKey = "no-key-required";

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool forwarded(std::string_view name) {
  for (std::string_view f : kForwarded) {
    if (base::iequals_ascii(name, f)) return true;
  }
  for (std::string_view p : kForwardedPrefixes) {
    if (base::istarts_with_ascii(name, p)) return true;
  }
  return false;
}

bool is_credential(std::string_view name) {
  for (std::string_view c : kCredentialHeaders) {
    if (base::iequals_ascii(name, c)) return true;
  }
  return false;
}

// The token behind an Authorization value ("Bearer X" → X), or the raw value.
std::string_view bearer_token(std::string_view value, bool* is_bearer) {
  *is_bearer = base::istarts_with_ascii(value, "bearer ");
  if (!*is_bearer) return value;
  std::string_view token = value.substr(7);
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  return token;
}

AuthMode classify_token(std::string_view token) {
  if (starts_with(token, "sk-ant-oat") || starts_with(token, "sk-ant-sid") ||
      starts_with(token, "sess-")) {
    return AuthMode::kSubscription;
  }
  std::size_t dots = 0;
  for (char c : token) dots += c == '.';
  if (starts_with(token, "ya29.") || dots >= 2) return AuthMode::kOauth;
  if (starts_with(token, "sk-") || starts_with(token, "AIza") || starts_with(token, "AKIA") ||
      starts_with(token, "ASIA")) {
    return AuthMode::kPayg;
  }
  return AuthMode::kOauth;
}

bool usable_key(const std::optional<std::string>& value) {
  if (!value || value->empty()) return false;
  bool bearer = false;
  std::string_view token = bearer_token(*value, &bearer);
  return !token.empty() && token != kPlaceholderKey;
}

bool valid_user_project(std::string_view v) {
  if (v.empty() || v.size() > 128) return false;
  for (char c : v) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == ':' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> header_list_tokens(std::string_view value) {
  std::vector<std::string_view> tokens;
  while (true) {
    std::size_t comma = value.find(',');
    std::string_view token = trim_ows(value.substr(0, comma));
    if (!token.empty()) tokens.push_back(token);
    if (comma == std::string_view::npos) return tokens;
    value.remove_prefix(comma + 1);
  }
}

std::optional<std::string> find_header(const HeaderList& headers, std::string_view name) {
  for (const auto& [k, v] : headers) {
    if (base::iequals_ascii(k, name)) return v;
  }
  return std::nullopt;
}

std::string_view auth_mode_name(AuthMode mode) {
  switch (mode) {
    case AuthMode::kPayg: return "payg";
    case AuthMode::kOauth: return "oauth";
    case AuthMode::kSubscription: return "subscription";
    case AuthMode::kUnknown: return "unknown";
  }
  return "unknown";
}

bool api_key_credential(const HeaderList& inbound) {
  if (auto key = find_header(inbound, "x-api-key"); usable_key(key)) {
    return classify_token(*key) == AuthMode::kPayg;
  }
  if (auto auth = find_header(inbound, "authorization"); usable_key(auth)) {
    bool bearer = false;
    std::string_view token = bearer_token(*auth, &bearer);
    return bearer && classify_token(token) == AuthMode::kPayg;
  }
  return false;
}

AuthMode classify_auth(const HeaderList& inbound, std::string_view env_key) {
  std::string agent = base::ascii_lower(find_header(inbound, "user-agent").value_or(""));
  for (std::string_view a : kSubscriptionAgents) {
    if (agent.find(a) != std::string::npos) return AuthMode::kSubscription;
  }
  if (auto auth = find_header(inbound, "authorization"); usable_key(auth)) {
    bool bearer = false;
    std::string_view token = bearer_token(*auth, &bearer);
    if (!bearer) return AuthMode::kOauth;
    return classify_token(token);
  }
  if (auto key = find_header(inbound, "x-api-key"); usable_key(key)) {
    AuthMode m = classify_token(*key);
    return m == AuthMode::kSubscription ? m : AuthMode::kPayg;
  }
  if (usable_key(find_header(inbound, "x-goog-api-key"))) return AuthMode::kPayg;
  if (!env_key.empty()) return classify_token(env_key);
  return AuthMode::kUnknown;
}

Result<MappedHeaders> map_request_headers(const Route& route, const HeaderList& inbound,
                                          const Config& config, const EnvLookup& env) {
  MappedHeaders out;
  bool propagate_trace = env("CAVE_PROPAGATE_TRACE_HEADERS_UPSTREAM").has_value();
  bool has_key = false;
  for (const auto& [name, value] : inbound) {
    if (is_credential(name)) {
      // Forwarded byte for byte; a placeholder key is dropped so the env key can apply.
      std::optional<std::string> v = value;
      if (!usable_key(v)) continue;
      out.upstream.emplace_back(name, value);
      has_key = true;
      continue;
    }
    bool trace = base::iequals_ascii(name, "traceparent") || base::iequals_ascii(name, "tracestate");
    if (forwarded(name) || (trace && propagate_trace)) out.upstream.emplace_back(name, value);
  }
  out.credential_source = has_key ? "request" : "none";

  std::string env_key;
  if (!has_key) {
    auto apply = [&](std::string_view var, std::string_view header, bool bearer_scheme) {
      std::optional<std::string> key = env(var);
      if (!key) return false;
      env_key = *key;
      out.upstream.emplace_back(std::string(header), bearer_scheme ? "Bearer " + *key : *key);
      out.credential_source = "env:" + std::string(var);
      return true;
    };
    switch (route.provider) {
      case Provider::kAnthropic: apply("ANTHROPIC_API_KEY", "x-api-key", false); break;
      case Provider::kOpenAI: apply("OPENAI_API_KEY", "Authorization", true); break;
      case Provider::kGemini:
        if (!apply("GEMINI_API_KEY", "x-goog-api-key", false)) {
          apply("GOOGLE_API_KEY", "x-goog-api-key", false);
        }
        break;
      case Provider::kCompat:
        for (const CompatMount& m : config.compat) {
          if (m.name == route.compat_name && !m.api_key_env.empty()) {
            apply(m.api_key_env, "Authorization", true);
          }
        }
        break;
    }
  }

  if (route.provider == Provider::kAnthropic && !find_header(out.upstream, "anthropic-version")) {
    out.upstream.emplace_back("anthropic-version", "2023-06-01");
  }
  if (route.provider == Provider::kGemini) {
    if (auto auth = find_header(out.upstream, "authorization")) {
      bool bearer = false;
      bearer_token(*auth, &bearer);
      if (bearer && !valid_user_project(find_header(inbound, "x-goog-user-project").value_or(""))) {
        return Status::InvalidArgument(
            codes::kHeaderMappingFailed,
            "Gemini OAuth (Authorization: Bearer) needs an x-goog-user-project header "
            "matching [A-Za-z0-9._:-]{1,128}");
      }
    }
  }
  out.auth_mode = classify_auth(inbound, env_key);
  return out;
}

HeaderList filter_response_headers(const HeaderList& upstream) {
  // Headers the Connection header nominates are hop-by-hop too.
  std::vector<std::string> nominated;
  for (const auto& [name, value] : upstream) {
    if (!base::iequals_ascii(name, "connection")) continue;
    for (std::string_view token : header_list_tokens(value)) nominated.push_back(base::ascii_lower(token));
  }
  HeaderList out;
  for (const auto& [name, value] : upstream) {
    std::string n = base::ascii_lower(name);
    bool drop = starts_with(n, "proxy-") || starts_with(n, "x-cave");
    for (std::string_view h : kHopByHop) drop = drop || n == h;
    for (const std::string& h : nominated) drop = drop || n == h;
    if (!drop) out.emplace_back(name, value);
  }
  return out;
}

}  // namespace caveman::proxy
