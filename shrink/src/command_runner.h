// Runs one command for `caveman-shrink -- <cmd> [args…]` and captures what it prints.
//
// fork + execvp, no shell unless `shell` is set (then `/bin/sh -c "<args joined by spaces>"`).
// stdout and stderr share one pipe, so the capture keeps their interleaving; stdin is
// inherited. Capture is bounded: once `stop_after_bytes` have arrived the command is stopped
// (SIGTERM, then SIGKILL after a grace period) and the pipe closed, so output that never ends
// cannot hang or exhaust the caller. While the command runs, SIGTERM and SIGHUP sent to this
// process are forwarded to it and SIGINT/SIGQUIT are left to it (the terminal delivers them
// to the whole foreground group). Blocking; one command at a time per process.
#ifndef CAVEMAN_SHRINK_COMMAND_RUNNER_H_
#define CAVEMAN_SHRINK_COMMAND_RUNNER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "caveman/base/exit_code.h"
#include "caveman/status.h"

namespace caveman::shrink {

inline constexpr std::size_t kDefaultWindowBytes = 8u << 20;  // shown and compressed
inline constexpr std::size_t kStopFactor = 4;                 // stored up to 4 windows

struct RunOptions {
  std::vector<std::string> argv;  // argv[0] is looked up in PATH
  bool shell = false;
  std::size_t stop_after_bytes = kDefaultWindowBytes * kStopFactor;
};

struct RunResult {
  int exit_code = 0;   // the exit status; 128+N when killed by signal N; 126/127 exec failures
  int signal = 0;      // the terminating signal, 0 when the command exited
  bool exec_failed = false;
  std::string exec_error;  // "command not found", "Permission denied"…
  std::string output;      // combined stdout+stderr, at most stop_after_bytes
  bool stopped = false;    // stopped by us because the output reached stop_after_bytes
};

// Errors (kInternal, codes::kCommandFailed) only for failures of this process itself: no pipe,
// no fork. A command that cannot be executed is a RunResult with exec_failed set.
Result<RunResult> run_command(const RunOptions& options);

// "SIGTERM", "SIGKILL"… or "signal N".
std::string signal_name(int signal);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_COMMAND_RUNNER_H_
