#include "chrome_launcher.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "support/test_support.h"

namespace caveman::browse {
namespace {

using std::chrono::milliseconds;

// A stand-in browser: checks that fds 3/4 are the DevTools pipe, binds its singleton socket
// where Chromium does (exit 6, like Chromium's abort, when the path is too long), starts a
// helper process (like Chrome's zygote), records both pids and its TMPDIR, and echoes
// NUL-framed commands. It ignores
// pipe EOF and, with FAKE_IGNORE_TERM=1, SIGTERM, so only the keeper's SIGKILL ends it.
constexpr const char* kFakeBrowser = R"PY(#!/usr/bin/env python3
import json, os, signal, socket, subprocess, sys
if os.environ.get('FAKE_IGNORE_TERM') == '1':
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
os.fstat(3); os.fstat(4)
profile = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--user-data-dir=')][0]
open(os.path.join(profile, 'marker'), 'w').write('x')
singleton = os.path.join(os.environ['TMPDIR'], 'org.chromium.Chromium.fake12')  # as Chromium does
os.mkdir(singleton)
try:
    socket.socket(socket.AF_UNIX).bind(os.path.join(singleton, 'SingletonSocket'))
except OSError:
    os._exit(6)
open(os.environ['FAKE_PIDS'] + '.tmpdir', 'w').write(os.environ['TMPDIR'])
helper = subprocess.Popen(['sleep', '300'])
with open(os.environ['FAKE_PIDS'], 'w') as f:
    f.write('%d %d' % (os.getpid(), helper.pid))
buf = b''
while True:
    chunk = os.read(3, 65536)
    if not chunk:
        signal.pause()
    buf += chunk
    while b'\0' in buf:
        msg, buf = buf.split(b'\0', 1)
        m = json.loads(msg)
        if m['method'] == 'crash':
            os._exit(3)
        os.write(4, json.dumps({'id': m['id'], 'result': {'echo': m['method']}}).encode() + b'\0')
)PY";

class LauncherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    script_ = dir_.file("fake-browser");
    caveman::testing::write_file(script_, kFakeBrowser);
    ::chmod(script_.c_str(), 0755);
    pids_file_ = dir_.file("pids");
    ::setenv("FAKE_PIDS", pids_file_.c_str(), 1);
    ::setenv("TMPDIR", dir_.path().c_str(), 1);
  }
  void TearDown() override {
    ::unsetenv("FAKE_IGNORE_TERM");
    ::unsetenv("TMPDIR");
  }

  std::vector<pid_t> fake_pids() {
    for (int i = 0; i < 500; ++i) {
      std::ifstream in(pids_file_);
      pid_t a = 0, b = 0;
      if (in >> a >> b) return {a, b};
      std::this_thread::sleep_for(milliseconds(20));
    }
    return {};
  }
  // The browser's private TMPDIR (cvb-*) or Chromium's own temp directories
  // (org.chromium.Chromium.*) left in the test's TMPDIR.
  bool chromium_tmp_left() const {
    for (const auto& e : std::filesystem::directory_iterator(dir_.path())) {
      std::string name = e.path().filename().string();
      if (name.rfind("org.chromium.", 0) == 0 || name.rfind(kBrowserTempName, 0) == 0) return true;
    }
    return false;
  }
  // The TMPDIR the fake browser saw.
  std::string browser_tmpdir() const { return caveman::testing::read_file(pids_file_ + ".tmpdir"); }
  bool all_gone(const std::vector<pid_t>& pids, const std::string& profile) const {
    for (int i = 0; i < 500; ++i) {
      bool alive = false;
      for (pid_t p : pids) alive = alive || process_alive(p);
      struct stat st {};
      if (!alive && ::stat(profile.c_str(), &st) != 0 && !chromium_tmp_left()) return true;
      std::this_thread::sleep_for(milliseconds(20));
    }
    return false;
  }
  Result<std::unique_ptr<LaunchedChrome>> start() {
    LaunchOptions o;
    o.binary = script_;
    return LaunchedChrome::start(o);
  }

  caveman::testing::TempDir dir_;
  std::string script_, pids_file_;
};

