// Unix socket paths under the 107-byte limit (issue 38): the check on both sides of the limit,
// the address it fills, and the short temp directory for a child's sockets (Chromium's).
#include "caveman/base/socket_path.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <string>

#include "support/file_mode.h"
#include "support/test_support.h"

namespace caveman::base {
namespace {

using ::caveman::testing::mode_of;
using ::caveman::testing::TempDir;

constexpr std::string_view kSuffix = "/org.chromium.Chromium.XXXXXX/SingletonSocket";

TEST(SocketPath, CheckAcceptsUpTo107BytesAndNamesTheRest) {
  EXPECT_OK(check_socket_path("/" + std::string(106, 's'), "cave_x", "the socket"));
  Status over = check_socket_path("/" + std::string(107, 's'), "cave_x", "the socket");
  ASSERT_FALSE(over.ok());
  EXPECT_EQ(over.error_code(), "cave_x");
  EXPECT_EQ(over.message(), "the socket /" + std::string(107, 's') +
                                " is 108 bytes, over the 107-byte limit of a Unix socket path");
  EXPECT_FALSE(check_socket_path("", "cave_x", "the socket").ok());
}

TEST(SocketPath, FilledAddressBindsAtTheLimitAndIsUntouchedOverIt) {
  TempDir dir;
  ASSERT_LT(dir.path().size(), 100u);
  std::string path = dir.path() + "/" + std::string(106 - dir.path().size(), 'b');
  ASSERT_EQ(path.size(), 107u);
  sockaddr_un addr{};
  ASSERT_OK(fill_socket_address(path, &addr, "cave_x", "the socket"));
  EXPECT_EQ(addr.sun_family, AF_UNIX);
  EXPECT_EQ(std::string(addr.sun_path), path);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0) << path;
  ::close(fd);

  sockaddr_un untouched{};
  Status over = fill_socket_address(path + "x", &untouched, "cave_x", "the socket");
  EXPECT_EQ(over.error_code(), "cave_x");
  EXPECT_EQ(untouched.sun_family, 0);
}

TEST(SocketPath, TempTemplateStaysUnderTmpdirWhileTheLongestSocketFits) {
  // 107 - 45 (suffix) - 11 ("/cvb-XXXXXX") = 51 bytes of TMPDIR fit; a trailing slash is dropped.
  const std::string fits = "/var/folders/7x/3mgr1l0j3wq4ty5_4cfr0z6r0000gn/T/xy";
  ASSERT_EQ(fits.size(), 51u);
  Result<std::string> t =
      socket_temp_template(map_env({{"TMPDIR", fits + "/"}}), "cvb-", kSuffix, "cave_x", "it");
  ASSERT_OK(t);
  EXPECT_EQ(*t, fits + "/cvb-XXXXXX");
  EXPECT_EQ((*t + std::string(kSuffix)).size(), 107u);

  EXPECT_EQ(socket_temp_template(map_env({{"TMPDIR", fits + "y"}}), "cvb-", kSuffix, "cave_x", "it")
                .value(),
            "/tmp/cvb-XXXXXX");
  EXPECT_EQ(socket_temp_template(map_env({}), "cvb-", kSuffix, "cave_x", "it").value(),
            "/tmp/cvb-XXXXXX");
  EXPECT_EQ(
      socket_temp_template(map_env({{"TMPDIR", "relative/tmp"}}), "cvb-", kSuffix, "cave_x", "it")
          .value(),
      "/tmp/cvb-XXXXXX");
  EXPECT_EQ(
      socket_temp_template(map_env({{"TMPDIR", "/"}}), "cvb-", kSuffix, "cave_x", "it").value(),
      "/cvb-XXXXXX");
}

TEST(SocketPath, TempTemplateThatCannotBeShortEnoughNamesThePathAndItsLength) {
  const std::string root = "/" + std::string(60, 'r');
  Result<std::string> t = socket_temp_template(map_env({{"TMPDIR", root + "/longer"}}), "cvb-",
                                               kSuffix, "cave_x", "Chromium's socket", root);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().error_code(), "cave_x");
  EXPECT_EQ(t.status().message(),
            "Chromium's socket " + root +
                "/cvb-XXXXXX/org.chromium.Chromium.XXXXXX/SingletonSocket is 117 bytes, over the "
                "107-byte limit of a Unix socket path (under $TMPDIR and under " +
                root + "); set TMPDIR to a shorter directory");
  Result<std::string> alone =
      socket_temp_template(map_env({}), "cvb-", kSuffix, "cave_x", "Chromium's socket", root);
  ASSERT_FALSE(alone.ok());
  EXPECT_NE(alone.status().message().find("117 bytes"), std::string::npos);
  EXPECT_NE(alone.status().message().find("(under " + root + ")"), std::string::npos);
}

TEST(SocketPath, TempDirIsFreshAndPrivate) {
  TempDir dir;
  EnvLookup env = map_env({{"TMPDIR", dir.path()}});
  Result<std::string> a = make_socket_temp_dir(env, "cvb-", kSuffix, "cave_x", "cave_io", "it");
  Result<std::string> b = make_socket_temp_dir(env, "cvb-", kSuffix, "cave_x", "cave_io", "it");
  ASSERT_OK(a);
  ASSERT_OK(b);
  EXPECT_NE(*a, *b);
  EXPECT_EQ(a->rfind(dir.path() + "/cvb-", 0), 0u) << *a;
  EXPECT_EQ(mode_of(*a), 0700u);
  Result<std::string> missing = make_socket_temp_dir(map_env({{"TMPDIR", dir.file("gone")}}),
                                                     "cvb-", kSuffix, "cave_x", "cave_io", "it");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().error_code(), "cave_io");
}

}  // namespace
}  // namespace caveman::base
