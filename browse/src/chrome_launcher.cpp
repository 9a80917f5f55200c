#include "chrome_launcher.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

#include "caveman/base/codes.h"
#include "caveman/base/socket_path.h"
#include "websocket.h"

namespace caveman::browse {
namespace {

using std::chrono::milliseconds;

Status unavailable(std::string message) {
  return Status::Unavailable(codes::kBrowserUnavailable, std::move(message));
}

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::vector<char*> argv_of(const std::string& binary, std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(binary.c_str()));
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

void reset_signals_for_exec() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD}) ::signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

// Closes every fd >= `from` except those in `keep` (read from /proc/self/fd; falls back to
// a bounded loop when /proc is unavailable).
void close_fds_except(int from, std::initializer_list<int> keep) {
  std::vector<int> fds;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    int self = ::dirfd(d);
    while (dirent* e = ::readdir(d)) {
      int fd = std::atoi(e->d_name);
      if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && fd != self) fds.push_back(fd);
    }
    ::closedir(d);
  } else {
    for (int fd = from; fd < 4096; ++fd) fds.push_back(fd);
  }
  for (int fd : fds) {
    if (fd < from) continue;
    bool kept = false;
    for (int k : keep) kept = kept || k == fd;
    if (!kept) ::close(fd);
  }
}

void redirect_stdio(const std::string& log_path) {
  int null_fd = ::open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd >= 0) {
    ::dup2(null_fd, STDIN_FILENO);
    ::dup2(null_fd, STDOUT_FILENO);
    ::dup2(null_fd, STDERR_FILENO);
  }
  if (!log_path.empty()) {
    int log_fd = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (log_fd >= 0) ::dup2(log_fd, STDERR_FILENO);
  }
}

// `$TMPDIR/<pattern>` (/tmp without TMPDIR), for mkdtemp.
std::string temp_dir_name(const char* pattern) {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/" + pattern;
}

volatile sig_atomic_t g_keeper_terminate = 0;
void keeper_on_term(int) { g_keeper_terminate = 1; }

// The keeper (a forked child; never returns). See the header for its job.
[[noreturn]] void run_keeper(const std::string& binary, std::vector<std::string> args, int cmd_r,
                             int rep_w, int ctl_r, const std::string& profile, bool temp_profile,
                             const std::string& browser_tmp, const std::string& log_path) {
  ::setpgid(0, 0);  // our own group: a Ctrl-C aimed at the server's group must not kill us
  for (int sig : {SIGINT, SIGHUP, SIGPIPE, SIGQUIT}) ::signal(sig, SIG_IGN);
  struct sigaction sa {};
  sa.sa_handler = keeper_on_term;
  ::sigaction(SIGTERM, &sa, nullptr);
  ::signal(SIGCHLD, SIG_DFL);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  redirect_stdio("");
  close_fds_except(3, {cmd_r, rep_w, ctl_r});
  std::vector<char*> argv = argv_of(binary, args);
  pid_t keeper = ::getpid();
  ::setenv("TMPDIR", browser_tmp.c_str(), 1);  // inherited by the browser and its helpers

  pid_t chrome = ::fork();
  if (chrome == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != keeper) ::_exit(126);
    ::setpgid(0, 0);
    reset_signals_for_exec();
    // Move the pipes to exactly fds 3 and 4 (via fds >= 10 so neither clobbers the other);
    // dup2 clears close-on-exec on the targets.
    int a = ::fcntl(cmd_r, F_DUPFD, 10);
    int b = ::fcntl(rep_w, F_DUPFD, 10);
    if (a < 0 || b < 0 || ::dup2(a, 3) != 3 || ::dup2(b, 4) != 4) ::_exit(125);
    close_fds_except(5, {});
    redirect_stdio(log_path);
    ::execv(binary.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(cmd_r);
  ::close(rep_w);

  int chrome_status = 0;
  bool chrome_done = chrome < 0;
  while (!chrome_done && g_keeper_terminate == 0) {
    pollfd p{ctl_r, POLLIN, 0};
    int r = ::poll(&p, 1, 100);
    if (r > 0) {
      char buf[64];
      ssize_t n = ::read(ctl_r, buf, sizeof buf);
      if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) break;  // server gone
    }
    if (::waitpid(chrome, &chrome_status, WNOHANG) == chrome) chrome_done = true;
  }
  if (!chrome_done) {
    // Give the browser a moment to exit on its own (Browser.close, pipe EOF), then insist.
    ::kill(chrome, SIGTERM);
    for (int i = 0; i < 100 && !chrome_done; ++i) {
      if (::waitpid(chrome, &chrome_status, WNOHANG) == chrome) {
        chrome_done = true;
      } else {
        ::usleep(20000);
      }
    }
  }
  // Sweep the whole group (helpers, renderers, orphans adopted by us) and reap everything.
  if (chrome > 0) ::kill(-chrome, SIGKILL);
  for (int i = 0; i < 250; ++i) {
    int st = 0;
    pid_t w = ::waitpid(-1, &st, WNOHANG);
    if (w == chrome) {
      chrome_status = st;
      chrome_done = true;
    }
    if (w < 0 && errno == ECHILD) {
      if (chrome <= 0 || ::kill(-chrome, 0) != 0) break;  // nothing left in the group
    }
    if (w <= 0) {
      if (chrome > 0) ::kill(-chrome, SIGKILL);
      ::usleep(20000);
    }
  }
  remove_tree(browser_tmp);
  if (temp_profile) remove_tree(profile);
  if (chrome < 0) ::_exit(124);
  if (WIFEXITED(chrome_status)) ::_exit(WEXITSTATUS(chrome_status));
  if (WIFSIGNALED(chrome_status)) ::_exit(128 + WTERMSIG(chrome_status));
  ::_exit(0);
}

