// Placeholder until the toolschema-annotations compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_toolschema_annotations_compressor() { return make_declining_compressor("toolschema-annotations"); }

}  // namespace caveman::compress
