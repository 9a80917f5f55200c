// The native socket on a real Unix socket: round trip, and every bad-input item of the
// protocol — a silent client, 2 MiB + 1, invalid JSON, an unknown event type, a second
// runtime on the same socket, a stale socket file, an unsafe directory, a flood.
#include "native/socket_server.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <nlohmann/json.hpp>

#include "native/runtime.h"
#include "support/test_support.h"

namespace caveman::proxy::native {
namespace {

using caveman::testing::TempDir;

int raw_connect(const std::string& path) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// Reads until EOF (the server closes every connection); returns what arrived.
std::string read_to_eof(int fd) {
  std::string out;
  char buf[4096];
  while (true) {
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  return out;
}

std::string send_raw(const std::string& path, const std::string& data, bool half_close = true) {
  int fd = raw_connect(path);
  EXPECT_GE(fd, 0);
  std::size_t off = 0;
  while (off < data.size()) {
    ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n <= 0) break;
    off += static_cast<std::size_t>(n);
  }
  if (half_close) ::shutdown(fd, SHUT_WR);
  std::string out = read_to_eof(fd);
  ::close(fd);
  return out;
}

const char* kTurnStop =
    R"({"protocol_version":1,"agent":{"id":"claude"},"session":{"caveman_session_id":"claude:s"},"event":{"type":"turn.stop"}})";

class NativeSocketTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<std::unique_ptr<ccr::Store>> s = ccr::open_store(std::string(ccr::kMemoryPath));
    ASSERT_OK(s);
    runtime_ = std::make_unique<NativeRuntime>(std::shared_ptr<ccr::Store>(std::move(s).value()),
                                               RuntimeOptions{});
    path_ = native_socket_path(home_.path());
  }
  std::unique_ptr<NativeSocketServer> start(SocketServerOptions options = {}) {
    const NativeRuntime* rt = runtime_.get();
    Result<std::unique_ptr<NativeSocketServer>> s = NativeSocketServer::start(
        path_, [rt](std::string_view req) { return rt->handle_json(req); }, options);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? std::move(s).value() : nullptr;
  }

  TempDir home_;
  std::unique_ptr<NativeRuntime> runtime_;
  std::string path_;
};

TEST_F(NativeSocketTest, OneRequestOneResponseThenClose) {
  auto server = start();
  ASSERT_TRUE(server);
  Result<std::string> answer = native_exchange(path_, kTurnStop, 2000);
  ASSERT_OK(answer);
  nlohmann::json j = nlohmann::json::parse(*answer);
  EXPECT_EQ(j["action"], "allow");
  EXPECT_EQ(j["fail_open"], true);
  // Newline-terminated without a half-close works too.
  std::string raw = send_raw(path_, std::string(kTurnStop) + "\n", false);
  EXPECT_EQ(raw.back(), '\n');
  EXPECT_EQ(server->answered(), 2u);
}

