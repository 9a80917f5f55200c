#include "pixel_mode.h"

#include <optional>

namespace caveman::proxy {
namespace {

std::optional<pixel::WireFormat> format_for(Endpoint endpoint) {
  switch (endpoint) {
    case Endpoint::kMessages: return pixel::WireFormat::kAnthropic;
    case Endpoint::kChatCompletions: return pixel::WireFormat::kOpenAiChat;
    case Endpoint::kResponses: return pixel::WireFormat::kOpenAiResponses;
    case Endpoint::kGenerateContent:
    case Endpoint::kStreamGenerate: return pixel::WireFormat::kGemini;
    default: return std::nullopt;
  }
}

std::optional<std::string_view> view(const std::optional<std::string>& s) {
  if (!s) return std::nullopt;
  return std::string_view(*s);
}

}  // namespace

PixelOutcome apply_pixel_mode(Endpoint endpoint, std::string_view model, AuthMode auth, std::string_view body,
                              ccr::Store* store, const EnvLookup& env) {
  PixelOutcome out;
  std::optional<pixel::WireFormat> format = format_for(endpoint);
  if (!format) {
    out.info.reason = "endpoint_not_supported";
    return out;
  }
  if (auth == AuthMode::kSubscription) {
    out.info.reason = "subscription_auth";
    return out;
  }
  if (store == nullptr) {
    out.info.reason = "no_recovery_store";
    return out;
  }
  std::optional<std::string> models = env ? env("CAVE_PIXEL_MODELS") : std::nullopt;
  if (!pixel::model_allowed(model, pixel::allowlist_from_env(view(models)))) {
    out.info.reason = "model_not_allowed";  // fail closed: unknown models never get images
    return out;
  }
  pixel::TransformOptions options;
  options.model = std::string(model);
  std::optional<std::string> density = env ? env("CAVE_PIXEL_DENSITY") : std::nullopt;
  options.density = pixel::density_from_env(view(density));
  pixel::TransformOutput t = pixel::transform_request(body, *format, options, store);
  out.info = std::move(t.info);
  if (!out.info.compressed || !out.info.recoverable) return out;
  out.changed = true;
  out.body = std::move(t.body);
  out.handle = out.info.recovery_handle;
  return out;
}

}  // namespace caveman::proxy
