// Placeholder until the tabular compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_tabular_compressor() { return make_declining_compressor("tabular"); }

}  // namespace caveman::compress
