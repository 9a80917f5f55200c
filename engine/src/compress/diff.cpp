// Placeholder until the diff compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_diff_compressor() { return make_declining_compressor("diff"); }

}  // namespace caveman::compress
