// Profiles, canvases and the token estimates of docs/pixel.md#estimates-and-the-gate.
#include <algorithm>
#include <cmath>

#include "caveman/pixel.h"
#include "text/utf8.h"

namespace caveman::pixel {
namespace {

constexpr int kPatch = 28;
constexpr int kGlyphW = 5;
constexpr int kGlyphH = 8;

}  // namespace

Profile profile_for(Density density) {
  switch (density) {
    case Density::kConservative: return {5, 8, false, 1};
    case Density::kBalanced: return {4, 6, true, 1};
    case Density::kMax: return {4, 6, true, 2};
  }
  return {5, 8, false, 1};
}

Canvas canvas_for(Tier tier) { return tier == Tier::kHiRes ? kHiResCanvas : kStandardCanvas; }

// A glyph is 5×8 even when the advance/pitch is smaller, so the last one must fit whole.
int columns_for(const Profile& p, Tier tier) {
  int inner = canvas_for(tier).width - 2 * kPadding;
  return (inner - kGlyphW) / p.advance + 1;
}

int rows_for(const Profile& p, Tier tier) {
  int inner = canvas_for(tier).height - 2 * kPadding;
  return (inner - kGlyphH) / p.pitch + 1;
}

std::int64_t chars_per_page(Density density, Tier tier) {
  Profile p = profile_for(density);
  return static_cast<std::int64_t>(columns_for(p, tier)) * rows_for(p, tier) * p.layers;
}

std::int64_t image_tokens(int width, int height, Tier tier) {
  if (width <= 0 || height <= 0) return 0;
  Canvas c = canvas_for(tier);
  double w = width, h = height;
  double long_edge = std::max(w, h);
  if (long_edge > c.width) {
    double scale = c.width / long_edge;
    w = std::max(1.0, std::floor(w * scale));
    h = std::max(1.0, std::floor(h * scale));
  }
  auto patches = static_cast<std::int64_t>(std::ceil(w / kPatch) * std::ceil(h / kPatch));
  patches = std::min<std::int64_t>(patches, c.max_tokens);
  // Integer arithmetic for the ×1.10 margin so 1456 → 1602 exactly (no 1601.9999 drift).
  return (patches * 110 + 99) / 100;
}

std::int64_t utf16_length(std::string_view text) {
  std::int64_t n = 0;
  for (std::size_t i = 0; i < text.size();) {
    text::Decoded d = text::decode_utf8(text, i);
    n += (d.valid && d.cp > 0xFFFF) ? 2 : 1;
    i += std::max<std::size_t>(1, d.len);
  }
  return n;
}

std::int64_t text_tokens_estimate(std::string_view text, double chars_per_token) {
  if (chars_per_token <= 0) chars_per_token = kDefaultCharsPerToken;
  return static_cast<std::int64_t>(std::ceil(static_cast<double>(utf16_length(text)) / chars_per_token));
}

bool profitable(std::int64_t image, std::int64_t text, std::int64_t prior_warm_tokens) {
  double burn = static_cast<double>(std::max<std::int64_t>(0, prior_warm_tokens)) * (1.25 - 0.10);
  return static_cast<double>(image) + burn < static_cast<double>(text);
}

bool profitable_amortized(std::int64_t image, std::int64_t text, int turns) {
  turns = std::max(1, turns);
  return static_cast<double>(image) * (1.25 + 0.10 * (turns - 1)) <
         static_cast<double>(text) * 0.10 * turns;
}

}  // namespace caveman::pixel
