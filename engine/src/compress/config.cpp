// Placeholder until the config compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_config_compressor() { return make_declining_compressor("config"); }

}  // namespace caveman::compress
