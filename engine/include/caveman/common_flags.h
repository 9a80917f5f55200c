// caveman/common_flags.h — the few flags every Caveman executable shares.
//
// handle_common_flags() answers `--help`, `-h`, `help`, `--version` and `version [--json]`
// for a tool, so every binary reports the one project version the same way. Pure function
// of its arguments; writes only to the given streams.
#ifndef CAVEMAN_COMMON_FLAGS_H_
#define CAVEMAN_COMMON_FLAGS_H_

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace caveman {

struct ToolInfo {
  std::string_view name;            // "caveman-proxy"
  std::string_view schema;          // "caveman.proxy.version.v1"
  std::string_view usage;           // full --help text
  std::vector<std::string_view> capabilities;  // listed by `version --json`
};

// Prints `<name> <version>`, or with `json` the one-line `version --json` object.
void print_version(const ToolInfo& tool, bool json, std::ostream& out);

// Returns an exit code when `args` (program name excluded) is a common flag, else nullopt.
std::optional<int> handle_common_flags(const ToolInfo& tool, const std::vector<std::string>& args,
                                       std::ostream& out);

// The honest answer for a verb whose issue has not landed: exit 2, codes::kNotImplemented.
int not_implemented(std::string_view tool, std::string_view verb, std::ostream& err);

}  // namespace caveman

#endif  // CAVEMAN_COMMON_FLAGS_H_
