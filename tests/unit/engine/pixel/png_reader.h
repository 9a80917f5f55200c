// Test-only PNG reader (zlib inflate + PNG unfiltering) used to check what the pixel
// renderer wrote: signature, chunk CRCs, IHDR and the decoded pixels.
#ifndef CAVEMAN_TESTS_UNIT_ENGINE_PIXEL_PNG_READER_H_
#define CAVEMAN_TESTS_UNIT_ENGINE_PIXEL_PNG_READER_H_

#include <zlib.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace caveman::pixel::pngtest {

struct DecodedPng {
  int width = 0;
  int height = 0;
  int channels = 0;
  std::vector<std::uint8_t> pixels;
};

inline std::uint32_t be32(const std::string& s, std::size_t at) {
  return (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

// nullopt on any structural problem (bad signature, CRC, IHDR, size, filter byte).
inline std::optional<DecodedPng> decode_png(const std::string& png) {
  if (png.size() < 8 || png.compare(0, 8, std::string("\x89PNG\r\n\x1a\n", 8)) != 0) return std::nullopt;
  DecodedPng out;
  std::string idat;
  bool end = false;
  for (std::size_t at = 8; at + 12 <= png.size() && !end;) {
    std::uint32_t len = be32(png, at);
    if (at + 12 + len > png.size()) return std::nullopt;
    std::string type = png.substr(at + 4, 4);
    std::string body = png.substr(at + 4, 4 + len);
    if (crc32(0, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size())) !=
        be32(png, at + 8 + len)) {
      return std::nullopt;
    }
    std::string data = png.substr(at + 8, len);
    if (type == "IHDR") {
      if (len != 13 || data[8] != 8 || data[10] != 0 || data[11] != 0 || data[12] != 0) return std::nullopt;
      out.width = static_cast<int>(be32(data, 0));
      out.height = static_cast<int>(be32(data, 4));
      out.channels = data[9] == 0 ? 1 : data[9] == 2 ? 3 : 0;
      if (out.channels == 0) return std::nullopt;
    } else if (type == "IDAT") {
      idat += data;
    } else if (type == "IEND") {
      end = true;
    }
    at += 12 + len;
  }
  if (!end || out.width <= 0 || out.height <= 0) return std::nullopt;
  const std::size_t stride = static_cast<std::size_t>(out.width) * static_cast<std::size_t>(out.channels);
  uLongf raw_len = static_cast<uLongf>((stride + 1) * static_cast<std::size_t>(out.height));
  std::vector<std::uint8_t> raw(raw_len);
  if (uncompress(raw.data(), &raw_len, reinterpret_cast<const Bytef*>(idat.data()),
                 static_cast<uLong>(idat.size())) != Z_OK ||
      raw_len != raw.size()) {
    return std::nullopt;
  }
  out.pixels.resize(stride * static_cast<std::size_t>(out.height));
  const std::size_t bpp = static_cast<std::size_t>(out.channels);
  for (int y = 0; y < out.height; ++y) {
    const std::uint8_t* in = raw.data() + static_cast<std::size_t>(y) * (stride + 1);
    std::uint8_t* cur = out.pixels.data() + static_cast<std::size_t>(y) * stride;
    const std::uint8_t* up = y > 0 ? cur - stride : nullptr;
    for (std::size_t i = 0; i < stride; ++i) {
      int a = i >= bpp ? cur[i - bpp] : 0, b = up ? up[i] : 0, c = (up && i >= bpp) ? up[i - bpp] : 0;
      int pred = 0;
      switch (in[0]) {
        case 0: pred = 0; break;
        case 1: pred = a; break;
        case 2: pred = b; break;
        case 3: pred = (a + b) / 2; break;
        case 4: {
          int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
          pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
          break;
        }
        default: return std::nullopt;
      }
      cur[i] = static_cast<std::uint8_t>(in[1 + i] + pred);
    }
  }
  return out;
}

}  // namespace caveman::pixel::pngtest

#endif  // CAVEMAN_TESTS_UNIT_ENGINE_PIXEL_PNG_READER_H_
