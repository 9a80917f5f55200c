// Placeholder until the log compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_log_compressor() { return make_declining_compressor("log"); }

}  // namespace caveman::compress
