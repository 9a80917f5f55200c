#include "proxy_address.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "run_state.h"
#include "support/test_support.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

// A loopback listener that is not a Caveman proxy (accepts nothing, answers nothing).
class ForeignListener {
 public:
  ForeignListener() { fd_ = testing::listen_on_loopback(8, &port_); }
  ~ForeignListener() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

TEST(ProxyAddress, DefaultsToLoopback8787) {
  TempDir home;
  auto a = resolve_proxy(Environment({{"CAVEMAN_HOME", home.path()}}));
  ASSERT_OK(a);
  EXPECT_EQ(a->listen(), "127.0.0.1:8787");
  EXPECT_EQ(a->base_url(), "http://127.0.0.1:8787");
  EXPECT_EQ(a->db_path, home.path() + "/caveman.db");
  EXPECT_EQ(a->mode, "record");
}

TEST(ProxyAddress, EnvBeatsYamlBeatsDefault) {
  TempDir home;
  caveman::testing::write_file(home.file("caveman.yaml"), "listen: 127.0.0.1:9911\nmode: compress\n");
  auto yaml = resolve_proxy(Environment({{"CAVEMAN_HOME", home.path()}}));
  ASSERT_OK(yaml);
  EXPECT_EQ(yaml->port, 9911);
  EXPECT_EQ(yaml->mode, "compress");
  auto env = resolve_proxy(Environment({{"CAVEMAN_HOME", home.path()}, {"CAVEMAN_LISTEN", "[::1]:9912"}}));
  ASSERT_OK(env);
  EXPECT_EQ(env->listen(), "[::1]:9912");
}

TEST(ProxyAddress, CorruptYamlNamesLineAndColumn) {
  TempDir home;
  caveman::testing::write_file(home.file("caveman.yaml"), "mode: compress\nlisten: [unclosed\n");
  auto a = resolve_proxy(Environment({{"CAVEMAN_HOME", home.path()}}));
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().ToString().find("line"), std::string::npos) << a.status().ToString();
  EXPECT_NE(a.status().ToString().find("column"), std::string::npos) << a.status().ToString();
}

TEST(ProxyAddress, NonLoopbackListenIsRefused) {
  TempDir home;
  auto a = resolve_proxy(Environment({{"CAVEMAN_HOME", home.path()}, {"CAVEMAN_LISTEN", "0.0.0.0:8787"}}));
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().error_code(), "cave_listen_not_loopback");
}

TEST(ProxyAddress, ForeignListenerIsNeverTrusted) {
  TempDir home;
  ForeignListener foreign;
  ProxyAddress a{home.path(), "", "127.0.0.1", foreign.port(), "record", ""};
  EXPECT_TRUE(port_listening("127.0.0.1", foreign.port()));
  EXPECT_EQ(inspect_listener(a).kind, ListenerKind::kForeign);
  // Even a run-state file naming a live pid (ours) does not make it a Caveman proxy: the
  // health endpoint must answer as caveman-proxy.
  proxy::RunState s;
  s.pid = static_cast<int>(::getpid());
  s.port = foreign.port();
  s.listen = a.listen();
  s.mode = "record";
  s.owner = "wrap";
  s.instance_token = std::string(32, 'a');
  s.started_at = "2026-01-01T00:00:00Z";
  s.version = "0";
  ASSERT_OK(proxy::write_run_state(home.path(), s));
  EXPECT_EQ(inspect_listener(a).kind, ListenerKind::kForeign);
}

TEST(ProxyAddress, NothingListeningIsFree) {
  TempDir home;
  int port = 0;
  {
    ForeignListener gone;  // closed again: the port is (very likely) free now
    port = gone.port();
  }
  ProxyAddress a{home.path(), "", "127.0.0.1", port, "record", ""};
  EXPECT_EQ(inspect_listener(a).kind, ListenerKind::kFree);
}

}  // namespace
}  // namespace caveman::cli
