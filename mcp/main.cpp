// caveman-mcp: MCP server exposing the Caveman engine tools (stdio or loopback HTTP).
#include <exception>
#include <iostream>

#include "mcp_app.h"

int main(int argc, char** argv) {
  try {
    return caveman::mcp::run({argv + 1, argv + argc}, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "caveman-mcp: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
