// The embedded glyph atlas (built from Spleen 5×8 and GNU Unifont at build time; see
// gen/gen_glyph_atlas.cpp and atlas_format.h). Read-only, shared, thread-safe.
#ifndef CAVEMAN_PIXEL_ATLAS_H_
#define CAVEMAN_PIXEL_ATLAS_H_

#include <cstdint>

namespace caveman::pixel {

struct GlyphRef {
  const std::uint8_t* data = nullptr;  // packed 4-bit coverage, 8 rows × 5·cells pixels
  int cells = 1;                       // 1, or 2 for double-width (CJK) glyphs
};

// The glyph of BMP code point `cp`, or nothing (data == nullptr) when the atlas lacks it or
// cp is outside the BMP.
GlyphRef find_glyph(char32_t cp);
// Coverage 0..15 of pixel (x, y) of a glyph (x < 5·cells, y < 8).
inline int glyph_pixel(const GlyphRef& g, int x, int y) {
  int p = y * 5 * g.cells + x;
  std::uint8_t b = g.data[p / 2];
  return (p % 2 == 0) ? (b >> 4) : (b & 0x0F);
}
std::uint32_t atlas_glyph_count();
std::uint32_t atlas_spleen_glyph_count();

}  // namespace caveman::pixel

#endif  // CAVEMAN_PIXEL_ATLAS_H_