TEST_F(NativeSocketTest, SocketIs0600InA0700Directory) {
  auto server = start();
  struct stat st {};
  ASSERT_EQ(::stat(path_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_EQ(::stat(home_.file("run").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  server->stop();
  EXPECT_NE(::access(path_.c_str(), F_OK), 0);  // removed on stop
}

TEST_F(NativeSocketTest, SilentClientIsClosedAtTheDeadlineWithoutAnswer) {
  auto server = start();
  int fd = raw_connect(path_);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(read_to_eof(fd), "");  // returns once the server gives up on us
  ::close(fd);
  EXPECT_EQ(server->answered(), 0u);
  EXPECT_EQ(server->dropped(), 1u);
}

TEST_F(NativeSocketTest, OversizeRequestGetsSilence) {
  auto server = start();
  std::string big = std::string(kTurnStop);
  big.insert(big.size() - 1, ",\"pad\":\"" + std::string(kMaxRequestBytes, 'p') + "\"");
  ASSERT_GT(big.size(), kMaxRequestBytes);
  EXPECT_EQ(send_raw(path_, big), "");
  // Exactly 2 MiB + 1 bytes of anything is refused as well.
  EXPECT_EQ(send_raw(path_, std::string(kMaxRequestBytes + 1, ' ')), "");
  EXPECT_EQ(server->answered(), 0u);
}

TEST_F(NativeSocketTest, InvalidJsonGetsSilence) {
  auto server = start();
  EXPECT_EQ(send_raw(path_, "{\"protocol_version\":1,"), "");
  EXPECT_EQ(send_raw(path_, "\n"), "");
  EXPECT_FALSE(native_exchange(path_, "garbage", 1000).ok());
}

TEST_F(NativeSocketTest, UnknownEventIsObserved) {
  auto server = start();
  Result<std::string> answer = native_exchange(
      path_, R"({"protocol_version":1,"session":{"caveman_session_id":"s"},"event":{"type":"x.y"}})", 2000);
  ASSERT_OK(answer);
  EXPECT_EQ(nlohmann::json::parse(*answer)["action"], "observe");
}

TEST_F(NativeSocketTest, SecondRuntimeIsRefusedWhileTheFirstAnswers) {
  auto first = start();
  Result<std::unique_ptr<NativeSocketServer>> second = NativeSocketServer::start(
      path_, [](std::string_view) { return std::optional<std::string>("{}"); });
  ASSERT_FALSE(second.ok());
  EXPECT_EQ(second.status().error_code(), "cave_native_already_active");
  EXPECT_OK(native_exchange(path_, kTurnStop, 2000));  // the first one is untouched
}

TEST_F(NativeSocketTest, StaleSocketFileIsReplaced) {
  ASSERT_EQ(::mkdir(home_.file("run").c_str(), 0700), 0);
  // A socket file nobody listens on (a crashed proxy).
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path_.c_str(), sizeof addr.sun_path - 1);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ::close(fd);
  auto server = start();
  ASSERT_TRUE(server);
  EXPECT_OK(native_exchange(path_, kTurnStop, 2000));
}

TEST_F(NativeSocketTest, NonSocketFileIsNeverRemoved) {
  ASSERT_EQ(::mkdir(home_.file("run").c_str(), 0700), 0);
  caveman::testing::write_file(path_, "user data");
  Result<std::unique_ptr<NativeSocketServer>> s =
      NativeSocketServer::start(path_, [](std::string_view) { return std::nullopt; });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(caveman::testing::read_file(path_), "user data");
}

TEST_F(NativeSocketTest, WorldWritableDirectoryIsRefused) {
  std::string dir = home_.file("open");
  ASSERT_EQ(::mkdir(dir.c_str(), 0700), 0);
  ASSERT_EQ(::chmod(dir.c_str(), 01777), 0);  // like /tmp: sticky does not make it private
  Result<std::unique_ptr<NativeSocketServer>> s =
      NativeSocketServer::start(dir + "/native.sock", [](std::string_view) { return std::nullopt; });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().error_code(), "cave_native_unsafe_dir");
  ASSERT_EQ(::chmod(dir.c_str(), 0770), 0);  // group-writable too
  EXPECT_FALSE(NativeSocketServer::start(dir + "/native.sock",
                                         [](std::string_view) { return std::nullopt; })
                   .ok());
  std::string link = home_.file("link");
  ASSERT_EQ(::symlink(home_.path().c_str(), link.c_str()), 0);
  EXPECT_FALSE(NativeSocketServer::start(link + "/native.sock",
                                         [](std::string_view) { return std::nullopt; })
                   .ok());
}

TEST_F(NativeSocketTest, TooLongPathIsRefused) {
  Result<std::unique_ptr<NativeSocketServer>> s = NativeSocketServer::start(
      home_.path() + "/" + std::string(200, 'd') + "/native.sock",
      [](std::string_view) { return std::nullopt; });
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().error_code(), "cave_native_socket_path_too_long");
}

// Issue 38: $CAVEMAN_HOME/run/native.sock of exactly 107 bytes serves and is dialled; one byte
// more is refused on both sides with a message naming the path and its length.
TEST_F(NativeSocketTest, SocketPathOnBothSidesOfTheLimit) {
  const std::string tail = "/run/native.sock";
  auto home_of_length = [&](std::size_t socket_bytes) {
    std::size_t used = home_.path().size() + 1 + tail.size();
    std::string home = home_.path() + "/" + std::string(socket_bytes - used, 'h');
    EXPECT_EQ(::mkdir(home.c_str(), 0700), 0);
    return home;
  };
  const std::string fits = native_socket_path(home_of_length(107));
  ASSERT_EQ(fits.size(), 107u);
  const NativeRuntime* rt = runtime_.get();
  Result<std::unique_ptr<NativeSocketServer>> server =
      NativeSocketServer::start(fits, [rt](std::string_view req) { return rt->handle_json(req); });
  ASSERT_OK(server);
  Result<std::string> answer = native_exchange(fits, kTurnStop, 2000);
  ASSERT_OK(answer);
  EXPECT_EQ(nlohmann::json::parse(*answer)["action"], "allow");
  (*server)->stop();

  const std::string over = native_socket_path(home_of_length(108));
  ASSERT_EQ(over.size(), 108u);
  Result<std::unique_ptr<NativeSocketServer>> refused =
      NativeSocketServer::start(over, [](std::string_view) { return std::nullopt; });
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().error_code(), "cave_native_socket_path_too_long");
  EXPECT_EQ(refused.status().message(),
            "the native runtime's socket " + over +
                " is 108 bytes, over the 107-byte limit of a Unix socket path; set CAVEMAN_HOME "
                "to a shorter directory");
  struct stat st {};
  EXPECT_NE(::lstat((over.substr(0, over.rfind('/'))).c_str(), &st), 0) << "run/ not created";
  Result<std::string> dialled = native_exchange(over, kTurnStop, 200);
  ASSERT_FALSE(dialled.ok());
  EXPECT_EQ(dialled.status().error_code(), "cave_native_socket_path_too_long");
  EXPECT_EQ(dialled.status().message(), "the native runtime's socket " + over +
                                            " is 108 bytes, over the 107-byte limit of a Unix "
                                            "socket path");
}

TEST_F(NativeSocketTest, FloodOfSilentClientsIsShedAndTheServerRecovers) {
  SocketServerOptions options;
  options.max_pending = 4;
  auto server = start(options);
  std::vector<int> idle;
  for (int i = 0; i < 40; ++i) {
    int fd = raw_connect(path_);
    if (fd >= 0) idle.push_back(fd);
  }
  // Every idle connection ends (shed at once or closed at its deadline), none answered.
  for (int fd : idle) {
    EXPECT_EQ(read_to_eof(fd), "");
    ::close(fd);
  }
  EXPECT_EQ(server->answered(), 0u);
  EXPECT_GE(server->dropped(), idle.size());
  EXPECT_OK(native_exchange(path_, kTurnStop, 2000));
}

TEST_F(NativeSocketTest, NoRuntimeMeansUnavailable) {
  Result<std::string> r = native_exchange(path_, kTurnStop, 100);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().error_code(), "cave_native_unavailable");
}

}  // namespace
}  // namespace caveman::proxy::native
