// caveman: the user-facing Caveman CLI (start, wrap, tools mcp install, status, stats).
#include <exception>
#include <iostream>

#include "cli_lib.h"

int main(int argc, char** argv) {
  try {
    return caveman::cli::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "caveman: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
