// caveman-proxy's native-runtime verbs (docs/native.md):
//   native-hook <agent> [--adapter X]    stdin hook payload → runtime → host hook output in
//                                        the dialect of X (default: the agent's own; claude,
//                                        codex, gemini; others speak Claude Code's); silent
//                                        (exit 0, no output) on every failure
//   native-hook print-settings [--agent A] [--command CMD]
//                                        A's hooks document (default claude: settings.json or
//                                        a plugin's hooks/hooks.json; codex: hooks.json;
//                                        gemini: settings.json) running CMD (default: this
//                                        binary's `native-hook A`) on every event
//   native-why --decision <id> | <id>    explain a Decision Ledger entry from ccr.db as JSON;
//                                        not found → exit 1; missing id → usage, exit 2
// Home: $CAVEMAN_HOME, else ~/.caveman.
#ifndef CAVEMAN_PROXY_NATIVE_NATIVE_CLI_H_
#define CAVEMAN_PROXY_NATIVE_NATIVE_CLI_H_

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <optional>
#include <string>

#include "caveman/install_key.h"

namespace caveman::proxy::native {

// What native-hook and native-why were given, filled by CLI11.
struct NativeFlags {
  std::optional<std::string> agent;    // native-hook <agent>
  std::optional<std::string> adapter;  // native-hook <agent> --adapter X
  bool print_settings = false;         // native-hook print-settings
  std::string print_agent = "claude";  // print-settings --agent A
  std::string command;                 // print-settings --command CMD
  std::optional<std::string> decision;  // native-why --decision <id> | <id>
};

// Adds the native-hook and native-why subcommands to caveman-proxy's app.
void add_native_commands(CLI::App& app, NativeFlags* f);

int run_native_hook_command(const NativeFlags& f, std::istream& in, std::ostream& out, std::ostream& err);
int run_native_why_command(const NativeFlags& f, std::ostream& out, std::ostream& err);

// The state root lives in the engine (caveman/install_key.h); re-exported for callers here.
using caveman::caveman_home_from_env;

}  // namespace caveman::proxy::native

#endif  // CAVEMAN_PROXY_NATIVE_NATIVE_CLI_H_
