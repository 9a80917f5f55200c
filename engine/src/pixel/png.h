// A minimal PNG writer over zlib: 8-bit grayscale or RGB, no interlace, per-row adaptive
// filter (minimum sum of absolute differences, ties → the lower filter number), zlib level 9.
// Deterministic for a given zlib build. Pure; thread-safe.
#ifndef CAVEMAN_PIXEL_PNG_H_
#define CAVEMAN_PIXEL_PNG_H_

#include <cstdint>
#include <string>
#include <vector>

#include "caveman/status.h"

namespace caveman::pixel {

// `pixels` holds height rows of width × channels bytes (channels 1 = gray, 3 = RGB).
// Errors: kInvalidArgument for a size mismatch or zero dimensions; kInternal when zlib fails.
Result<std::string> encode_png(int width, int height, int channels,
                               const std::vector<std::uint8_t>& pixels);

}  // namespace caveman::pixel

#endif  // CAVEMAN_PIXEL_PNG_H_
