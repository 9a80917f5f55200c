// caveman-shrink: compress tool catalogs and noisy command output, recoverably.
#include <exception>
#include <iostream>

#include "shrink_lib.h"

int main(int argc, char** argv) {
  try {
    return caveman::shrink::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "caveman-shrink: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
