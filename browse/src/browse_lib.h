// caveman-browse: browser MCP server with compact accessibility snapshots.
// Placeholder until issue 11 lands: only --help / --version / version --json work.
#ifndef CAVEMAN_BROWSE_LIB_H_
#define CAVEMAN_BROWSE_LIB_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::browse {

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_LIB_H_
