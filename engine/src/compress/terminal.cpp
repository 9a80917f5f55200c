// Placeholder until the terminal compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_terminal_compressor() { return make_declining_compressor("terminal"); }

}  // namespace caveman::compress
