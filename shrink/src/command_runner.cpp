#include "command_runner.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>

#include "caveman/base/codes.h"

namespace caveman::shrink {
namespace {

// The running child, for the forwarding handler (pid_t fits a sig_atomic_t on Linux).
volatile std::sig_atomic_t g_child = 0;

void forward_signal(int sig) {
  pid_t child = static_cast<pid_t>(g_child);
  if (child > 0) kill(child, sig);
}

// Installs the forwarding/ignoring dispositions for the lifetime of one command.
class SignalScope {
 public:
  explicit SignalScope(pid_t child) {
    g_child = static_cast<std::sig_atomic_t>(child);
    struct sigaction forward {};
    forward.sa_handler = forward_signal;
    sigemptyset(&forward.sa_mask);
    forward.sa_flags = SA_RESTART;
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGTERM, &forward, &old_term_);
    sigaction(SIGHUP, &forward, &old_hup_);
    sigaction(SIGINT, &ignore, &old_int_);
    sigaction(SIGQUIT, &ignore, &old_quit_);
  }
  ~SignalScope() {
    sigaction(SIGTERM, &old_term_, nullptr);
    sigaction(SIGHUP, &old_hup_, nullptr);
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGQUIT, &old_quit_, nullptr);
    g_child = 0;
  }
  SignalScope(const SignalScope&) = delete;
  SignalScope& operator=(const SignalScope&) = delete;

 private:
  struct sigaction old_term_ {};
  struct sigaction old_hup_ {};
  struct sigaction old_int_ {};
  struct sigaction old_quit_ {};
};

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

int wait_blocking(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

// SIGTERM was sent; give the command two seconds to go, then SIGKILL.
int wait_with_grace(pid_t pid) {
  int status = 0;
  timespec tick{0, 10'000'000};
  for (int i = 0; i < 200; ++i) {
    pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return status;
    if (r < 0 && errno != EINTR) return status;
    nanosleep(&tick, nullptr);
  }
  kill(pid, SIGKILL);
  return wait_blocking(pid);
}

}  // namespace

std::string signal_name(int signal) {
  if (const char* abbrev = sigabbrev_np(signal)) return std::string("SIG") + abbrev;
  return "signal " + std::to_string(signal);
}

Result<RunResult> run_command(const RunOptions& options) {
  std::vector<std::string> args = options.argv;
  if (options.shell) {
    std::string script;
    for (const std::string& a : options.argv) {
      if (!script.empty()) script.push_back(' ');
      script += a;
    }
    args = {"/bin/sh", "-c", script};
  }
  if (args.empty() || args[0].empty()) {
    return Status::InvalidArgument(codes::kInvalidArguments, "no command given");
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  int out[2] = {-1, -1};
  int exec_status[2] = {-1, -1};
  if (pipe2(out, O_CLOEXEC) != 0 || pipe2(exec_status, O_CLOEXEC) != 0) {
    int e = errno;
    close_fd(out[0]);
    close_fd(out[1]);
    return Status::Internal(codes::kCommandFailed, std::string("pipe: ") + std::strerror(e));
  }
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    for (int* fd : {&out[0], &out[1], &exec_status[0], &exec_status[1]}) close_fd(*fd);
    return Status::Internal(codes::kCommandFailed, std::string("fork: ") + std::strerror(e));
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec.
    dup2(out[1], STDOUT_FILENO);
    dup2(out[1], STDERR_FILENO);
    execvp(argv[0], argv.data());
    int e = errno;
    ssize_t ignored = write(exec_status[1], &e, sizeof e);
    (void)ignored;
    _exit(base::kExitNotFound);
  }
  close_fd(out[1]);
  close_fd(exec_status[1]);
  SignalScope signals(pid);

  RunResult result;
  int exec_errno = 0;
  ssize_t n;
  while ((n = read(exec_status[0], &exec_errno, sizeof exec_errno)) < 0 && errno == EINTR) {
  }
  close_fd(exec_status[0]);
  if (n == static_cast<ssize_t>(sizeof exec_errno)) {
    close_fd(out[0]);
    wait_blocking(pid);
    result.exec_failed = true;
    result.exit_code = exec_errno == ENOENT ? base::kExitNotFound : base::kExitNotExecutable;
    result.exec_error = exec_errno == ENOENT ? "command not found" : std::strerror(exec_errno);
    return result;
  }

  std::string buffer(std::size_t{64} * 1024, '\0');
  while (true) {
    ssize_t got = read(out[0], buffer.data(), buffer.size());
    if (got < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (got == 0) break;
    std::size_t room = options.stop_after_bytes - result.output.size();
    result.output.append(buffer.data(), std::min(room, static_cast<std::size_t>(got)));
    if (result.output.size() >= options.stop_after_bytes) {
      result.stopped = true;
      kill(pid, SIGTERM);
      break;
    }
  }
  close_fd(out[0]);  // a writer still running gets SIGPIPE
  int status = result.stopped ? wait_with_grace(pid) : wait_blocking(pid);
  if (WIFSIGNALED(status)) {
    result.signal = WTERMSIG(status);
    result.exit_code = base::kExitSignalBase + result.signal;
  } else if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

}  // namespace caveman::shrink
