// The graders of the eval manifest (docs/spec/ranking.md#graders, plus reparses, marker_facts_true
// and recovery_exact). A grader is a pure verdict over one compressed fixture: "" when it
// passes, else a one-line reason. Unknown grader types fail (fail closed).
#ifndef CAVEMAN_EVALS_GRADERS_H_
#define CAVEMAN_EVALS_GRADERS_H_

#include <string>
#include <string_view>
#include <vector>

#include "caveman/engine.h"
#include "evals/manifest.h"

namespace caveman::evals {

struct GradeInput {
  std::string_view input;        // the fixture's exact bytes
  const CompressResult& result;  // output, content_type, method, ratio, handle
  bool recoverable = false;      // output == input, or the handle retrieves the input exactly
  // What the model reads without a retrieve: the output with its factored blocks expanded
  // (docs/formats.md); markers stay. Content graders judge this, not the raw view.
  std::string_view readable;
};

std::string grade(const GraderSpec& grader, const GradeInput& in);

// Sorted names of every grader type grade() knows.
std::vector<std::string> known_grader_types();

}  // namespace caveman::evals

#endif  // CAVEMAN_EVALS_GRADERS_H_
