#include "process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "caveman/base/codes.h"

extern char** environ;

namespace caveman::cli {
namespace {

constexpr std::size_t kCaptureCap = 4u << 20;
constexpr int kForwardedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// argv/envp as the C arrays exec wants; built before fork (no allocation in the child).
struct ExecArgs {
  std::vector<std::string> argv_store;
  std::vector<std::string> envp_store;
  std::vector<char*> argv;
  std::vector<char*> envp;

  ExecArgs(const std::vector<std::string>& args, const Environment& env)
      : argv_store(args), envp_store(env.to_envp()) {
    for (auto& a : argv_store) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : envp_store) envp.push_back(e.data());
    envp.push_back(nullptr);
  }
};

int decode_wait_status(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

Status spawn_error(const std::string& file, int err) {
  if (err == ENOENT) return Status::NotFound(codes::kSpawnFailed, file + ": not found");
  return Status::Unavailable(codes::kSpawnFailed, file + ": " + std::strerror(err));
}

// In the child after fork: exec or report errno through `report_fd` and _exit(127).
[[noreturn]] void exec_child(ExecArgs& ex, int report_fd) {
  ::execve(ex.argv[0], ex.argv.data(), ex.envp.data());
  int e = errno;
  if (report_fd >= 0) {
    ssize_t ignored = ::write(report_fd, &e, sizeof e);
    (void)ignored;
  }
  ::_exit(127);
}

// Resolves argv[0] through PATH of the child's env when it has no '/'.
Result<std::string> resolve_program(const std::vector<std::string>& argv, const Environment& env) {
  if (argv.empty()) return Status::InvalidArgument(codes::kSpawnFailed, "empty command");
  if (argv[0].find('/') != std::string::npos) return argv[0];
  auto found = find_on_path(argv[0], env.get("PATH").value_or("/usr/local/bin:/usr/bin:/bin"));
  if (!found) return Status::NotFound(codes::kSpawnFailed, argv[0] + ": not found on PATH");
  return *found;
}

// fork+exec with a CLOEXEC pipe that carries the exec errno back, so "not found" is a Status.
template <typename ChildSetup>
Result<pid_t> fork_exec(const std::vector<std::string>& argv, const Environment& env,
                        ChildSetup&& setup) {
  CAVEMAN_ASSIGN_OR_RETURN(std::string program, resolve_program(argv, env));
  std::vector<std::string> args = argv;
  args[0] = program;
  ExecArgs ex(args, env);
  int report[2];
  if (::pipe2(report, O_CLOEXEC) != 0) return spawn_error(program, errno);
  pid_t pid = ::fork();
  if (pid < 0) {
    int e = errno;
    ::close(report[0]);
    ::close(report[1]);
    return spawn_error(program, e);
  }
  if (pid == 0) {
    ::close(report[0]);
    setup();
    exec_child(ex, report[1]);
  }
  ::close(report[1]);
  int child_errno = 0;
  ssize_t n;
  do {
    n = ::read(report[0], &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  ::close(report[0]);
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    return spawn_error(program, child_errno);
  }
  return pid;
}

volatile sig_atomic_t g_forward_pid = 0;

void forward_signal(int sig) {
  pid_t pid = g_forward_pid;
  if (pid > 0) ::kill(pid, sig);
}

}  // namespace

Environment Environment::current() {
  Environment env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view kv(*e);
    std::size_t eq = kv.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    env.vars_.emplace(std::string(kv.substr(0, eq)), std::string(kv.substr(eq + 1)));
  }
  return env;
}

std::optional<std::string> Environment::get(std::string_view name) const {
  auto it = vars_.find(std::string(name));
  if (it == vars_.end() || it->second.empty()) return std::nullopt;
  return it->second;
}

std::vector<std::string> Environment::to_envp() const {
  std::vector<std::string> out;
  out.reserve(vars_.size());
  for (const auto& [k, v] : vars_) out.push_back(k + "=" + v);
  return out;
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  return ::access(path.c_str(), X_OK) == 0;
}

std::optional<std::string> find_on_path(std::string_view name, std::string_view path_var) {
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string_view::npos) {
    std::string p(name);
    return is_executable_file(p) ? std::optional<std::string>(p) : std::nullopt;
  }
  std::size_t start = 0;
  while (start <= path_var.size()) {
    std::size_t end = path_var.find(':', start);
    if (end == std::string_view::npos) end = path_var.size();
    std::string dir(path_var.substr(start, end - start));
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + std::string(name);
    if (is_executable_file(candidate)) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

std::string self_executable() {
  char buf[4096];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  return std::string(buf, static_cast<std::size_t>(n));
}

Result<Captured> run_captured(const std::vector<std::string>& argv, const Environment& env,
                              int timeout_ms, const std::string& cwd) {
  int out_pipe[2];
  int err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) return spawn_error(argv.empty() ? "" : argv[0], errno);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    int e = errno;
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    return spawn_error(argv.empty() ? "" : argv[0], e);
  }
  auto spawned = fork_exec(argv, env, [&] {
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    if (!cwd.empty() && ::chdir(cwd.c_str()) != 0) ::_exit(127);
  });
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (!spawned.ok()) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    return spawned.status();
  }
  pid_t pid = *spawned;
  Captured result;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result.out, &result.err};
  int open_fds = 2;
  while (open_fds > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    deadline - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) {
      result.timed_out = true;
      ::kill(pid, SIGKILL);
      break;
    }
    int rc = ::poll(fds, 2, static_cast<int>(left));
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      char buf[65536];
      ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        if (sinks[i]->size() < kCaptureCap) {
          sinks[i]->append(buf, std::min<std::size_t>(static_cast<std::size_t>(n),
                                                      kCaptureCap - sinks[i]->size()));
        }
      } else if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds) {
    if (f.fd >= 0) ::close(f.fd);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = decode_wait_status(status);
  return result;
}

