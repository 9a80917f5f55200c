// `caveman-engine pixel render|simulate` (docs/pixel.md#cli). `pixel` alone → its help on
// stderr, exit 2; `pixel help` → its help, exit 0; an unknown verb or bad flags → exit 1 (the
// caller maps CLI11's errors inside `pixel`). Files are read from disk (no stdin); failures
// print one `pixel <verb>: <code>: …` line on stderr (codes: caveman/base/codes.h).
#ifndef CAVEMAN_CLI_PIXEL_COMMAND_H_
#define CAVEMAN_CLI_PIXEL_COMMAND_H_

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "caveman/pixel.h"

namespace caveman::engine_cli {

// The environment the command reads (CAVE_PIXEL_DENSITY, CAVE_PIXEL_MODELS); tests pass a
// fake. nullopt = unset.
using PixelEnv = std::optional<std::string> (*)(const char* name);
std::optional<std::string> process_pixel_env(const char* name);

// What `pixel render|simulate` was given, filled by CLI11.
struct PixelFlags {
  std::string verb;  // render, simulate, or empty (pixel alone)
  std::string file;
  pixel::RenderOptions render;
  bool dense = false;
  bool no_reflow = false;
  std::optional<std::string> density;  // checked by parse_density
  std::string model;
  std::optional<std::string> format;  // checked against wire_format_name
};

// Adds `render` and `simulate` under the `pixel` subcommand.
void add_pixel_commands(CLI::App& pixel, PixelFlags* f);

// `pixel_help` is what `pixel --help` prints (shown on stderr when no verb was given).
int run_pixel(const PixelFlags& f, const std::string& pixel_help, std::ostream& out,
              std::ostream& err, PixelEnv env);

// `caveman-engine pixel <args>` with its own environment (the tests' entry point).
int run_pixel_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                      PixelEnv env = process_pixel_env);

}  // namespace caveman::engine_cli

#endif  // CAVEMAN_CLI_PIXEL_COMMAND_H_
