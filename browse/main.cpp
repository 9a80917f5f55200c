// caveman-browse: browser MCP server and CLI with compact accessibility snapshots.
#include <exception>
#include <iostream>

#include "browse_app.h"

int main(int argc, char** argv) {
  try {
    return caveman::browse::run({argv + 1, argv + argc}, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "caveman-browse: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
