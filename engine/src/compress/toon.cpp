// Placeholder until the toon compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_toon_compressor() { return make_declining_compressor("toon"); }

}  // namespace caveman::compress
