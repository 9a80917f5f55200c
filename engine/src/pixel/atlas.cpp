#include "pixel/atlas.h"

#include <spdlog/spdlog.h>

#include <cstdlib>
#include <cstring>

#include "pixel/atlas_format.h"
#include "pixel_atlas_info.h"  // generated: path and size of the blob below

// The atlas generated at build time, linked in verbatim (pages fault in only when touched).
__asm__(
    ".section .rodata.caveman_pixel_atlas,\"a\",@progbits\n"
    ".balign 64\n"
    ".globl caveman_pixel_atlas\n"
    ".type caveman_pixel_atlas, @object\n"
    "caveman_pixel_atlas:\n" CAVEMAN_PIXEL_ATLAS_INCBIN
    "\n"
    ".size caveman_pixel_atlas, . - caveman_pixel_atlas\n"
    ".previous\n");

// NOLINTNEXTLINE(readability-identifier-naming): the symbol is defined in the assembly above.
extern "C" const unsigned char caveman_pixel_atlas[];

namespace caveman::pixel {
namespace {

struct View {
  const atlas::AtlasHeader* header;
  const std::uint32_t* index;
  const std::uint8_t* data;
};

const View& view() {
  static View v = [] {
    const auto* h = reinterpret_cast<const atlas::AtlasHeader*>(caveman_pixel_atlas);
    if (std::memcmp(h->magic, atlas::kMagic, sizeof atlas::kMagic) != 0 ||
        h->cell_width != atlas::kCellWidth || h->cell_height != atlas::kCellHeight ||
        h->data_offset + h->data_size != CAVEMAN_PIXEL_ATLAS_SIZE) {
      spdlog::critical("embedded pixel glyph atlas is damaged");
      std::abort();
    }
    return View{h, reinterpret_cast<const std::uint32_t*>(caveman_pixel_atlas + h->index_offset),
                caveman_pixel_atlas + h->data_offset};
  }();
  return v;
}

}  // namespace

GlyphRef find_glyph(char32_t cp) {
  if (cp >= atlas::kCodePoints) return {};
  const View& v = view();
  std::uint32_t e = v.index[cp];
  if (e == atlas::kMissing) return {};
  return GlyphRef{v.data + (e & ~atlas::kWideBit), (e & atlas::kWideBit) ? 2 : 1};
}

std::uint32_t atlas_glyph_count() { return view().header->glyph_count; }
std::uint32_t atlas_spleen_glyph_count() { return view().header->spleen_glyphs; }

}  // namespace caveman::pixel
