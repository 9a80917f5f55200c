// Placeholder until the text compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_text_compressor() { return make_declining_compressor("text"); }

}  // namespace caveman::compress
