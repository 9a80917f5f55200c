// caveman: the user-facing Caveman CLI (start, wrap, tools mcp install, status, stats).
// Everything lives in caveman_cli_lib (cli/src/cli_lib.h); this is the thin entry point.
#include <iostream>

#include "caveman/base/log.h"
#include "cli_lib.h"

int main(int argc, char** argv) {
  return caveman::base::guarded_main("caveman", [&] {
    return caveman::cli::run({argv + 1, argv + argc}, caveman::cli::Environment::current(),
                             std::cout, std::cerr);
  });
}
