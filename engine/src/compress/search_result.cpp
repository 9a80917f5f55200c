// Placeholder until the search-result compressor lands: declines every input (pass-through).
#include "compress/compressors.h"

namespace caveman::compress {

std::unique_ptr<Compressor> make_search_result_compressor() { return make_declining_compressor("search-result"); }

}  // namespace caveman::compress
