// Build-time generator of the pixel glyph atlas (format: ../atlas_format.h).
//
//   gen_glyph_atlas <spleen-5x8.psfu.gz> <unifont.hex> <out.bin> <out_info.h>
//
// Printable ASCII, and every other code point Spleen 5×8 maps (PSF2 Unicode table) to a glyph
// with ink, keeps Spleen's crisp 1-bit glyph; every other BMP code point Unifont covers is box-filtered from 8×16 (→ 5×8, one cell) or 16×16
// (→ 10×8, two cells) into 4-bit coverage, with a gain so 1-pixel strokes stay dark.
// Deterministic: the same fonts give the same bytes. Exit 1 with a message on any problem.
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "pixel/atlas_format.h"

namespace {

namespace atlas = caveman::pixel::atlas;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "gen_glyph_atlas: %s\n", what.c_str());
  std::exit(1);
}

std::string read_gzip(const char* path) {
  gzFile f = gzopen(path, "rb");
  if (f == nullptr) die(std::string("cannot open ") + path);
  std::string out;
  char buf[65536];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  bool bad = n < 0;
  gzclose(f);
  if (bad) die(std::string("cannot read ") + path);
  return out;
}

std::uint32_t le32(const std::string& s, std::size_t at) {
  if (at + 4 > s.size()) die("truncated PSF2 header");
  std::uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<std::size_t>(i)]);
  return v;
}

// A glyph as coverage 0..15, row-major, width = cells × 5.
struct Glyph {
  int cells = 1;
  std::vector<std::uint8_t> px;
};

// Decodes one UTF-8 sequence of the PSF2 table at s[i]; advances i. 0 on malformed input.
char32_t next_utf8(const std::string& s, std::size_t& i, std::size_t end) {
  auto b = static_cast<unsigned char>(s[i]);
  int len = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (len == 0 || i + static_cast<std::size_t>(len) > end) {
    ++i;
    return 0;
  }
  char32_t cp = len == 1 ? b : b & (0x7F >> len);
  for (int k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]) & 0x3F);
  i += static_cast<std::size_t>(len);
  return cp;
}

