// Placeholder until the html compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_html_compressor() { return make_declining_compressor("html"); }

}  // namespace caveman::compress
