#include "pixel/png.h"

#include <zlib.h>

#include <array>
#include <cstdlib>

#include "caveman/base/codes.h"

namespace caveman::pixel {
namespace {

void put32(std::string& out, std::uint32_t v) {
  out.push_back(static_cast<char>(v >> 24));
  out.push_back(static_cast<char>(v >> 16));
  out.push_back(static_cast<char>(v >> 8));
  out.push_back(static_cast<char>(v));
}

void chunk(std::string& out, const char type[5], const std::string& data) {
  put32(out, static_cast<std::uint32_t>(data.size()));
  std::string body(type, 4);
  body += data;
  out += body;
  uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size()));
  put32(out, static_cast<std::uint32_t>(crc));
}

int paeth(int a, int b, int c) {
  int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

}  // namespace

Result<std::string> encode_png(int width, int height, int channels,
                               const std::vector<std::uint8_t>& pixels) {
  if (width <= 0 || height <= 0 || (channels != 1 && channels != 3) ||
      pixels.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) *
                           static_cast<std::size_t>(channels)) {
    return Status::InvalidArgument(codes::kInvalidArguments,
                                   "png: pixel buffer does not match its size");
  }
  std::size_t stride = static_cast<std::size_t>(width) * static_cast<std::size_t>(channels);
  std::size_t bpp = static_cast<std::size_t>(channels);
  std::vector<std::uint8_t> raw;
  raw.reserve((stride + 1) * static_cast<std::size_t>(height));
  std::array<std::vector<std::uint8_t>, 5> cand;
  for (auto& c : cand) c.resize(stride);
  std::vector<std::uint8_t> zero(stride, 0);
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* cur = pixels.data() + static_cast<std::size_t>(y) * stride;
    const std::uint8_t* up = y > 0 ? cur - stride : zero.data();
    std::size_t best = 0;
    std::uint64_t best_cost = UINT64_MAX;
    for (std::size_t f = 0; f < 5; ++f) {
      std::uint64_t cost = 0;
      for (std::size_t i = 0; i < stride; ++i) {
        int a = i >= bpp ? cur[i - bpp] : 0, b = up[i], c = i >= bpp ? up[i - bpp] : 0;
        int pred = f == 0 ? 0 : f == 1 ? a : f == 2 ? b : f == 3 ? (a + b) / 2 : paeth(a, b, c);
        auto v = static_cast<std::uint8_t>(cur[i] - pred);
        cand[f][i] = v;
        cost += v < 128 ? v : 256 - v;
      }
      if (cost < best_cost) {
        best_cost = cost;
        best = f;
      }
    }
    raw.push_back(static_cast<std::uint8_t>(best));
    raw.insert(raw.end(), cand[best].begin(), cand[best].end());
  }
  uLongf zlen = compressBound(static_cast<uLong>(raw.size()));
  std::string z(zlen, '\0');
  if (compress2(reinterpret_cast<Bytef*>(z.data()), &zlen, raw.data(), static_cast<uLong>(raw.size()),
                9) != Z_OK) {
    return Status::Internal(codes::kPixelRenderError, "png: zlib compression failed");
  }
  z.resize(zlen);

  std::string out("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr;
  put32(ihdr, static_cast<std::uint32_t>(width));
  put32(ihdr, static_cast<std::uint32_t>(height));
  ihdr.push_back(8);                                   // bit depth
  ihdr.push_back(static_cast<char>(channels == 1 ? 0 : 2));  // gray / truecolour
  ihdr.append(3, '\0');                                // deflate, adaptive filter, no interlace
  chunk(out, "IHDR", ihdr);
  chunk(out, "IDAT", z);
  chunk(out, "IEND", "");
  return out;
}

}  // namespace caveman::pixel
