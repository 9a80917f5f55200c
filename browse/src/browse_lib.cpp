#include "browse_lib.h"

#include <ostream>

#include "caveman/common_flags.h"

namespace caveman::browse {
namespace {

constexpr const char* kUsage =
    "usage: caveman-browse [--help] [--version] [version --json]\n"
    "\n"
    "browser MCP server with compact accessibility snapshots.\n"
    "status: not implemented yet (issue 11); every other verb exits 2 with\n"
    "cave_not_implemented.\n";

}  // namespace

int run(const std::vector<std::string>& args, std::istream&, std::ostream& out,
        std::ostream& err) {
  ToolInfo tool{"caveman-browse", "caveman.browse.version.v1", kUsage, {}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;
  return not_implemented("caveman-browse", args.empty() ? "(default)" : args[0], err);
}

}  // namespace caveman::browse
