#include "cli_lib.h"

#include <ostream>

#include "caveman/common_flags.h"

namespace caveman::cli {
namespace {

constexpr const char* kUsage =
    "usage: caveman [--help] [--version] [version --json]\n"
    "\n"
    "the user-facing Caveman CLI (start, wrap, tools mcp install, status, stats).\n"
    "status: not implemented yet (issue 9); every other verb exits 2 with\n"
    "cave_not_implemented.\n";

}  // namespace

int run(const std::vector<std::string>& args, std::istream&, std::ostream& out,
        std::ostream& err) {
  ToolInfo tool{"caveman", "caveman.cli.version.v1", kUsage, {}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;
  return not_implemented("caveman", args.empty() ? "(default)" : args[0], err);
}

}  // namespace caveman::cli
