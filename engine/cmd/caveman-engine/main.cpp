// caveman-engine: compress / detect / retrieve / stats / registry / toon / evals / count.
#include <iostream>

#include "caveman/base/log.h"
#include "cli/engine_cli.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return caveman::base::guarded_main("caveman-engine", [&] {
    int rc = caveman::engine_cli::run_engine_cli({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
    std::cout.flush();
    return rc;
  });
}
