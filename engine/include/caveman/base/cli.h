// caveman/base/cli.h — the CLI11 conventions every Caveman binary shares (docs/base.md).
//
// make_app() builds a tool's CLI11 app with the common flags (-h/--help, --version, the
// `version [--json]` subcommand); parse_args() runs it without letting a CLI11 exception
// escape and maps the outcome to an exit code. Each binary then adds its own subcommands and
// options. Not thread-safe (an app is used by one thread); writes only to the given streams.
#ifndef CAVEMAN_BASE_CLI_H_
#define CAVEMAN_BASE_CLI_H_

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/base/exit_code.h"
#include "caveman/common_flags.h"

namespace caveman::base {

// An app named `tool.name`; `description` heads its --help, `footer` (exit codes,
// environment) ends it.
std::unique_ptr<CLI::App> make_app(const ToolInfo& tool, std::string description,
                                   std::string footer);

// Parses `args` (program name excluded; `help` as the last word after subcommand names means
// --help, unless the last of them takes positionals). Returns nullopt when the command should
// run; else the exit code: kExitOk after printing the help of the (sub)command asked (with its
// own footer, if it set one) or the version, `usage_code` after one usage_error() line on
// `err` (or, when the first word names no subcommand of an app that takes no positionals, a
// `codes::kUnknownCommand` line).
std::optional<int> parse_args(CLI::App& app, const ToolInfo& tool,
                              const std::vector<std::string>& args, std::ostream& out,
                              std::ostream& err, int usage_code = kExitUsage);

// For integer options, as `->transform(decimal())`: ASCII digits only, read as decimal (CLI11
// alone would take "0x10" as hex, "010" as octal, and a sign). Leading zeros are dropped.
const CLI::Validator& decimal();

// Reports a usage error found after parsing, in the same one-line form:
// `<tool>: codes::kInvalidArguments: <message> (see <tool> --help)`. Returns `code`.
int usage_error(std::string_view tool, std::string_view message, std::ostream& err,
                int code = kExitUsage);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_CLI_H_
