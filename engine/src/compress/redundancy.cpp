// Placeholder: keeps every unit (no elision) until the real gate lands.
#include "compress/redundancy.h"

namespace caveman::compress {

void keep_non_redundant(const std::vector<std::string_view>& units, std::vector<bool>& keep) {
  keep.assign(units.size(), true);
}

}  // namespace caveman::compress
