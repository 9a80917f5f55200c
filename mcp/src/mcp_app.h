// caveman-mcp: the MCP server with the five engine tools (stdio by default, or loopback
// Streamable HTTP with --http). run() parses the command line and serves; it returns the
// process exit code (0 on EOF / shutdown, 2 on usage errors, 1 when it cannot serve).
#ifndef CAVEMAN_MCP_MCP_APP_H_
#define CAVEMAN_MCP_MCP_APP_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::mcp {

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_MCP_APP_H_
