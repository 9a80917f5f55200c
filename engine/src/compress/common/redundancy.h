// The redundancy gate (docs/spec/markers.md#redundancy): elide repetition, never a document.
#ifndef CAVEMAN_COMPRESS_COMMON_REDUNDANCY_H_
#define CAVEMAN_COMPRESS_COMMON_REDUNDANCY_H_

#include <string_view>
#include <vector>

namespace caveman::compress {

// `keep[i]` true marks units already kept (they seed the classes). Every dropped unit that
// no class represents (90% vocabulary containment, digit masking only for word-bearing
// units) is marked kept and becomes a class; after 128 promotions every remaining unit is
// kept. A pure function of the unit bytes in document order.
void keep_non_redundant(const std::vector<std::string_view>& units, std::vector<bool>& keep);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMMON_REDUNDANCY_H_
