#include "mcp_lib.h"

#include <ostream>

#include "caveman/common_flags.h"

namespace caveman::mcp {
namespace {

constexpr const char* kUsage =
    "usage: caveman-mcp [--help] [--version] [version --json]\n"
    "\n"
    "MCP stdio server with the five Caveman engine tools.\n"
    "status: not implemented yet (issue 7); every other verb exits 2 with\n"
    "cave_not_implemented.\n";

}  // namespace

int run(const std::vector<std::string>& args, std::istream&, std::ostream& out,
        std::ostream& err) {
  ToolInfo tool{"caveman-mcp", "caveman.mcp.version.v1", kUsage, {}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;
  return not_implemented("caveman-mcp", args.empty() ? "(default)" : args[0], err);
}

}  // namespace caveman::mcp
