// caveman-shrink: compress tool catalogs and noisy command output, recoverably.
// All logic lives in caveman_shrink_lib (src/shrink_cli.h); this only forwards argv.
#include <iostream>

#include "caveman/base/log.h"
#include "shrink_cli.h"

int main(int argc, char** argv) {
  return caveman::base::guarded_main("caveman-shrink", [&] {
    return caveman::shrink::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  });
}
