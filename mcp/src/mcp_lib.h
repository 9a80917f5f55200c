// caveman-mcp: MCP stdio server with the five Caveman engine tools.
// Placeholder until issue 7 lands: only --help / --version / version --json work.
#ifndef CAVEMAN_MCP_LIB_H_
#define CAVEMAN_MCP_LIB_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::mcp {

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_LIB_H_
