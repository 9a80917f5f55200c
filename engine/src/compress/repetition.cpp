// Placeholder until the repetition compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_repetition_compressor() { return make_declining_compressor("repetition"); }

}  // namespace caveman::compress