TEST_F(LauncherTest, TalksOverFds3And4AndCleansUpOnStop) {
  auto c = start();
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  std::string profile = (*c)->profile_dir();
  EXPECT_EQ(profile.rfind(dir_.path() + "/caveman-browse-", 0), 0u) << profile;
  std::unique_ptr<Transport> t = (*c)->take_transport();
  auto deadline = Clock::now() + std::chrono::seconds(20);
  ASSERT_TRUE(t->send(R"({"id":1,"method":"Browser.getVersion","params":{}})", deadline).ok());
  Result<std::string> reply = t->receive(deadline);
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(*reply, R"({"id": 1, "result": {"echo": "Browser.getVersion"}})");
  std::vector<pid_t> pids = fake_pids();
  ASSERT_EQ(pids.size(), 2u);
  t.reset();
  (*c)->stop(milliseconds(10000));
  EXPECT_TRUE(all_gone(pids, profile));
}

TEST_F(LauncherTest, BrowserIgnoringSigtermIsKilled) {
  ::setenv("FAKE_IGNORE_TERM", "1", 1);
  auto c = start();
  ASSERT_TRUE(c.ok());
  std::vector<pid_t> pids = fake_pids();
  ASSERT_EQ(pids.size(), 2u);
  std::string profile = (*c)->profile_dir();
  c->reset();  // destructor = stop()
  EXPECT_TRUE(all_gone(pids, profile));
}

TEST_F(LauncherTest, CrashIsSeenAsAClosedPipeAndCleanedUp) {
  auto c = start();
  ASSERT_TRUE(c.ok());
  std::vector<pid_t> pids = fake_pids();
  std::unique_ptr<Transport> t = (*c)->take_transport();
  auto deadline = Clock::now() + std::chrono::seconds(20);
  ASSERT_TRUE(t->send(R"({"id":1,"method":"crash","params":{}})", deadline).ok());
  Result<std::string> r = t->receive(deadline);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_browser_unavailable");
  EXPECT_EQ((*c)->exit_description(), "browser exit status 3");
  EXPECT_TRUE(all_gone(pids, (*c)->profile_dir()));
}

TEST_F(LauncherTest, NothingOutlivesAServerThatDiesWithoutCleaningUp) {
  std::string profile_file = dir_.file("profile");
  pid_t server = ::fork();
  if (server == 0) {
    auto c = start();
    if (!c.ok()) ::_exit(1);
    caveman::testing::write_file(profile_file, (*c)->profile_dir());
    fake_pids();
    ::_exit(0);  // no stop(), no destructors: like a SIGKILLed server
  }
  int st = 0;
  ASSERT_EQ(::waitpid(server, &st, 0), server);
  ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  std::vector<pid_t> pids = fake_pids();
  ASSERT_EQ(pids.size(), 2u);
  EXPECT_TRUE(all_gone(pids, caveman::testing::read_file(profile_file)));
}

// A kept profile (CAVEMAN_BROWSE_USER_DATA_DIR) stays, but the browser's private TMPDIR
// (cvb-*, holding Chromium's org.chromium.Chromium.*) goes with the browser.
TEST_F(LauncherTest, KeptProfileStaysAndTheBrowsersTempDirGoes) {
  LaunchOptions o;
  o.binary = script_;
  o.user_data_dir = dir_.file("kept-profile");
  auto c = LaunchedChrome::start(o);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  std::vector<pid_t> pids = fake_pids();
  ASSERT_EQ(pids.size(), 2u);
  c->reset();
  EXPECT_TRUE(all_gone(pids, dir_.file("no-such-profile")));
  EXPECT_TRUE(std::filesystem::exists(o.user_data_dir + "/marker"));
  EXPECT_EQ(browser_tmpdir().rfind(dir_.path() + "/cvb-", 0), 0u) << browser_tmpdir();
}

