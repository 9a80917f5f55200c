// caveman-browse: browser MCP server and CLI with compact accessibility snapshots.
#include <iostream>

#include "caveman/base/log.h"
#include "browse_app.h"

int main(int argc, char** argv) {
  return caveman::base::guarded_main("caveman-browse", [&] {
    return caveman::browse::run({argv + 1, argv + argc}, std::cout, std::cerr);
  });
}
