// Placeholder until the json compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_json_compressor() { return make_declining_compressor("json"); }

}  // namespace caveman::compress
