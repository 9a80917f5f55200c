#include "compress/common/keep_policy.h"

#include "compress/common/redundancy.h"
#include "text/bm25.h"

namespace caveman::compress {

void keep_relevant_and_novel(const std::vector<std::string_view>& units, std::string_view query,
                             const KeepPolicy& policy, std::vector<bool>& keep) {
  text::keep_query_relevant(units, query, keep, policy.query_limit);
  keep_non_redundant(units, keep);
}

}  // namespace caveman::compress
