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

// A stand-in browser: checks that fds 3/4 are the DevTools pipe, starts a helper process
// (like Chrome's zygote), records both pids, and echoes NUL-framed commands. It ignores
// pipe EOF and, with FAKE_IGNORE_TERM=1, SIGTERM, so only the keeper's SIGKILL ends it.
constexpr const char* kFakeBrowser = R"PY(#!/usr/bin/env python3
import json, os, signal, subprocess, sys
if os.environ.get('FAKE_IGNORE_TERM') == '1':
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
os.fstat(3); os.fstat(4)
profile = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--user-data-dir=')][0]
open(os.path.join(profile, 'marker'), 'w').write('x')
os.mkdir(os.path.join(os.environ['TMPDIR'], 'org.chromium.Chromium.fake'))  # as Chromium does
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
  // Chromium's own temp directories (org.chromium.Chromium.*) left in the test's TMPDIR.
  bool chromium_tmp_left() const {
    for (const auto& e : std::filesystem::directory_iterator(dir_.path())) {
      if (e.path().filename().string().rfind("org.chromium.", 0) == 0) return true;
    }
    return false;
  }
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
// (caveman-browse-tmp-*, holding Chromium's org.chromium.Chromium.*) goes with the browser.
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
  for (const auto& e : std::filesystem::directory_iterator(dir_.path())) {
    EXPECT_NE(e.path().filename().string().rfind("caveman-browse-tmp-", 0), 0u) << e.path();
  }
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
