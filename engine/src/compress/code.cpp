// Placeholder until the code compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_code_compressor() { return make_declining_compressor("code"); }

}  // namespace caveman::compress
