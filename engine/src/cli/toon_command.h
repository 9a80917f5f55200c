// `caveman-engine toon encode|decode [options]` (docs/engine.md): stdin → stdout, no trailing
// newline; options mirror the TOON spec fixtures. Invalid input → exit 1 with one
// `toon <verb>: <code>: line N: …` line on stderr and nothing on stdout; bad flags are CLI11
// usage errors (exit 2).
#ifndef CAVEMAN_CLI_TOON_COMMAND_H_
#define CAVEMAN_CLI_TOON_COMMAND_H_

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <string>

#include "caveman/toon.h"

namespace caveman::engine_cli {

// What `toon encode|decode` was given, filled by CLI11.
struct ToonFlags {
  std::string verb;       // encode or decode
  std::string delimiter;  // encode: comma, tab or pipe (or the character); empty = default
  toon::EncodeOptions encode;
  toon::DecodeOptions decode;
};

// Adds `encode` and `decode`, with their options, under the `toon` subcommand.
void add_toon_commands(CLI::App& toon, ToonFlags* f);

int run_toon_command(const ToonFlags& f, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace caveman::engine_cli

#endif  // CAVEMAN_CLI_TOON_COMMAND_H_
