#include "mem_lib.h"

#include <ostream>

#include "caveman/common_flags.h"

namespace caveman::mem {
namespace {

constexpr const char* kUsage =
    "usage: cavemem [--help] [--version] [version --json]\n"
    "\n"
    "durable agent memory with ranked recall.\n"
    "status: not implemented yet (issue 12); every other verb exits 2 with\n"
    "cave_not_implemented.\n";

}  // namespace

int run(const std::vector<std::string>& args, std::istream&, std::ostream& out,
        std::ostream& err) {
  ToolInfo tool{"cavemem", "caveman.mem.version.v1", kUsage, {}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;
  return not_implemented("cavemem", args.empty() ? "(default)" : args[0], err);
}

}  // namespace caveman::mem