void load_spleen(const char* path, std::vector<Glyph>& glyphs, std::vector<bool>& from_spleen) {
  std::string psf = read_gzip(path);
  if (psf.size() < 32 || le32(psf, 0) != 0x864AB572u) die("not a PSF2 font: " + std::string(path));
  std::uint32_t header = le32(psf, 8), flags = le32(psf, 12), count = le32(psf, 16);
  std::uint32_t charsize = le32(psf, 20), height = le32(psf, 24), width = le32(psf, 28);
  if (width != atlas::kCellWidth || height != atlas::kCellHeight || charsize != 8) {
    die("expected a 5x8 PSF2 font");
  }
  if ((flags & 1) == 0) die("PSF2 font without a Unicode table");
  std::size_t table = header + static_cast<std::size_t>(count) * charsize;
  if (table > psf.size()) die("truncated PSF2 glyphs");
  std::size_t i = table;
  for (std::uint32_t g = 0; g < count && i < psf.size(); ++g) {
    Glyph glyph;
    glyph.px.resize(static_cast<std::size_t>(atlas::kCellWidth) * atlas::kCellHeight);
    for (int y = 0; y < atlas::kCellHeight; ++y) {
      auto row = static_cast<unsigned char>(psf[header + g * charsize + static_cast<std::size_t>(y)]);
      for (int x = 0; x < atlas::kCellWidth; ++x) {
        glyph.px[static_cast<std::size_t>(y) * atlas::kCellWidth + static_cast<std::size_t>(x)] = (row & (0x80 >> x)) ? 15 : 0;
      }
    }
    std::size_t end = psf.find('\xFF', i);
    if (end == std::string::npos) end = psf.size();
    std::size_t seq = psf.find('\xFE', i);
    std::size_t singles_end = (seq != std::string::npos && seq < end) ? seq : end;
    // Spleen 5×8 maps many Latin-1 letters to blank cells: outside ASCII a Spleen glyph is
    // only taken when it has ink (box drawing, blocks, …); the rest comes from Unifont.
    bool has_ink = std::any_of(glyph.px.begin(), glyph.px.end(), [](std::uint8_t v) { return v != 0; });
    while (i < singles_end) {
      char32_t cp = next_utf8(psf, i, singles_end);
      bool ascii = cp >= 0x20 && cp < 0x7F;
      if (cp != 0 && cp < atlas::kCodePoints && !from_spleen[cp] && (ascii || has_ink)) {
        glyphs[cp] = glyph;
        from_spleen[cp] = true;
      }
    }
    i = end + 1;
  }
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

// Box-filters a w×16 bitmap to (w/16·10)×8 coverage: each output pixel averages the source
// area it covers (fractional columns weighted), then a gain of 1.8 keeps 1-px strokes dark.
Glyph downscale(const std::vector<std::uint8_t>& bits, int src_w) {
  Glyph g;
  g.cells = src_w == 16 ? 2 : 1;
  int out_w = g.cells * atlas::kCellWidth;
  double sx = static_cast<double>(src_w) / out_w;
  g.px.resize(static_cast<std::size_t>(out_w) * atlas::kCellHeight);
  for (int oy = 0; oy < atlas::kCellHeight; ++oy) {
    for (int ox = 0; ox < out_w; ++ox) {
      double x0 = ox * sx, x1 = (ox + 1) * sx, ink = 0;
      for (int y = oy * 2; y < oy * 2 + 2; ++y) {
        for (int x = static_cast<int>(x0); x < src_w && x < x1; ++x) {
          double overlap = std::min<double>(x + 1, x1) - std::max<double>(x, x0);
          if (overlap > 0 && bits[static_cast<std::size_t>(y) * static_cast<std::size_t>(src_w) + static_cast<std::size_t>(x)]) {
            ink += overlap;
          }
        }
      }
      double cover = std::min(1.0, 1.8 * ink / (sx * 2));
      g.px[static_cast<std::size_t>(oy) * static_cast<std::size_t>(out_w) + static_cast<std::size_t>(ox)] =
          static_cast<std::uint8_t>(std::lround(cover * 15));
    }
  }
  return g;
}

void load_unifont(const char* path, std::vector<Glyph>& glyphs, const std::vector<bool>& from_spleen,
                  std::vector<bool>& present) {
  std::ifstream in(path);
  if (!in) die(std::string("cannot open ") + path);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    unsigned long cp = std::stoul(line.substr(0, colon), nullptr, 16);
    std::string hex = line.substr(colon + 1);
    while (!hex.empty() && (hex.back() == '\r' || hex.back() == ' ')) hex.pop_back();
    if (cp >= atlas::kCodePoints) continue;
    if (hex.size() != 32 && hex.size() != 64) die("unexpected Unifont glyph size at " + line.substr(0, colon));
    int w = hex.size() == 32 ? 8 : 16;
    std::vector<std::uint8_t> bits(static_cast<std::size_t>(w) * 16);
    for (std::size_t k = 0; k < hex.size(); ++k) {
      int d = hex_digit(hex[k]);
      if (d < 0) die("bad hex digit in Unifont at " + line.substr(0, colon));
      for (int b = 0; b < 4; ++b) bits[k * 4 + static_cast<std::size_t>(b)] = (d >> (3 - b)) & 1;
    }
    present[cp] = true;
    if (!from_spleen[cp]) glyphs[cp] = downscale(bits, w);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) die("usage: gen_glyph_atlas <spleen-5x8.psfu.gz> <unifont.hex> <out.bin> <out_info.h>");
  std::vector<Glyph> glyphs(atlas::kCodePoints);
  std::vector<bool> from_spleen(atlas::kCodePoints, false);
  std::vector<bool> present(atlas::kCodePoints, false);
  load_spleen(argv[1], glyphs, from_spleen);
  load_unifont(argv[2], glyphs, from_spleen, present);

  std::vector<std::uint32_t> index(atlas::kCodePoints, atlas::kMissing);
  std::string data;
  std::uint32_t count = 0, spleen = 0;
  for (std::uint32_t cp = 0; cp < atlas::kCodePoints; ++cp) {
    if (!from_spleen[cp] && !present[cp]) continue;
    const Glyph& g = glyphs[cp];
    index[cp] = static_cast<std::uint32_t>(data.size()) | (g.cells == 2 ? atlas::kWideBit : 0);
    std::string packed(atlas::glyph_bytes(g.cells), '\0');
    for (std::size_t p = 0; p < g.px.size(); ++p) {
      packed[p / 2] = static_cast<char>(packed[p / 2] | (p % 2 == 0 ? g.px[p] << 4 : g.px[p]));
    }
    data += packed;
    ++count;
    if (from_spleen[cp]) ++spleen;
  }
  if (index[0xFFFD] == atlas::kMissing) die("no replacement glyph U+FFFD");

  atlas::AtlasHeader h{};
  std::memcpy(h.magic, atlas::kMagic, sizeof h.magic);
  h.cell_width = atlas::kCellWidth;
  h.cell_height = atlas::kCellHeight;
  h.glyph_count = count;
  h.spleen_glyphs = spleen;
  h.index_offset = sizeof h;
  h.data_offset = h.index_offset + atlas::kCodePoints * 4;
  h.data_size = static_cast<std::uint32_t>(data.size());

  std::ofstream bin(argv[3], std::ios::binary | std::ios::trunc);
  bin.write(reinterpret_cast<const char*>(&h), sizeof h);
  bin.write(reinterpret_cast<const char*>(index.data()), static_cast<std::streamsize>(index.size() * 4));
  bin.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!bin) die(std::string("cannot write ") + argv[3]);

  std::ostringstream info;
  info << "// Generated by gen_glyph_atlas; do not edit.\n#pragma once\n"
       << "#define CAVEMAN_PIXEL_ATLAS_INCBIN \".incbin \\\"" << argv[3] << "\\\"\"\n"
       << "#define CAVEMAN_PIXEL_ATLAS_SIZE " << (sizeof h + index.size() * 4 + data.size()) << "u\n"
       << "#define CAVEMAN_PIXEL_ATLAS_GLYPHS " << count << "u\n";
  std::ofstream hdr(argv[4], std::ios::trunc);
  hdr << info.str();
  if (!hdr) die(std::string("cannot write ") + argv[4]);
  return 0;
}
