// Route matching for caveman-proxy (docs/proxy.md#routes): which provider an inbound request
// is for, which upstream path it goes to, and which agent it is attributed to.
//
// Matching works on the raw request target (percent-encoding untouched) so an encoded
// separator can never smuggle a different mount name past the matcher; the query string is
// carried through unchanged. All provider routes are POST only. Pure functions over Config.
// Failure: kNotFound with codes::kRouteNotFound.
#ifndef CAVEMAN_PROXY_ROUTES_H_
#define CAVEMAN_PROXY_ROUTES_H_

#include <string>
#include <string_view>

#include "caveman/status.h"
#include "config.h"

namespace caveman::proxy {

enum class Provider { kAnthropic, kOpenAI, kGemini, kCompat };

enum class Endpoint {
  kMessages,          // Anthropic /v1/messages
  kCountTokens,       // Anthropic /v1/messages/count_tokens
  kChatCompletions,   // OpenAI-shaped /chat/completions
  kResponses,         // OpenAI-shaped /responses
  kEmbeddings,        // OpenAI-shaped /embeddings
  kGenerateContent,   // Gemini :generateContent
  kStreamGenerate,    // Gemini :streamGenerateContent
  kGeminiCountTokens, // Gemini :countTokens
  kOther,             // any other path under a compat mount (forwarded, never transformed)
};

struct Route {
  Provider provider = Provider::kAnthropic;
  Endpoint endpoint = Endpoint::kOther;
  std::string agent;          // from /w/<agent>/…; empty when unattributed
  int agent_pid = 0;          // from /w/<agent>/@<pid>/… (caveman wrap's lease); 0 = none
  std::string compat_name;    // for Provider::kCompat
  std::string path;           // request path after the /w/ rewrite (raw)
  std::string upstream_url;   // origin + joined path + query
  std::string origin;         // scheme://host[:port] of the upstream
  std::string upstream_host;  // host part, for the SSRF guard
  int upstream_port = 0;
  std::string model;          // Gemini: the model named in the path
};

std::string_view provider_name(Provider p);  // anthropic, openai, gemini, openai_compatible
std::string_view endpoint_name(Endpoint e);  // messages, count_tokens, chat_completions, …

// Matches `method` + raw `target` (path and optional ?query).
// Errors: codes::kRouteNotFound (unknown path, wrong method, bad /w/ slug or compat path),
// codes::kUpstreamUnavailable (the configured base URL is not usable).
Result<Route> match_route(std::string_view method, std::string_view target, const Config& config);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_ROUTES_H_
