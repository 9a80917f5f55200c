// Placeholder until the toolschema compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_toolschema_compressor() { return make_declining_compressor("toolschema"); }

}  // namespace caveman::compress
