#include "shrink_lib.h"

#include <ostream>

#include "caveman/common_flags.h"

namespace caveman::shrink {
namespace {

constexpr const char* kUsage =
    "usage: caveman-shrink [--help] [--version] [version --json]\n"
    "\n"
    "compress tool catalogs and noisy command output, recoverably.\n"
    "status: not implemented yet (issue 10); every other verb exits 2 with\n"
    "cave_not_implemented.\n";

}  // namespace

int run(const std::vector<std::string>& args, std::istream&, std::ostream& out,
        std::ostream& err) {
  ToolInfo tool{"caveman-shrink", "caveman.shrink.version.v1", kUsage, {}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;
  return not_implemented("caveman-shrink", args.empty() ? "(default)" : args[0], err);
}

}  // namespace caveman::shrink
