// cavemem: durable agent memory with ranked recall — a CLI, and an MCP server on stdio when
// run with no arguments or `mcp`. Logic: mem/src (caveman_mem_lib); usage: docs/mem.md.
#include <iostream>

#include "caveman/base/log.h"
#include "cli.h"

int main(int argc, char** argv) {
  return caveman::base::guarded_main("cavemem", [&] {
    return caveman::mem::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  });
}
