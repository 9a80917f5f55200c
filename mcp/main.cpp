// caveman-mcp: MCP stdio server with the five Caveman engine tools.
#include <exception>
#include <iostream>

#include "mcp_lib.h"

int main(int argc, char** argv) {
  try {
    return caveman::mcp::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "caveman-mcp: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
