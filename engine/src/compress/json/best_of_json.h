// The CAVE_ENGINE_TOON=best-of selector behind make_best_of_json_compressor(), with its two
// candidates injectable so the selection rule can be tested on its own.
#ifndef CAVEMAN_COMPRESS_JSON_BEST_OF_JSON_H_
#define CAVEMAN_COMPRESS_JSON_BEST_OF_JSON_H_

#include <memory>

#include "caveman/compressor.h"
#include "caveman/tokens.h"

namespace caveman::compress {

// Registered as "json". Tries `toon` (query ignored) and keeps it when it has fewer tokens
// than the input; then `elision` (with the query) and keeps it only when it has strictly
// fewer tokens than the best so far, so ties go to TOON. Neither smaller → fail. `counter`
// must outlive the compressor.
std::unique_ptr<Compressor> make_best_of_compressor(const tokens::Counter& counter,
                                                    std::unique_ptr<Compressor> toon,
                                                    std::unique_ptr<Compressor> elision);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_JSON_BEST_OF_JSON_H_