// Issue 38: whatever TMPDIR is, the browser's TMPDIR is a short private cvb-* — under TMPDIR
// while Chromium's longest socket path there fits in 107 bytes (a 51-byte TMPDIR: exactly
// 107), else under /tmp (52 bytes and up) — the socket binds, and nothing is left anywhere.
TEST_F(LauncherTest, BrowsersSocketFitsWhateverTheTmpdir) {
  for (std::size_t length :
       {std::size_t{50}, std::size_t{51}, std::size_t{52}, std::size_t{90}, std::size_t{200}}) {
    ASSERT_LT(dir_.path().size() + 2, length);
    std::string tmpdir = dir_.path() + "/" + std::string(length - dir_.path().size() - 1, 't');
    ASSERT_EQ(tmpdir.size(), length);
    ASSERT_EQ(::mkdir(tmpdir.c_str(), 0700), 0);
    ::setenv("TMPDIR", tmpdir.c_str(), 1);
    ::unlink(pids_file_.c_str());
    auto c = start();
    ASSERT_TRUE(c.ok()) << c.status().ToString();
    std::vector<pid_t> pids = fake_pids();
    ASSERT_EQ(pids.size(), 2u) << "TMPDIR of " << length << " bytes: the fake browser died";
    std::string seen = browser_tmpdir();
    std::string root = length <= 51 ? tmpdir : "/tmp";
    EXPECT_EQ(seen.rfind(root + "/cvb-", 0), 0u) << seen;
    EXPECT_EQ(seen.size(), root.size() + 11);
    EXPECT_LE((seen + std::string(kChromeSocketSuffix)).size(), 107u);
    std::string profile = (*c)->profile_dir();
    EXPECT_EQ(profile.rfind(tmpdir + "/caveman-browse-", 0), 0u) << profile;
    c->reset();
    EXPECT_TRUE(all_gone(pids, profile));
    EXPECT_FALSE(std::filesystem::exists(seen)) << seen;
    EXPECT_TRUE(std::filesystem::is_empty(tmpdir)) << tmpdir;
    std::filesystem::remove(tmpdir);
  }
}

// When no root is short enough, nothing is created and the error names the socket path and its
// length (not "install Chromium").
TEST(BrowserTempDirTest, TooLongEverywhereNamesThePathAndItsLength) {
  caveman::testing::TempDir dir;
  std::string root = dir.path() + "/" + std::string(69 - dir.path().size(), 'r');
  ASSERT_EQ(root.size(), 70u);
  ASSERT_EQ(::mkdir(root.c_str(), 0700), 0);
  Result<std::string> r = make_browser_temp_dir(base::map_env({{"TMPDIR", root}}), root);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_browser_socket_path_too_long");
  EXPECT_EQ(r.status().message(),
            "Chromium's socket " + root +
                "/cvb-XXXXXX/org.chromium.Chromium.XXXXXX/SingletonSocket is 126 bytes, over the "
                "107-byte limit of a Unix socket path (under $TMPDIR and under " +
                root + "); set TMPDIR to a shorter directory");
  EXPECT_TRUE(std::filesystem::is_empty(root));
  Result<std::string> fits = make_browser_temp_dir(base::map_env({{"TMPDIR", root}}));
  ASSERT_TRUE(fits.ok()) << fits.status().ToString();
  EXPECT_EQ(fits->rfind("/tmp/cvb-", 0), 0u) << *fits;
  remove_tree(*fits);
}

TEST(FindChromeTest, MissingBinaryExplainsHowToInstall) {
  Result<std::string> r = find_chrome("/nonexistent/chromium");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_browser_unavailable");
  EXPECT_NE(r.status().message().find("apt-get install chromium"), std::string::npos);
  std::string plain = ::testing::TempDir() + "/caveman_browse_not_executable";
  caveman::testing::write_file(plain, "#!/bin/sh\n");
  ::chmod(plain.c_str(), 0644);
  EXPECT_FALSE(find_chrome(plain).ok());  // exists, not executable
  ::unlink(plain.c_str());
  const char* path = std::getenv("PATH");
  std::string saved = path != nullptr ? path : "";
  ::setenv("PATH", "/nonexistent-dir", 1);
  EXPECT_FALSE(find_chrome("").ok());
  ::setenv("PATH", saved.c_str(), 1);
}

TEST(FindChromeTest, BaseFlagsAreOfflineSafe) {
  std::vector<std::string> args = base_chrome_args(false, "/tmp/p");
  auto has = [&](const std::string& f) { return std::find(args.begin(), args.end(), f) != args.end(); };
  for (const char* f : {"--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--user-data-dir=/tmp/p"}) {
    EXPECT_TRUE(has(f)) << f;
  }
  EXPECT_EQ(has("--no-sandbox"), ::geteuid() == 0);
  EXPECT_FALSE(has("--disable-site-isolation-trials"));
  EXPECT_FALSE(std::find(args.begin(), args.end(), "--headless") == args.end());
  std::vector<std::string> headful = base_chrome_args(true, "/p");
  EXPECT_TRUE(std::find(headful.begin(), headful.end(), "--headless") == headful.end());
}

}  // namespace
}  // namespace caveman::browse
