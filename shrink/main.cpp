// caveman-shrink: compress tool catalogs and noisy command output, recoverably.
// All logic lives in caveman_shrink_lib (src/shrink_cli.h); this only forwards argv.
#include <exception>
#include <iostream>

#include "shrink_cli.h"

int main(int argc, char** argv) {
  try {
    return caveman::shrink::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "caveman-shrink: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
