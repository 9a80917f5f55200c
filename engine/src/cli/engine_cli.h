// The caveman-engine command line (docs/engine.md), as a library so tests can drive it.
#ifndef CAVEMAN_CLI_ENGINE_CLI_H_
#define CAVEMAN_CLI_ENGINE_CLI_H_

#include <iosfwd>
#include <string>
#include <vector>

#include "caveman/base/exit_code.h"
#include "cli/pixel_command.h"

namespace caveman::engine_cli {

// Exit codes (base/exit_code.h): 0 ok (also on pass-through), 1 error, 2 usage / unknown
// subcommand / not implemented.
using base::kExitError;
using base::kExitOk;
using base::kExitUsage;

inline constexpr std::size_t kMaxStdinBytes = 64ULL * 1024 * 1024;

// args excludes the program name; `pixel_env` is what `pixel` reads its variables from.
int run_engine_cli(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                   std::ostream& err, PixelEnv pixel_env = process_pixel_env);

}  // namespace caveman::engine_cli

#endif  // CAVEMAN_CLI_ENGINE_CLI_H_
