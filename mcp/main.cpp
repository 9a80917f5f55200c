// caveman-mcp: MCP server exposing the Caveman engine tools (stdio or loopback HTTP).
#include <iostream>

#include "caveman/base/log.h"
#include "mcp_app.h"

int main(int argc, char** argv) {
  return caveman::base::guarded_main("caveman-mcp", [&] {
    return caveman::mcp::run({argv + 1, argv + argc}, std::cout, std::cerr);
  });
}
