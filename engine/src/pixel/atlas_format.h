// Binary layout of the glyph atlas that gen/gen_glyph_atlas.cpp writes at build time and
// atlas.cpp links in with `.incbin`. Little-endian, read in place (no parsing at run time).
//
//   AtlasHeader
//   index[65536] (uint32): one entry per BMP code point; kMissing, or the byte offset of the
//                          glyph in the data area with kWideBit set for 2-cell glyphs
//   data: per glyph, cell_height rows × width pixels of 4-bit coverage (0 = paper, 15 = ink),
//         two pixels per byte, high nibble first, rows packed back to back
#ifndef CAVEMAN_PIXEL_ATLAS_FORMAT_H_
#define CAVEMAN_PIXEL_ATLAS_FORMAT_H_

#include <cstdint>

namespace caveman::pixel::atlas {

inline constexpr char kMagic[8] = {'C', 'V', 'P', 'X', 'A', 'T', 'L', '1'};
inline constexpr std::uint32_t kCodePoints = 0x10000;
inline constexpr std::uint32_t kMissing = 0xFFFFFFFFu;
inline constexpr std::uint32_t kWideBit = 0x80000000u;
inline constexpr int kCellWidth = 5;   // one cell: Spleen 5×8
inline constexpr int kCellHeight = 8;

struct AtlasHeader {
  char magic[8];
  std::uint32_t cell_width;
  std::uint32_t cell_height;
  std::uint32_t glyph_count;
  std::uint32_t spleen_glyphs;   // code points taken from Spleen 5×8 (the rest: Unifont)
  std::uint32_t index_offset;
  std::uint32_t data_offset;
  std::uint32_t data_size;
  std::uint32_t reserved;
};
static_assert(sizeof(AtlasHeader) == 40);

// Bytes one glyph of `cells` cells occupies in the data area.
constexpr std::uint32_t glyph_bytes(int cells) {
  return static_cast<std::uint32_t>((cells * kCellWidth * kCellHeight + 1) / 2);
}

}  // namespace caveman::pixel::atlas

#endif  // CAVEMAN_PIXEL_ATLAS_FORMAT_H_
