// caveman: the user-facing Caveman CLI (docs/spec/processes.md#cli-dispatch, narrowed by issue 9).
//
// run() dispatches one command line: the verb table (start, wrap, install, status/doctor,
// stats, tools …, and the delegating verbs compress/retrieve/toon/evals → caveman-engine,
// shrink, browse, mem → their binaries), the agent shortcut `caveman <agent> …` (= wrap), and
// the shared --help/--version/version --json. An unknown verb prints the nearest verb and
// exits 2. `env` is the caller's environment; run() never reads the ambient one itself.
#ifndef CAVEMAN_CLI_LIB_H_
#define CAVEMAN_CLI_LIB_H_

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

#include "process.h"

namespace caveman::cli {

int run(const std::vector<std::string>& args, const Environment& env, std::ostream& out,
        std::ostream& err);

// Edit distance (optimal string alignment: insert, delete, replace, swap neighbours), and the closest name within distance 3 ("" when none).
std::size_t edit_distance(std::string_view a, std::string_view b);
std::string suggest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_LIB_H_
