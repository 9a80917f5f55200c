// The marker_facts_true grader's checker: every elision marker in a compressor's output must
// state only facts that hold against the original. Kept content is aligned with the original
// in order (lines, table rows, JSON elements or text sections), each marker must consume
// exactly the number of original units it names, every original unit must be accounted
// for, and summary invariants (constants, enumerations, coverage, ranges) are checked
// against fields read from the elided originals. Pure function; safe from any thread.
#ifndef CAVEMAN_EVALS_MARKER_FACTS_H_
#define CAVEMAN_EVALS_MARKER_FACTS_H_

#include <string>
#include <string_view>
#include <vector>

namespace caveman::evals {

struct MarkerFacts {
  std::vector<std::string> failures;  // empty = every stated fact holds
  int markers = 0;                    // markers checked
  int facts = 0;                      // summary entries verified
};

// Content types with a marker grammar: json, log, terminal, search-result, config, diff,
// text, tabular, repetition. Any other type is a failure (the grader fails closed).
MarkerFacts check_marker_facts(std::string_view content_type, std::string_view original,
                               std::string_view output);

}  // namespace caveman::evals

#endif  // CAVEMAN_EVALS_MARKER_FACTS_H_
