// chrome_launcher.h — finding and starting Chrome/Chromium for caveman-browse.
//
// Pipe mode (the MCP server): the browser talks CDP over `--remote-debugging-pipe`, so the
// child must see our pipes exactly as fds 3 (commands in) and 4 (replies out). A small
// keeper process sits between us and the browser: it starts the browser in its own process
// group (with PR_SET_PDEATHSIG, so the browser dies with the keeper), adopts the browser's
// orphans (child subreaper), and — when our control pipe reaches EOF because we closed it,
// exited, crashed or were killed, or when the browser dies on its own — terminates the whole
// group, reaps it, and deletes the temporary profile. So no browser process or profile
// outlives caveman-browse, whatever way it ends.
//
// Detached mode (the direct CLI): one long-lived browser with `--remote-debugging-port`,
// shared by successive `caveman-browse` invocations through a state file.
//
// The browser's TMPDIR is always a private, short `cvb-XXXXXX` directory of ours (see
// make_browser_temp_dir), so the Unix socket Chromium makes below it stays within 107 bytes
// whatever $TMPDIR is; when even /tmp is too long, nothing is started.
//
// Call start()/launch_detached() from a single-threaded process (they fork).
// Failures are Status values with codes::kBrowserUnavailable and an install hint, or
// codes::kBrowserSocketPathTooLong.
#ifndef CAVEMAN_BROWSE_CHROME_LAUNCHER_H_
#define CAVEMAN_BROWSE_CHROME_LAUNCHER_H_

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/base/env.h"
#include "caveman/base/socket_path.h"
#include "caveman/status.h"
#include "transport.h"

namespace caveman::browse {

inline constexpr std::string_view kInstallHint =
    "install Chromium (Debian/Ubuntu: apt-get install chromium) or point "
    "CAVEMAN_BROWSE_CHROME at a Chrome/Chromium binary";

// The browser binary: `override_path` when non-empty (must be an executable file), else the
// first of google-chrome, google-chrome-stable, chromium, chromium-browser, chrome on PATH.
// Debian's /usr/bin/chromium shell wrapper is replaced by /usr/lib/chromium/chromium when
// present (same browser, without the wrapper's stray warning on stderr).
// codes::kBrowserUnavailable with an install hint when nothing usable is found.
Result<std::string> find_chrome(std::string_view override_path);

// The longest Unix socket path Chromium makes below its TMPDIR: the process singleton's
// socket in a mkdtemp'd directory (Google Chrome's com.google.Chrome.XXXXXX is shorter).
inline constexpr std::string_view kChromeSocketSuffix =
    "/org.chromium.Chromium.XXXXXX/SingletonSocket";
// The name of the browser's private TMPDIR, short so that TMPDIRs of up to 51 bytes (macOS's
// /var/folders/…/T/ is 49) keep it.
inline constexpr std::string_view kBrowserTempName = "cvb-";

// A fresh private (0700) directory for the browser's TMPDIR: `$TMPDIR/cvb-XXXXXX` when
// `$TMPDIR/cvb-XXXXXX` + kChromeSocketSuffix fits in 107 bytes, else `/tmp/cvb-XXXXXX`
// (base::make_socket_temp_dir). The caller removes it once the browser is gone.
// codes::kBrowserSocketPathTooLong naming the longest socket path and its length when no root
// is short enough; codes::kBrowserUnavailable when it cannot be created. `fallback_root` is
// /tmp but for tests.
Result<std::string> make_browser_temp_dir(const base::EnvLookup& env,
                                          std::string_view fallback_root = base::kShortTempRoot);

struct LaunchOptions {
  std::string binary;
  bool headful = false;
  std::string user_data_dir;  // empty → a fresh temp `caveman-browse-*` dir, deleted at the end
  std::string log_path;       // browser stderr; empty → /dev/null
  std::vector<std::string> extra_args;
};

// The flags every launch uses: headless (unless headful), offline-safe switches, a private
// profile, --no-sandbox when running as root, about:blank.
std::vector<std::string> base_chrome_args(bool headful, std::string_view user_data_dir);

class LaunchedChrome {
 public:
  // Starts keeper + browser in pipe mode. The returned object owns both; its transport is
  // handed out once by take_transport().
  static Result<std::unique_ptr<LaunchedChrome>> start(const LaunchOptions& options);
  ~LaunchedChrome();
  LaunchedChrome(const LaunchedChrome&) = delete;
  LaunchedChrome& operator=(const LaunchedChrome&) = delete;

  std::unique_ptr<Transport> take_transport();
  // Ends the browser (the keeper terminates its process group and removes a temp profile)
  // and waits up to `wait` for the keeper to finish. Idempotent.
  void stop(std::chrono::milliseconds wait = std::chrono::milliseconds(6000));
  // Exit status of the keeper (= the browser's, when it died on its own) if it has ended;
  // used to explain a browser that quit during startup.
  std::string exit_description();

  const std::string& profile_dir() const { return profile_dir_; }
  pid_t keeper_pid() const { return keeper_; }

 private:
  LaunchedChrome() = default;

  pid_t keeper_ = -1;
  int control_fd_ = -1;  // our end; its EOF tells the keeper to clean up
  std::unique_ptr<Transport> transport_;
  std::string profile_dir_;
  bool reaped_ = false;
  int keeper_status_ = 0;
};

struct DetachedBrowser {
  std::string endpoint;  // "http://127.0.0.1:<port>"
  pid_t pid = 0;         // the browser (leader of its own session and process group)
  std::string temp_dir;  // its TMPDIR (make_browser_temp_dir), removed once the browser is gone
};

// Detached browser for the CLI: --remote-debugging-port=<port> (0 = any free port), profile
// `user_data_dir` (kept), stderr appended to `log_path`, TMPDIR a fresh make_browser_temp_dir()
// (removed here when the launch fails). Waits up to `timeout` for the endpoint to answer
// GET /json/version.
Result<DetachedBrowser> launch_detached(const LaunchOptions& options, int port,
                                        std::chrono::milliseconds timeout);

// True while `pid` exists and is not a zombie.
bool process_alive(pid_t pid);

// Recursively deletes `path` (no symlink following). Best effort.
void remove_tree(const std::string& path);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_CHROME_LAUNCHER_H_
