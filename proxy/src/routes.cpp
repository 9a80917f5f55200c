#include "routes.h"

#include <charconv>

#include "caveman/base/codes.h"
#include "url.h"

namespace caveman::proxy {
namespace {

Status not_found(std::string message) {
  return Status::NotFound(codes::kRouteNotFound, std::move(message));
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Strips `prefix` when `path` is exactly it or continues with '/'.
bool strip_prefix(std::string_view* path, std::string_view prefix) {
  if (!starts_with(*path, prefix)) return false;
  std::string_view rest = path->substr(prefix.size());
  if (rest.empty() || rest.front() != '/') return false;
  *path = rest;
  return true;
}

bool contains_ci(std::string_view s, std::string_view needle) {
  for (std::size_t i = 0; i + needle.size() <= s.size(); ++i) {
    bool eq = true;
    for (std::size_t j = 0; j < needle.size() && eq; ++j) {
      char a = s[i + j];
      if (a >= 'A' && a <= 'Z') a = static_cast<char>(a - 'A' + 'a');
      eq = a == needle[j];
    }
    if (eq) return true;
  }
  return false;
}

// A compat sub-path: no encoded separators, no dot segments, no empty inner segments.
bool safe_compat_rest(std::string_view rest) {
  if (rest.size() < 2 || rest.front() != '/') return false;
  if (contains_ci(rest, "%2f") || contains_ci(rest, "%5c") || contains_ci(rest, "%2e") ||
      rest.find('\\') != std::string_view::npos) {
    return false;
  }
  std::size_t at = 1;
  while (at <= rest.size()) {
    std::size_t slash = rest.find('/', at);
    if (slash == std::string_view::npos) slash = rest.size();
    std::string_view seg = rest.substr(at, slash - at);
    bool last = slash == rest.size();
    if (seg.empty() && !last) return false;
    if (seg == "." || seg == "..") return false;
    at = slash + 1;
  }
  return true;
}

Status fill_upstream(std::string_view base_url, const std::string& joined_path,
                     std::string_view query, Route* route) {
  std::optional<Url> url = parse_url(base_url);
  if (!url) {
    return Status::Unavailable(codes::kUpstreamUnavailable,
                               "the upstream base URL for " +
                                   std::string(provider_name(route->provider)) +
                                   " is not an absolute http(s) URL");
  }
  route->origin = url->origin();
  route->upstream_host = url->host;
  route->upstream_port = url->port;
  route->upstream_url = route->origin + joined_path + std::string(query);
  return Status::Ok();
}

std::string base_url_for(const Config& config, const std::string& provider) {
  auto it = config.provider_base_urls.find(provider);
  if (it != config.provider_base_urls.end()) return it->second;
  if (provider == "anthropic") return "https://api.anthropic.com";
  if (provider == "openai") return "https://api.openai.com";
  return "https://generativelanguage.googleapis.com";
}

std::string base_path(std::string_view base_url) {
  std::optional<Url> url = parse_url(base_url);
  return url ? url->path : std::string();
}

// The upstream of a built-in provider's route: `path` (its provider prefix removed) under the
// configured base URL of route->provider.
Status fill_provider_upstream(const Config& config, std::string_view path, std::string_view query,
                              Route* route) {
  std::string base = base_url_for(config, std::string(provider_name(route->provider)));
  return fill_upstream(base, base_path(base) + std::string(path), query, route);
}

Endpoint openai_endpoint(std::string_view path) {
  if (ends_with(path, "/chat/completions")) return Endpoint::kChatCompletions;
  if (ends_with(path, "/responses")) return Endpoint::kResponses;
  if (ends_with(path, "/embeddings")) return Endpoint::kEmbeddings;
  return Endpoint::kOther;
}

}  // namespace

std::string_view provider_name(Provider p) {
  switch (p) {
    case Provider::kAnthropic: return "anthropic";
    case Provider::kOpenAI: return "openai";
    case Provider::kGemini: return "gemini";
    case Provider::kCompat: return "openai_compatible";
  }
  return "unknown";
}

std::string_view endpoint_name(Endpoint e) {
  switch (e) {
    case Endpoint::kMessages: return "messages";
    case Endpoint::kCountTokens: return "count_tokens";
    case Endpoint::kChatCompletions: return "chat_completions";
    case Endpoint::kResponses: return "responses";
    case Endpoint::kEmbeddings: return "embeddings";
    case Endpoint::kGenerateContent: return "generate_content";
    case Endpoint::kStreamGenerate: return "stream_generate_content";
    case Endpoint::kGeminiCountTokens: return "count_tokens";
    case Endpoint::kOther: return "other";
  }
  return "other";
}

Result<Route> match_route(std::string_view method, std::string_view target, const Config& config) {
  std::size_t q = target.find('?');
  std::string_view path = target.substr(0, q);
  std::string_view query = q == std::string_view::npos ? std::string_view() : target.substr(q);
  Route route;

  if (starts_with(path, "/w/")) {
    std::string_view after = path.substr(3);
    std::size_t slash = after.find('/');
    if (slash == std::string_view::npos) return not_found("agent prefix without a path");
    std::string_view slug = after.substr(0, slash);
    std::string_view rest = after.substr(slash);
    if (!valid_route_name(slug)) return not_found("invalid agent slug in /w/ prefix");
    if (rest == "/") return not_found("agent prefix without a path");
    route.agent = std::string(slug);
    path = rest;
    // `/w/<agent>/@<pid>/…`: caveman wrap's lease (the agent is alive while the pid is).
    if (starts_with(path, "/@")) {
      std::size_t end = path.find('/', 2);
      std::string_view digits = path.substr(2, end == std::string_view::npos ? end : end - 2);
      int pid = 0;
      auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
      if (end == std::string_view::npos || digits.empty() || ec != std::errc() ||
          ptr != digits.data() + digits.size() || pid <= 0) {
        return not_found("invalid agent lease in /w/ prefix");
      }
      route.agent_pid = pid;
      path = path.substr(end);
    }
  }
  route.path = std::string(path);
  if (method != "POST") return not_found("provider routes accept POST only");

  // Anthropic.
  {
    std::string_view p = path;
    strip_prefix(&p, "/anthropic");
    if (p == "/v1/messages" || p == "/v1/messages/count_tokens") {
      route.provider = Provider::kAnthropic;
      route.endpoint = p == "/v1/messages" ? Endpoint::kMessages : Endpoint::kCountTokens;
      CAVEMAN_RETURN_IF_ERROR(fill_provider_upstream(config, p, query, &route));
      return route;
    }
  }
  // OpenAI.
  {
    std::string_view p = path;
    strip_prefix(&p, "/openai");
    if (p == "/v1/chat/completions" || p == "/v1/responses" || p == "/v1/embeddings") {
      route.provider = Provider::kOpenAI;
      route.endpoint = openai_endpoint(p);
      CAVEMAN_RETURN_IF_ERROR(fill_provider_upstream(config, p, query, &route));
      return route;
    }
  }
  // Gemini: /[gemini/]v1beta/models/{model}:{method}.
  {
    std::string_view p = path;
    strip_prefix(&p, "/gemini");
    constexpr std::string_view kModels = "/v1beta/models/";
    if (starts_with(p, kModels)) {
      std::string_view tail = p.substr(kModels.size());
      std::size_t colon = tail.rfind(':');
      if (colon != std::string_view::npos && colon > 0 &&
          tail.substr(0, colon).find('/') == std::string_view::npos) {
        std::string_view verb = tail.substr(colon + 1);
        Endpoint e = Endpoint::kOther;
        if (verb == "generateContent") e = Endpoint::kGenerateContent;
        if (verb == "streamGenerateContent") e = Endpoint::kStreamGenerate;
        if (verb == "countTokens") e = Endpoint::kGeminiCountTokens;
        if (e != Endpoint::kOther) {
          route.provider = Provider::kGemini;
          route.endpoint = e;
          route.model = std::string(tail.substr(0, colon));
          CAVEMAN_RETURN_IF_ERROR(fill_provider_upstream(config, p, query, &route));
          return route;
        }
      }
    }
  }
  // Named OpenAI-compatible mounts: /compat/<name>/…
  if (starts_with(path, "/compat/")) {
    std::string_view after = path.substr(8);
    std::size_t slash = after.find('/');
    std::string_view name = after.substr(0, slash);
    std::string_view rest = slash == std::string_view::npos ? std::string_view() : after.substr(slash);
    for (const CompatMount& mount : config.compat) {
      if (mount.name != name) continue;
      if (!safe_compat_rest(rest)) return not_found("compat path is not a plain sub-path");
      route.provider = Provider::kCompat;
      route.compat_name = mount.name;
      route.endpoint = openai_endpoint(rest);
      std::optional<Url> base = parse_url(mount.base_url);
      std::string joined = join_overlapping(base ? base->path : "", rest);
      CAVEMAN_RETURN_IF_ERROR(fill_upstream(mount.base_url, joined, query, &route));
      return route;
    }
    return not_found("no compat mount named \"" + std::string(name) + "\"");
  }
  return not_found("no provider route for " + std::string(path));
}

}  // namespace caveman::proxy
