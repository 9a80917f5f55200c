// caveman-engine: compress / detect / retrieve / stats / registry / toon / evals / count.
#include <cstdio>
#include <exception>
#include <iostream>

#include "cli/engine_cli.h"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  try {
    std::vector<std::string> args(argv + 1, argv + argc);
    int rc = caveman::engine_cli::run_engine_cli(args, std::cin, std::cout, std::cerr);
    std::cout.flush();
    return rc;
  } catch (const std::exception& e) {
    std::cerr << "caveman-engine: cave_internal_error: " << e.what() << "\n";
    return caveman::engine_cli::kExitError;
  }
}
