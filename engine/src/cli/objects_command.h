// `caveman-engine objects …`: the native runtime's typed CCR objects (docs/spec/ccr.md#objects).
//   objects list <session> [--limit N] [--full]   newest first; data cut to 512 bytes unless --full
//   objects get <id>                              one object as JSON (ccr:// prefix accepted)
//   objects set <id> [--currentness C] [--lifecycle L]   update, then print the object
// Exit codes: 0 ok, 1 unknown id / invalid value / store error (cave_… on stderr), 2 usage.
#ifndef CAVEMAN_CLI_OBJECTS_COMMAND_H_
#define CAVEMAN_CLI_OBJECTS_COMMAND_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::engine_cli {

// `args` are the words after `objects`.
int run_objects_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace caveman::engine_cli

#endif  // CAVEMAN_CLI_OBJECTS_COMMAND_H_
