#include "native_hooks.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "caveman/version.h"
#include "native/host_formats.h"
#include "support/test_support.h"

namespace caveman::cli {
namespace {

using caveman::testing::read_file;
using caveman::testing::TempDir;
using caveman::testing::write_file;

// A stand-in caveman-proxy: a shell script that answers `native-hook print-settings` with
// `stdout_file`'s bytes (or runs `body` instead when given).
std::string fake_proxy(const TempDir& dir, const std::string& body) {
  std::string path = dir.file("caveman-proxy");
  write_file(path, "#!/bin/sh\n" + body + "\n");
  ::chmod(path.c_str(), 0755);
  return path;
}

std::string printing_proxy(const TempDir& dir, const std::string& document) {
  write_file(dir.file("settings.json"), document);
  return fake_proxy(dir, "[ \"$1 $2\" = \"native-hook print-settings\" ] || exit 9\ncat '" +
                             dir.file("settings.json") + "'");
}

struct Fixture {
  TempDir bin;
  TempDir session;
  WrapLaunch launch;

  explicit Fixture(const char* profile = "claude") {
    launch.profile = find_profile(profile);
    launch.session_dir = session.path();
    launch.pre_args = {"--mcp-config=/x/mcp.json"};
    launch.env = Environment({{"PATH", "/usr/bin:/bin"}, {"HOME", "/home/cave"}});
  }
  std::string plugin() const { return session.path() + "/plugin"; }
};

// The document the real caveman-proxy prints, from the same function.
std::string real_document() {
  return proxy::native::claude_hook_settings("'/opt/caveman/bin/caveman-proxy' native-hook claude") + "\n";
}

TEST(NativeHooks, EnabledUnlessTheEnvironmentSaysNo) {
  EXPECT_TRUE(native_hooks_enabled(Environment({})));
  EXPECT_TRUE(native_hooks_enabled(Environment({{"CAVEMAN_WRAP_HOOKS", "1"}})));
  for (const char* off : {"0", "false", "OFF", "No"}) {
    EXPECT_FALSE(native_hooks_enabled(Environment({{"CAVEMAN_WRAP_HOOKS", off}}))) << off;
  }
  EXPECT_TRUE(profile_takes_native_hooks("claude"));
  EXPECT_TRUE(profile_takes_native_hooks("codex"));
  EXPECT_TRUE(profile_takes_native_hooks("gemini"));
  EXPECT_FALSE(profile_takes_native_hooks("aider"));
  EXPECT_FALSE(profile_takes_native_hooks("generic"));
}

TEST(NativeHooks, WritesThePluginDirAndAddsPluginDir) {
  Fixture f;
  const std::string document = real_document();
  f.launch.proxy_path = printing_proxy(f.bin, document);
  ASSERT_OK(install_claude_hooks(&f.launch));

  EXPECT_TRUE(f.launch.hooks_installed);
  ASSERT_EQ(f.launch.pre_args.size(), 3u);
  EXPECT_EQ(f.launch.pre_args[0], "--mcp-config=/x/mcp.json");  // earlier args kept, in order
  EXPECT_EQ(f.launch.pre_args[1], "--plugin-dir");
  EXPECT_EQ(f.launch.pre_args[2], f.plugin());

  // hooks.json is print-settings' output byte for byte: the CLI keeps no copy of its own.
  EXPECT_EQ(read_file(f.plugin() + "/hooks/hooks.json"), document);
  auto manifest = nlohmann::json::parse(read_file(f.plugin() + "/.claude-plugin/plugin.json"));
  EXPECT_EQ(manifest["name"], "caveman");
  EXPECT_EQ(manifest["version"], kVersion);
  EXPECT_TRUE(manifest["description"].is_string());

  // The hook processes find the same state root as the proxy: CAVEMAN_HOME pinned from HOME.
  EXPECT_EQ(f.launch.env.get("CAVEMAN_HOME").value_or(""), "/home/cave/.caveman");
}

TEST(NativeHooks, KeepsTheCallersCavemanHome) {
  Fixture f;
  f.launch.env.set("CAVEMAN_HOME", "/srv/cave");
  f.launch.env.set("CAVEMAN_NATIVE_TIMEOUT_MS", "20000");
  f.launch.proxy_path = printing_proxy(f.bin, real_document());
  ASSERT_OK(install_claude_hooks(&f.launch));
  EXPECT_EQ(f.launch.env.get("CAVEMAN_HOME").value_or(""), "/srv/cave");
  EXPECT_EQ(f.launch.env.get("CAVEMAN_NATIVE_TIMEOUT_MS").value_or(""), "20000");
}

TEST(NativeHooks, OtherProfilesAndOptOutAreUntouched) {
  for (const char* profile : {"codex", "gemini"}) {
    Fixture f(profile);
    f.launch.proxy_path = printing_proxy(f.bin, real_document());
    ASSERT_OK(install_claude_hooks(&f.launch));
    EXPECT_FALSE(f.launch.hooks_installed) << profile;
    EXPECT_EQ(f.launch.pre_args.size(), 1u) << profile;
    EXPECT_FALSE(std::filesystem::exists(f.plugin())) << profile;
  }
  Fixture off;
  off.launch.native_hooks = false;
  off.launch.proxy_path = printing_proxy(off.bin, real_document());
  ASSERT_OK(install_claude_hooks(&off.launch));
  EXPECT_FALSE(off.launch.hooks_installed);
  EXPECT_EQ(off.launch.pre_args.size(), 1u);
  EXPECT_FALSE(std::filesystem::exists(off.plugin()));
}

// Every failure leaves the launch exactly as it was (fail open) and says why.
void expect_untouched(const Fixture& f) {
  EXPECT_FALSE(f.launch.hooks_installed);
  EXPECT_EQ(f.launch.pre_args, std::vector<std::string>{"--mcp-config=/x/mcp.json"});
  EXPECT_FALSE(f.launch.env.get("CAVEMAN_HOME").has_value());
  EXPECT_FALSE(std::filesystem::exists(f.plugin() + "/hooks/hooks.json"));
}

TEST(NativeHooks, MissingProxyFailsOpen) {
  Fixture f;
  Status s = install_claude_hooks(&f.launch);
  EXPECT_EQ(s.error_code(), "cave_native_hooks_no_proxy");
  expect_untouched(f);
  f.launch.proxy_path = f.bin.file("no-such-caveman-proxy");
  EXPECT_EQ(install_claude_hooks(&f.launch).error_code(), "cave_native_hooks_no_proxy");
  expect_untouched(f);
}

TEST(NativeHooks, GarbageOrAnIncompleteDocumentFailsOpen) {
  for (const std::string& out :
       {std::string("hello, not json\n"), std::string("[1,2]"), std::string("{\"hooks\":{}}"),
        std::string("{\"hooks\":{\"PostToolUse\":[{\"hooks\":[{\"type\":\"command\"}]}]}}"),
        std::string("")}) {
    Fixture f;
    f.launch.proxy_path = printing_proxy(f.bin, out);
    Status s = install_claude_hooks(&f.launch);
    EXPECT_EQ(s.error_code(), "cave_native_hooks_invalid") << out;
    expect_untouched(f);
  }
}

TEST(NativeHooks, AFailingOrHungProxyFailsOpen) {
  Fixture f;
  f.launch.proxy_path = fake_proxy(f.bin, "echo 'unknown command native-hook' >&2\nexit 2");
  Status s = install_claude_hooks(&f.launch);
  EXPECT_EQ(s.error_code(), "cave_native_hooks_failed");
  EXPECT_NE(s.message().find("unknown command native-hook"), std::string::npos) << s.ToString();
  expect_untouched(f);

  Fixture hung;
  hung.launch.env.set("CAVE_BINARY_PROBE_TIMEOUT_MS", "100");
  hung.launch.proxy_path = fake_proxy(hung.bin, "exec sleep 30");
  EXPECT_EQ(install_claude_hooks(&hung.launch).error_code(), "cave_native_hooks_failed");
  expect_untouched(hung);
}

TEST(NativeHooks, AnUnwritableSessionDirFailsOpen) {
  Fixture f;
  f.launch.proxy_path = printing_proxy(f.bin, real_document());
  f.launch.session_dir = f.session.path() + "/missing/dir";
  EXPECT_EQ(install_claude_hooks(&f.launch).error_code(), "cave_native_hooks_write");
  EXPECT_FALSE(f.launch.hooks_installed);
  EXPECT_EQ(f.launch.pre_args.size(), 1u);
}

TEST(NativeHooks, RegisteredAsAWrapExtension) {
  Fixture f;
  f.launch.proxy_path = printing_proxy(f.bin, real_document());
  for (auto& extension : wrap_extensions()) ASSERT_OK(extension(&f.launch));
  EXPECT_TRUE(f.launch.hooks_installed);
  EXPECT_TRUE(std::filesystem::exists(f.plugin() + "/hooks/hooks.json"));
}

}  // namespace
}  // namespace caveman::cli
