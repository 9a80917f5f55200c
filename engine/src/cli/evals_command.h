// `caveman-engine evals run [--fixtures DIR]` (docs/spec/ranking.md#evals): runs the embedded eval suite
// (or the one in DIR) and prints the report as indented JSON plus a newline. Exit 0 when every
// fixture passed, 1 when any failed or the suite could not be loaded (one `evals: <code>: …`
// line on stderr); wrong arguments are caught by the command line (exit 2).
#ifndef CAVEMAN_CLI_EVALS_COMMAND_H_
#define CAVEMAN_CLI_EVALS_COMMAND_H_

#include <iosfwd>
#include <string>

namespace caveman::engine_cli {

// `dir` empty: the embedded suite.
int run_evals(const std::string& dir, std::ostream& out, std::ostream& err);

}  // namespace caveman::engine_cli

#endif  // CAVEMAN_CLI_EVALS_COMMAND_H_
