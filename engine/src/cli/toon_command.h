// `caveman-engine toon encode|decode [options]` (docs/engine.md): stdin → stdout, no trailing
// newline; options mirror the TOON spec fixtures. Invalid input → exit 1 with one
// `toon <verb>: cave_…: line N: …` line on stderr and nothing on stdout; bad flags → exit 2.
#ifndef CAVEMAN_CLI_TOON_COMMAND_H_
#define CAVEMAN_CLI_TOON_COMMAND_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::engine_cli {

// `args` are the words after `toon`.
int run_toon_command(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                     std::ostream& err);

}  // namespace caveman::engine_cli

#endif  // CAVEMAN_CLI_TOON_COMMAND_H_
