// The proxy's `mode: pixel` (docs/pixel.md#proxy-mode-pixel): for an allowlisted model the big text
// blocks of the latest live user message are rendered to PNG image blocks by the engine's pixel
// transform, after the WHOLE original request has been stored in CCR. Every gate that does not
// hold — wrong endpoint, subscription auth, model outside CAVE_PIXEL_MODELS, no store, not
// profitable, any error — means `changed == false` and the caller forwards the original bytes.
// Savings are never booked (only the optimizer id `pixel-render` and the recovery handle).
// Thread-safe when the store is.
#ifndef CAVEMAN_PROXY_PIXEL_MODE_H_
#define CAVEMAN_PROXY_PIXEL_MODE_H_

#include <string>
#include <string_view>

#include "caveman/ccr.h"
#include "caveman/pixel.h"
#include "config.h"
#include "headers.h"
#include "routes.h"

namespace caveman::proxy {

inline constexpr std::string_view kPixelOptimizerId = "pixel-render";

struct PixelOutcome {
  bool changed = false;
  std::string body;    // the request to send when changed
  std::string handle;  // CCR handle of the stored original request
  pixel::TransformInfo info;
};

// `model` is the row's model (body field, or the Gemini path's model).
PixelOutcome apply_pixel_mode(Endpoint endpoint, std::string_view model, AuthMode auth, std::string_view body,
                              ccr::Store* store, const EnvLookup& env);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_PIXEL_MODE_H_
