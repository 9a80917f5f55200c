// `caveman-engine pixel render|simulate` (docs/pixel.md#cli). `pixel` alone → usage, exit 2;
// `pixel help` → usage, exit 0; unknown verb or bad flags → exit 1. Files are read from
// disk (no stdin); failures print one `pixel <verb>: cave_…` line on stderr.
#ifndef CAVEMAN_CLI_PIXEL_COMMAND_H_
#define CAVEMAN_CLI_PIXEL_COMMAND_H_

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace caveman::engine_cli {

// The environment the command reads (CAVE_PIXEL_DENSITY, CAVE_PIXEL_MODELS); tests pass a
// fake. nullopt = unset.
using PixelEnv = std::optional<std::string> (*)(const char* name);
std::optional<std::string> process_pixel_env(const char* name);

// `args` are the words after `pixel`.
int run_pixel_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                      PixelEnv env = process_pixel_env);

}  // namespace caveman::engine_cli

#endif  // CAVEMAN_CLI_PIXEL_COMMAND_H_
