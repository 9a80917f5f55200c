// `caveman-engine objects …`: the native runtime's typed CCR objects (docs/spec/ccr.md#objects).
//   objects list <session> [--limit N] [--full]   newest first; data cut to 512 bytes unless --full
//   objects get <id>                              one object as JSON (ccr:// prefix accepted)
//   objects set <id> [--currentness C] [--lifecycle L]   update, then print the object
// Exit codes: 0 ok, 1 unknown id / invalid value / store error (its code on stderr), 2 usage.
#ifndef CAVEMAN_CLI_OBJECTS_COMMAND_H_
#define CAVEMAN_CLI_OBJECTS_COMMAND_H_

#include <CLI/CLI.hpp>

#include <iosfwd>
#include <optional>
#include <string>

namespace caveman::engine_cli {

// What `objects list|get|set` was given, filled by CLI11.
struct ObjectsFlags {
  std::string verb;    // list, get or set
  std::string target;  // the session (list) or the object id
  int limit = 0;       // list: 0 = no limit
  bool full = false;
  std::optional<std::string> currentness;  // set: checked by the store
  std::optional<std::string> lifecycle;
};

// Adds `list`, `get` and `set` under the `objects` subcommand.
void add_objects_commands(CLI::App& objects, ObjectsFlags* f);

int run_objects_command(const ObjectsFlags& f, std::ostream& out, std::ostream& err);

}  // namespace caveman::engine_cli

#endif  // CAVEMAN_CLI_OBJECTS_COMMAND_H_
