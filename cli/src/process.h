// Child processes for the caveman CLI: PATH lookup, a captured run with a timeout (version
// probes, `claude mcp add`), a foreground run that forwards the stop signals (start, wrap),
// and a detached background start (the proxy a wrap session needs).
//
// Environments are explicit maps (see Environment), never the ambient `environ`, so what a
// child inherits is decided in one place and testable. POSIX only. Failures to spawn are
// Status values (codes::kSpawnFailed); a child's own exit code is data, not an error.
#ifndef CAVEMAN_CLI_PROCESS_H_
#define CAVEMAN_CLI_PROCESS_H_

#include <sys/types.h>

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"

namespace caveman::cli {

// A copy of an environment. get() treats unset and empty alike (nullopt).
class Environment {
 public:
  Environment() = default;
  // Environment({{"PATH", "/bin"}, …}). (No map constructor: a one-pair list would also match
  // std::map's iterator-range constructor and be ambiguous.)
  Environment(std::initializer_list<std::pair<const std::string, std::string>> vars) : vars_(vars) {}
  static Environment current();  // snapshot of this process's environ

  std::optional<std::string> get(std::string_view name) const;
  void set(const std::string& name, const std::string& value) { vars_[name] = value; }
  void unset(const std::string& name) { vars_.erase(name); }
  const std::map<std::string, std::string>& vars() const { return vars_; }
  // "NAME=value" strings in name order, for exec.
  std::vector<std::string> to_envp() const;

 private:
  std::map<std::string, std::string> vars_;
};

bool is_executable_file(const std::string& path);
// First executable `name` on the colon-separated `path_var`; a name with '/' is checked as is.
std::optional<std::string> find_on_path(std::string_view name, std::string_view path_var);
// Absolute path of the running executable (/proc/self/exe), or empty.
std::string self_executable();

struct Captured {
  int exit_code = -1;  // 128 + signal when killed by a signal
  bool timed_out = false;
  std::string out;
  std::string err;
};

// Runs argv with stdin from /dev/null, capturing stdout/stderr (each capped at 4 MiB).
// On timeout the child is killed (SIGKILL) and timed_out is set.
Result<Captured> run_captured(const std::vector<std::string>& argv, const Environment& env,
                              int timeout_ms, const std::string& cwd = "");

// Runs argv with inherited stdio and waits. SIGINT, SIGTERM, SIGHUP and SIGQUIT received
// meanwhile are forwarded to the child. Returns the child's exit code (128 + signal when the
// child died of a signal). Errors: codes::kSpawnFailed (kNotFound when the file is missing).
Result<int> run_foreground(const std::vector<std::string>& argv, const Environment& env);

// Starts argv in a new session, stdin /dev/null, stdout+stderr appended to `log_path`, and
// does not wait for it. Returns its pid.
Result<pid_t> spawn_detached(const std::vector<std::string>& argv, const Environment& env,
                             const std::string& log_path);

// True when a process with this pid exists (kill(pid, 0) succeeds or fails with EPERM).
bool pid_alive(pid_t pid);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_PROCESS_H_
