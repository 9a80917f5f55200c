// `caveman-shrink lint`: what each tool of a catalog costs in o200k tokens, before and after
// shrinking, and where the worst offenders spend their tokens (descriptions, client-only
// metadata). Pure functions of the input; thread-safe.
#ifndef CAVEMAN_SHRINK_LINT_H_
#define CAVEMAN_SHRINK_LINT_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/tokens.h"

namespace caveman::shrink {

struct LintRow {
  std::string name;
  std::int64_t before = 0;              // tokens of the tool as given
  std::int64_t after = 0;               // tokens of the tool once shrunk
  std::int64_t description_tokens = 0;  // tokens inside its description strings (before)
  std::int64_t client_only_tokens = 0;  // tokens of members only clients read (before)
  std::string longest_description;      // "" (tool) or the parameter name
  std::int64_t longest_description_tokens = 0;
};

struct LintReport {
  bool catalog = false;
  std::string note;  // why it is not a catalog
  std::vector<LintRow> rows;  // catalog order
  std::int64_t total_before = 0;  // whole document
  std::int64_t total_after = 0;

  // Fixed-width table: "TOOL BEFORE AFTER RATIO", one row per tool (%-28s %10d %10d %7.1f%%),
  // a TOTAL row with "(basis: inferred)", then the five worst offenders by tokens.
  std::string table() const;
  // {"tools":[{"name","before","after","ratio","description_tokens","client_only_tokens"}…],
  //  "total":{"before","after","ratio"},"worst":[names…],"basis":"inferred"}
  std::string to_json() const;
};

inline constexpr std::size_t kWorstOffenders = 5;

LintReport lint_catalog(std::string_view input, const tokens::Counter& counter);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_LINT_H_
