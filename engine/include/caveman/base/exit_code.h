// caveman/base/exit_code.h — the process exit codes of every Caveman binary (docs/base.md).
//
// One table for all seven executables, so "2" means a usage error everywhere. Plain enum on
// purpose: a value converts to the `int` that main() returns. Pure; thread-safe.
#ifndef CAVEMAN_BASE_EXIT_CODE_H_
#define CAVEMAN_BASE_EXIT_CODE_H_

#include "caveman/status.h"

namespace caveman::base {

enum ExitCode : int {
  kExitOk = 0,
  kExitError = 1,           // refused or failed; stderr names an error code
  kExitUsage = 2,           // bad arguments (or a non-loopback listen address): nothing was done
  kExitTooLarge = 65,       // cavemem: memory text over its limit (EX_DATAERR)
  kExitRunnerFailed = 125,  // `caveman-shrink … -- cmd`: caveman-shrink itself failed
  kExitNotExecutable = 126, // a command that cannot be executed
  kExitNotFound = 127,      // a command or agent that is not installed
  kExitSignalBase = 128,    // + N: the command was killed by signal N
};

// The exit code for a command that ends with `status`: kExitOk when ok; kExitUsage for
// codes::kListenNotLoopback and codes::kNotImplemented (a request that can never work as given);
// kExitTooLarge for codes::kMemoryTooLarge; else kExitError. Argument errors found while
// parsing are kExitUsage through base/cli.h, not through a Status.
ExitCode exit_code_for(const Status& status);

}  // namespace caveman::base

#endif  // CAVEMAN_BASE_EXIT_CODE_H_