Result<int> run_foreground(const std::vector<std::string>& argv, const Environment& env) {
  // Handlers go in before the fork so a signal arriving right after it is still forwarded.
  struct sigaction forward {};
  forward.sa_handler = forward_signal;
  sigemptyset(&forward.sa_mask);
  struct sigaction previous[4];
  for (int i = 0; i < 4; ++i) ::sigaction(kForwardedSignals[i], &forward, &previous[i]);
  auto restore = [&] {
    g_forward_pid = 0;
    for (int i = 0; i < 4; ++i) ::sigaction(kForwardedSignals[i], &previous[i], nullptr);
  };
  auto spawned = fork_exec(argv, env, [&] {
    // The child starts with default dispositions for the forwarded signals.
    for (int sig : kForwardedSignals) ::signal(sig, SIG_DFL);
  });
  if (!spawned.ok()) {
    restore();
    return spawned.status();
  }
  g_forward_pid = *spawned;
  int status = 0;
  while (::waitpid(*spawned, &status, 0) < 0) {
    if (errno != EINTR) {
      restore();
      return Status::Internal(codes::kSpawnFailed, std::string("waitpid: ") + std::strerror(errno));
    }
  }
  restore();
  return decode_wait_status(status);
}

Result<pid_t> spawn_detached(const std::vector<std::string>& argv, const Environment& env,
                             const std::string& log_path) {
  int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (log_fd < 0) {
    return Status::Io(codes::kSpawnFailed, log_path + ": " + std::strerror(errno));
  }
  auto spawned = fork_exec(argv, env, [&] {
    ::setsid();
    int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, 0);
    ::dup2(log_fd, 1);
    ::dup2(log_fd, 2);
    for (int sig : kForwardedSignals) ::signal(sig, SIG_DFL);
  });
  ::close(log_fd);
  return spawned;
}

bool pid_alive(pid_t pid) {
  if (pid <= 0) return false;
  return ::kill(pid, 0) == 0 || errno == EPERM;
}

}  // namespace caveman::cli
