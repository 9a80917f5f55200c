// Placeholder until the a11y compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_a11y_compressor() { return make_declining_compressor("a11y"); }

}  // namespace caveman::compress
