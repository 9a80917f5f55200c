// The token budget (docs/formats.md, "budget"): a line-oriented view still larger than the
// budget after factoring keeps its head, tail, problem lines, headings, query matches and its
// rarest lines, and elides the most repeated ones behind fact-bearing markers — instead of sending
// a whole large document through.
#ifndef CAVEMAN_COMPRESS_FACTOR_BUDGET_H_
#define CAVEMAN_COMPRESS_FACTOR_BUDGET_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "caveman/tokens.h"

namespace caveman::compress::factor {

struct Fitted {
  std::string view;     // factored where that pays; holds elision markers
  std::size_t tokens;   // of `view`, by the counter given
};

// `text` cut to at most about `budget` tokens; nullopt when it cannot be cut (too few lines)
// or the cut is not smaller. Lines holding `barrier_needle` (existing markers) always stay.
std::optional<Fitted> fit_budget(std::string_view text, std::string_view query,
                                 std::int64_t budget, std::string_view barrier_needle,
                                 const tokens::Counter& counter);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_BUDGET_H_
