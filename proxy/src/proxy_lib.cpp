#include "proxy_lib.h"

#include <ostream>

#include "caveman/common_flags.h"

namespace caveman::proxy {
namespace {

constexpr const char* kUsage =
    "usage: caveman-proxy [--help] [--version] [version --json]\n"
    "\n"
    "loopback HTTP proxy in front of the Anthropic, OpenAI and Gemini APIs.\n"
    "status: not implemented yet (issue 8); every other verb exits 2 with\n"
    "cave_not_implemented.\n";

}  // namespace

int run(const std::vector<std::string>& args, std::istream&, std::ostream& out,
        std::ostream& err) {
  ToolInfo tool{"caveman-proxy", "caveman.proxy.version.v1", kUsage, {}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;
  return not_implemented("caveman-proxy", args.empty() ? "(default)" : args[0], err);
}

}  // namespace caveman::proxy
