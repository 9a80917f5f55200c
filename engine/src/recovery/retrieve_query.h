// Query-narrowed recovery views (ENGINE.md §6).
#ifndef CAVEMAN_RECOVERY_RETRIEVE_QUERY_H_
#define CAVEMAN_RECOVERY_RETRIEVE_QUERY_H_

#include <string>
#include <string_view>

namespace caveman::recovery {

// Whole units of `original` relevant to `query`, gaps marked; the exact original when the
// query is blank, nothing decomposes, or the view would not be smaller.
std::string narrow_to_query(std::string_view original, std::string_view query);

}  // namespace caveman::recovery

#endif  // CAVEMAN_RECOVERY_RETRIEVE_QUERY_H_
