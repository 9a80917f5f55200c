// caveman: the user-facing Caveman CLI (start, wrap, tools mcp install, status, stats).
// Everything lives in caveman_cli_lib (cli/src/cli_lib.h); this is the thin entry point.
#include <exception>
#include <iostream>

#include "cli_lib.h"

int main(int argc, char** argv) {
  try {
    return caveman::cli::run({argv + 1, argv + argc}, caveman::cli::Environment::current(),
                             std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "caveman: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
