// Placeholder until query narrowing lands: the exact original is always a correct answer.
#include "recovery/retrieve_query.h"

namespace caveman::recovery {

std::string narrow_to_query(std::string_view original, std::string_view) {
  return std::string(original);
}

}  // namespace caveman::recovery
