// Placeholder until TOON lands: best-of degrades to plain JSON elision.
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_best_of_json_compressor(const tokens::Counter&) {
  return make_json_compressor();
}

}  // namespace caveman::compress
