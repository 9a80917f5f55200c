// cavemem: durable agent memory with ranked recall — a CLI, and an MCP server on stdio when
// run with no arguments or `mcp`. Logic: mem/src (caveman_mem_lib); usage: docs/mem.md.
#include <exception>
#include <iostream>

#include "cli.h"

int main(int argc, char** argv) {
  try {
    return caveman::mem::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "cavemem: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
