// caveman: the user-facing Caveman CLI (start, wrap, tools mcp install, status, stats).
// Placeholder until issue 9 lands: only --help / --version / version --json work.
#ifndef CAVEMAN_CLI_LIB_H_
#define CAVEMAN_CLI_LIB_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::cli {

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_LIB_H_