std::string describe_status(int st) {
  if (WIFEXITED(st)) {
    int code = WEXITSTATUS(st);
    if (code == 127) return "the browser binary could not be executed";
    if (code > 128 && code < 160) return "browser killed by signal " + std::to_string(code - 128);
    return "browser exit status " + std::to_string(code);
  }
  if (WIFSIGNALED(st)) return "killed by signal " + std::to_string(WTERMSIG(st));
  return "status " + std::to_string(st);
}

}  // namespace

Result<std::string> find_chrome(std::string_view override_path) {
  if (!override_path.empty()) {
    std::string p(override_path);
    if (is_executable_file(p)) return p;
    return unavailable("CAVEMAN_BROWSE_CHROME=" + p + " is not an executable file; " +
                       std::string(kInstallHint));
  }
  const char* path_env = std::getenv("PATH");
  std::string path = path_env != nullptr ? path_env : "/usr/local/bin:/usr/bin:/bin";
  for (const char* name : {"google-chrome", "google-chrome-stable", "chromium", "chromium-browser", "chrome"}) {
    std::stringstream ss(path);
    std::string dir;
    while (std::getline(ss, dir, ':')) {
      if (dir.empty()) continue;
      std::string candidate = dir + "/" + name;
      if (!is_executable_file(candidate)) continue;
      if (std::string_view(name) == "chromium" && is_executable_file("/usr/lib/chromium/chromium")) {
        char resolved[PATH_MAX];
        if (::realpath(candidate.c_str(), resolved) != nullptr &&
            std::string_view(resolved) == "/usr/bin/chromium") {
          return std::string("/usr/lib/chromium/chromium");
        }
      }
      return candidate;
    }
  }
  return unavailable("no Chrome or Chromium found on PATH; " + std::string(kInstallHint));
}

Result<std::string> make_browser_temp_dir(const base::EnvLookup& env,
                                          std::string_view fallback_root) {
  return base::make_socket_temp_dir(env, kBrowserTempName, kChromeSocketSuffix,
                                    codes::kBrowserSocketPathTooLong, codes::kBrowserUnavailable,
                                    "Chromium's socket", fallback_root);
}

std::vector<std::string> base_chrome_args(bool headful, std::string_view user_data_dir) {
  std::vector<std::string> args;
  if (!headful) args.push_back("--headless");
  for (const char* flag :
       {"--disable-gpu", "--disable-quic", "--no-first-run", "--no-default-browser-check",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-default-apps", "--disable-extensions", "--disable-breakpad",
        "--disable-client-side-phishing-detection", "--disable-domain-reliability",
        "--disable-dev-shm-usage", "--metrics-recording-only", "--mute-audio",
        "--password-store=basic", "--window-size=1280,720"}) {
    args.emplace_back(flag);
  }
  args.push_back("--user-data-dir=" + std::string(user_data_dir));
  if (::geteuid() == 0) args.emplace_back("--no-sandbox");  // Chrome refuses root otherwise
  return args;
}

