#include "binaries.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "support/test_support.h"

namespace caveman::cli {
namespace {

using caveman::testing::TempDir;

void write_script(const std::string& path, const std::string& body) {
  caveman::testing::write_file(path, "#!/bin/sh\n" + body + "\n");
  ::chmod(path.c_str(), 0755);
}

const BinarySpec& mcp_spec() { return *find_binary_spec("caveman-mcp"); }

TEST(Binaries, SixCompanionsFourRequired) {
  EXPECT_EQ(binary_specs().size(), 6u);
  int required = 0;
  for (const auto& s : binary_specs()) required += s.required ? 1 : 0;
  EXPECT_EQ(required, 4);
  EXPECT_EQ(find_binary_spec("nope"), nullptr);
}

TEST(Binaries, LookupOrderEnvPathHomeSibling) {
  TempDir env_dir, path_dir, home, sibling;
  ::mkdir((home.path() + "/bin").c_str(), 0700);
  for (const auto& d : {env_dir.path(), path_dir.path(), home.path() + "/bin", sibling.path()}) {
    write_script(d + "/caveman-mcp", "exit 0");
  }
  Environment env({{"CAVEMAN_MCP_BIN", env_dir.file("caveman-mcp")},
                   {"PATH", path_dir.path()},
                   {"CAVEMAN_HOME", home.path()}});
  EXPECT_EQ(locate_binary(mcp_spec(), env, sibling.path()).source, "env");
  env.unset("CAVEMAN_MCP_BIN");
  EXPECT_EQ(locate_binary(mcp_spec(), env, sibling.path()).source, "path");
  env.set("PATH", "/nonexistent");
  auto home_loc = locate_binary(mcp_spec(), env, sibling.path());
  EXPECT_EQ(home_loc.source, "home");
  EXPECT_EQ(home_loc.path, home.path() + "/bin/caveman-mcp");
  env.set("CAVEMAN_HOME", "/nonexistent");
  EXPECT_EQ(locate_binary(mcp_spec(), env, sibling.path()).source, "sibling");
  EXPECT_EQ(locate_binary(mcp_spec(), env, "").source, "missing");
}

TEST(Binaries, AnOverridePointingNowhereDisablesTheBinary) {
  TempDir path_dir;
  write_script(path_dir.file("caveman-mcp"), "exit 0");
  Environment env({{"CAVEMAN_MCP_BIN", "/nonexistent/caveman-mcp"}, {"PATH", path_dir.path()}});
  BinaryLocation loc = locate_binary(mcp_spec(), env, "");
  EXPECT_FALSE(loc.found());
  EXPECT_EQ(probe_binary(mcp_spec(), loc, env).error, "cave_binary_missing");
}

TEST(Binaries, ProbeReadsVersionAndRequiresTheCapability) {
  TempDir dir;
  Environment env({{"PATH", "/usr/bin:/bin"}});
  write_script(dir.file("good"),
               R"(echo '{"name":"caveman-mcp","version":"1.2.3","capabilities":["mcp_recovery"]}')");
  write_script(dir.file("stale"), R"(echo '{"name":"caveman-mcp","version":"0.1","capabilities":[]}')");
  write_script(dir.file("other"), R"(echo '{"name":"cavemem","version":"1","capabilities":["mcp_recovery"]}')");
  write_script(dir.file("garbage"), "echo not json");
  write_script(dir.file("fails"), "exit 1");
  auto probe = [&](const std::string& name) {
    return probe_binary(mcp_spec(), BinaryLocation{"caveman-mcp", dir.file(name), "env"}, env);
  };
  BinaryProbe good = probe("good");
  EXPECT_TRUE(good.ok);
  EXPECT_EQ(good.version, "1.2.3");
  EXPECT_EQ(probe("stale").error, "cave_binary_stale");
  EXPECT_EQ(probe("other").error, "cave_binary_probe_failed");
  EXPECT_EQ(probe("garbage").error, "cave_binary_probe_failed");
  EXPECT_EQ(probe("fails").error, "cave_binary_probe_failed");
}

TEST(Binaries, ProbeGivesUpOnASilentBinary) {
  TempDir dir;
  write_script(dir.file("hang"), "exec sleep 30");
  Environment env({{"PATH", "/usr/bin:/bin"}, {"CAVE_BINARY_PROBE_TIMEOUT_MS", "100"}});
  BinaryProbe p = probe_binary(mcp_spec(), BinaryLocation{"caveman-mcp", dir.file("hang"), "env"}, env);
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.error, "cave_binary_probe_failed");
}

TEST(Binaries, ProbeTimeoutIsClamped) {
  EXPECT_EQ(probe_timeout_ms(Environment()), 2000);
  EXPECT_EQ(probe_timeout_ms(Environment({{"CAVE_BINARY_PROBE_TIMEOUT_MS", "5"}})), 100);
  EXPECT_EQ(probe_timeout_ms(Environment({{"CAVE_BINARY_PROBE_TIMEOUT_MS", "999999"}})), 30000);
  EXPECT_EQ(probe_timeout_ms(Environment({{"CAVE_BINARY_PROBE_TIMEOUT_MS", "x"}})), 2000);
}

TEST(Binaries, HomeIsCavemanHomeElseDotCaveman) {
  EXPECT_EQ(caveman_home(Environment({{"CAVEMAN_HOME", "/a/b/"}, {"HOME", "/h"}})), "/a/b");
  EXPECT_EQ(caveman_home(Environment({{"HOME", "/h"}})), "/h/.caveman");
  EXPECT_EQ(caveman_home(Environment()), "");
}

}  // namespace
}  // namespace caveman::cli
