// CLI11 glue for the verbs: parse a verb's flags with the conventions of every Caveman binary
// (base/cli.h, docs/base.md), without letting CLI11 exceptions escape.
//
// parse_flags() returns nullopt when parsing succeeded, else the exit code to return: 0 after
// printing the verb's --help, 2 after a one-line usage error on `err`
// (`caveman <verb>: codes::kInvalidArguments: … (see caveman <verb> --help)`).
#ifndef CAVEMAN_CLI_FLAGS_H_
#define CAVEMAN_CLI_FLAGS_H_

#include <CLI/CLI.hpp>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "caveman/base/cli.h"

namespace caveman::cli {

inline std::optional<int> parse_flags(CLI::App& app, const std::vector<std::string>& args,
                                      std::ostream& out, std::ostream& err) {
  const std::string name = "caveman " + app.get_name();
  return base::parse_args(app, ToolInfo{name, "", "", {}}, args, out, err);
}

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_FLAGS_H_