Result<std::unique_ptr<LaunchedChrome>> LaunchedChrome::start(const LaunchOptions& options) {
  if (!is_executable_file(options.binary)) {
    return unavailable(options.binary + " is not an executable file; " + std::string(kInstallHint));
  }
  // Chromium keeps org.chromium.Chromium.* (its singleton socket among them) in its TMPDIR and
  // leaves them when it is killed: it gets a private, short TMPDIR that the keeper removes on
  // every exit path. Made first, so a TMPDIR too long for the socket stops us before anything
  // else exists.
  CAVEMAN_ASSIGN_OR_RETURN(std::string browser_tmp, make_browser_temp_dir(base::process_env()));
  std::unique_ptr<LaunchedChrome> c(new LaunchedChrome());
  bool temp_profile = options.user_data_dir.empty();
  auto abandon = [&](std::string message) {
    remove_tree(browser_tmp);
    if (temp_profile && !c->profile_dir_.empty()) remove_tree(c->profile_dir_);
    return unavailable(std::move(message));
  };
  if (temp_profile) {
    std::string tmpl = temp_dir_name("caveman-browse-XXXXXX");
    if (::mkdtemp(tmpl.data()) == nullptr) {
      return abandon("cannot create a temporary browser profile: " +
                     std::string(std::strerror(errno)));
    }
    c->profile_dir_ = tmpl;
  } else {
    c->profile_dir_ = options.user_data_dir;
    ::mkdir(c->profile_dir_.c_str(), 0700);
  }
  int cmd[2], rep[2], ctl[2];
  if (::pipe2(cmd, O_CLOEXEC) != 0) return abandon(std::strerror(errno));
  if (::pipe2(rep, O_CLOEXEC) != 0) {
    ::close(cmd[0]);
    ::close(cmd[1]);
    return abandon(std::strerror(errno));
  }
  if (::pipe2(ctl, O_CLOEXEC) != 0) {
    for (int fd : {cmd[0], cmd[1], rep[0], rep[1]}) ::close(fd);
    return abandon(std::strerror(errno));
  }
  std::vector<std::string> args = base_chrome_args(options.headful, c->profile_dir_);
  for (const std::string& a : options.extra_args) args.push_back(a);
  args.emplace_back("--remote-debugging-pipe");
  args.emplace_back("about:blank");

  pid_t pid = ::fork();
  if (pid < 0) {
    for (int fd : {cmd[0], cmd[1], rep[0], rep[1], ctl[0], ctl[1]}) ::close(fd);
    return abandon(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    run_keeper(options.binary, std::move(args), cmd[0], rep[1], ctl[0], c->profile_dir_, temp_profile,
               browser_tmp, options.log_path);
  }
  ::close(cmd[0]);
  ::close(rep[1]);
  ::close(ctl[0]);
  c->keeper_ = pid;
  c->control_fd_ = ctl[1];
  c->transport_ = std::make_unique<PipeTransport>(cmd[1], rep[0]);
  return c;
}

LaunchedChrome::~LaunchedChrome() { stop(); }

std::unique_ptr<Transport> LaunchedChrome::take_transport() { return std::move(transport_); }

void LaunchedChrome::stop(milliseconds wait) {
  transport_.reset();
  if (control_fd_ >= 0) {
    ::close(control_fd_);
    control_fd_ = -1;
  }
  if (keeper_ <= 0 || reaped_) return;
  Clock::time_point deadline = Clock::now() + wait;
  while (true) {
    pid_t w = ::waitpid(keeper_, &keeper_status_, WNOHANG);
    if (w == keeper_ || (w < 0 && errno == ECHILD)) {
      reaped_ = true;
      return;
    }
    if (Clock::now() >= deadline) return;  // it finishes on its own; nothing leaks
    std::this_thread::sleep_for(milliseconds(10));
  }
}

std::string LaunchedChrome::exit_description() {
  if (!reaped_ && keeper_ > 0) {
    for (int i = 0; i < 50 && !reaped_; ++i) {
      if (::waitpid(keeper_, &keeper_status_, WNOHANG) == keeper_) {
        reaped_ = true;
      } else {
        std::this_thread::sleep_for(milliseconds(20));
      }
    }
  }
  if (!reaped_) return "still running";
  return describe_status(keeper_status_);
}

Result<DetachedBrowser> launch_detached(const LaunchOptions& options, int port, milliseconds timeout) {
  if (!is_executable_file(options.binary)) {
    return unavailable(options.binary + " is not an executable file; " + std::string(kInstallHint));
  }
  ::mkdir(options.user_data_dir.c_str(), 0700);
  // A short private TMPDIR, as in LaunchedChrome::start; the CLI removes it after `close`.
  CAVEMAN_ASSIGN_OR_RETURN(std::string browser_tmp, make_browser_temp_dir(base::process_env()));
  auto abandon = [&](std::string message) {
    remove_tree(browser_tmp);
    return unavailable(std::move(message));
  };
  std::string port_file = options.user_data_dir + "/DevToolsActivePort";
  ::unlink(port_file.c_str());
  std::vector<std::string> args = base_chrome_args(options.headful, options.user_data_dir);
  for (const std::string& a : options.extra_args) args.push_back(a);
  args.push_back("--remote-debugging-port=" + std::to_string(port));
  args.emplace_back("about:blank");
  std::vector<char*> argv = argv_of(options.binary, args);
  int pid_pipe[2];
  if (::pipe2(pid_pipe, O_CLOEXEC) != 0) return abandon(std::strerror(errno));

  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pid_pipe[0]);
    ::close(pid_pipe[1]);
    return abandon(std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    // Double fork: the browser is re-parented away from us (to init).
    ::setsid();
    pid_t browser = ::fork();
    if (browser != 0) {
      (void)!::write(pid_pipe[1], &browser, sizeof browser);
      ::_exit(browser > 0 ? 0 : 1);
    }
    // The browser itself leads a new session and process group, so the state file's pid
    // names the group that `close` (or a relaunch) kills with all its helpers.
    ::setsid();
    reset_signals_for_exec();
    redirect_stdio(options.log_path);
    close_fds_except(3, {});
    ::setenv("TMPDIR", browser_tmp.c_str(), 1);
    ::execv(options.binary.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(pid_pipe[1]);
  DetachedBrowser out;
  out.temp_dir = browser_tmp;
  if (::read(pid_pipe[0], &out.pid, sizeof out.pid) != static_cast<ssize_t>(sizeof out.pid)) out.pid = 0;
  ::close(pid_pipe[0]);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  Clock::time_point deadline = Clock::now() + timeout;
  while (Clock::now() < deadline) {
    std::ifstream in(port_file);
    int active_port = 0;
    if (in >> active_port && active_port > 0) {
      out.endpoint = "http://127.0.0.1:" + std::to_string(active_port);
      Result<Endpoint> e = parse_endpoint(out.endpoint);
      if (e.ok() && http_get(*e, "/json/version", Clock::now() + milliseconds(500)).ok()) return out;
    }
    if (out.pid > 0 && !process_alive(out.pid)) break;
    std::this_thread::sleep_for(milliseconds(50));
  }
  if (out.pid > 0 && process_alive(out.pid)) ::kill(-out.pid, SIGKILL);
  return abandon("the browser did not open its DevTools port within " +
                 std::to_string(timeout.count()) + " ms (see " +
                 (options.log_path.empty() ? std::string("its log") : options.log_path) +
                 "; is another browser using " + options.user_data_dir + "?)");
}

bool process_alive(pid_t pid) {
  if (pid <= 0 || ::kill(pid, 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  std::size_t close = line.rfind(')');
  return close == std::string::npos || close + 2 >= line.size() || line[close + 2] != 'Z';
}

void remove_tree(const std::string& path) {
  if (path.empty() || path == "/") return;
  ::nftw(
      path.c_str(),
      [](const char* p, const struct stat*, int, struct FTW*) { return ::remove(p) == 0 ? 0 : 0; },
      16, FTW_DEPTH | FTW_PHYS);
}

}  // namespace caveman::browse
