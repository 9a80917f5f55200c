// Codex CLI and Gemini CLI native hooks from the CLI side: Codex's trust hash (vectors from
// Codex 0.171's own `hooks/list`), the session `-c` arguments, the Gemini session defaults
// file, the rule by which Gemini CLI skips that file (issue 39), and the persistent journaled
// install/uninstall (byte-identical, or only caveman's groups removed when the user changed the
// file since).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "hook_files.h"
#include "hooks_codex.h"
#include "hooks_gemini.h"
#include "native/host_formats.h"
#include "support/test_support.h"

namespace caveman::cli {
namespace {

using Json = nlohmann::json;
using caveman::testing::read_file;
using caveman::testing::TempDir;
using caveman::testing::write_file;

const char* kCommand = "'/opt/caveman/bin/caveman-proxy' native-hook ";

std::string document(const char* agent) {
  return proxy::native::host_hook_settings(*proxy::native::find_host(agent), std::string(kCommand) + agent) + "\n";
}

// A stand-in caveman-proxy printing the real document for `agent`.
std::string printing_proxy(const TempDir& dir, const char* agent) {
  write_file(dir.file("doc.json"), document(agent));
  std::string path = dir.file("caveman-proxy");
  write_file(path, "#!/bin/sh\n[ \"$1 $2 $3 $4\" = \"native-hook print-settings --agent " + std::string(agent) +
                       "\" ] || exit 9\ncat '" + dir.file("doc.json") + "'\n");
  ::chmod(path.c_str(), 0755);
  return path;
}

TEST(AgentHooks, CodexTrustHashMatchesCodex) {
  // currentHash values reported by `codex app-server` hooks/list (Codex 0.171.0).
  Json post = {{"matcher", "*"}, {"hooks", {{{"type", "command"}, {"command", "/tmp/h24x/hook.sh"}, {"timeout", 30}}}}};
  EXPECT_EQ(codex_trust_hash("PostToolUse", post),
            "sha256:dcb8c88d540735ab6a5b65ba0105da1e4e6c5f61641ac1bf193b1d6e94529c2a");
  Json start = {{"hooks", {{{"type", "command"}, {"command", "'/a b/caveman-proxy' native-hook codex"}, {"timeout", 30}}}}};
  EXPECT_EQ(codex_trust_hash("SessionStart", start),
            "sha256:14f83d78d39da9c7f6b0c7e7da050978f61bc42e5d08f63c17c6c16aa2106e43");
  EXPECT_EQ(codex_event_key("UserPromptSubmit"), "user_prompt_submit");
  EXPECT_EQ(codex_event_key("Stop"), "stop");
}

TEST(AgentHooks, CodexSessionArgsTrustExactlyCavemansHooks) {
  Result<std::vector<std::string>> args = codex_session_args(document("codex"));
  ASSERT_OK(args);
  Json doc = Json::parse(document("codex"));
  ASSERT_EQ(args->size(), 2 * (doc["hooks"].size() + 1));
  std::string state;
  int events = 0;
  for (std::size_t i = 0; i < args->size(); i += 2) {
    EXPECT_EQ((*args)[i], "-c");
    const std::string& kv = (*args)[i + 1];
    if (kv.rfind("hooks.state=", 0) == 0) {
      state = kv;
    } else {
      ++events;
    }
  }
  EXPECT_EQ(events, static_cast<int>(doc["hooks"].size()));
  EXPECT_NE(std::find((*args).begin(), (*args).end(),
                      "hooks.PostToolUse=[{hooks=[{command=\"'/opt/caveman/bin/caveman-proxy' native-hook codex\","
                      "timeout=30,type=\"command\"}],matcher=\"*\"}]"),
            (*args).end());
  EXPECT_NE(state.find("\"/<session-flags>/config.toml:post_tool_use:0:0\"={trusted_hash=\"" +
                       codex_trust_hash("PostToolUse", doc["hooks"]["PostToolUse"][0]) + "\"}"),
            std::string::npos);
}

// The real filesystem as Gemini's check would see it if root owned everything and nothing were
// writable by group or others: the session file's location passes wherever TMPDIR is.
PathFacts as_root_private(const std::string& path) {
  PathFacts f = probe_path(path);
  f.uid = 0;
  f.link_uid = 0;
  f.mode &= ~static_cast<unsigned>(S_IWGRP | S_IWOTH);
  return f;
}

// A made-up filesystem: path → facts; a path not listed does not exist.
PathProbe fake_fs(std::map<std::string, PathFacts> facts) {
  return [facts = std::move(facts)](const std::string& path) {
    auto it = facts.find(path);
    return it == facts.end() ? PathFacts{} : it->second;
  };
}
PathFacts dir_of(unsigned uid, unsigned mode, std::string real = "") {
  return PathFacts{true, true, uid, S_IFDIR | mode, false, 0, std::move(real)};
}

WrapLaunch launch_for(const char* profile, const TempDir& home, const std::string& proxy) {
  WrapLaunch l;
  l.profile = find_profile(profile);
  l.session_dir = home.file("caveman-wrap-abc");
  ::mkdir(l.session_dir.c_str(), 0700);
  l.proxy_path = proxy;
  l.env = Environment({{"PATH", "/usr/bin:/bin"}, {"HOME", home.path()}});
  return l;
}

TEST(AgentHooks, WrapExtensionsInstallForTheirAgentOnly) {
  TempDir home;
  TempDir bin;
  WrapLaunch codex = launch_for("codex", home, printing_proxy(bin, "codex"));
  ASSERT_OK(install_codex_session_hooks(&codex));
  EXPECT_TRUE(codex.hooks_installed);
  EXPECT_EQ(codex.pre_args, *codex_session_args(document("codex")));
  EXPECT_EQ(codex.env.get("CAVEMAN_HOME").value_or(""), home.path() + "/.caveman");
  ASSERT_OK(install_gemini_session_hooks(&codex));  // not gemini: untouched
  EXPECT_FALSE(codex.env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"));

  TempDir gbin;
  WrapLaunch gemini = launch_for("gemini", home, printing_proxy(gbin, "gemini"));
  // The user's own system defaults keep applying in the session copy.
  write_file(home.file("defaults.json"), "{\"ui\": {\"theme\": \"dark\"}} // mine\n");
  gemini.env.set("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", home.file("defaults.json"));
  ASSERT_OK(install_gemini_session_hooks_as(&gemini, 0, as_root_private));
  EXPECT_TRUE(gemini.hooks_installed);
  std::string path = gemini.env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").value_or("");
  EXPECT_EQ(path, home.path() + "/.caveman/run/gemini-caveman-wrap-abc/system-defaults.json");
  ASSERT_EQ(gemini.owned_dirs.size(), 1u);
  Json written = Json::parse(read_file(path));
  EXPECT_EQ(written["ui"]["theme"], "dark");
  // print-settings' hooks, each with the state root in its own env (Gemini may redact its
  // environment before running a hook).
  Json expected = Json::parse(document("gemini"))["hooks"];
  for (auto& [event, groups] : expected.items()) {
    for (auto& g : groups) {
      for (auto& h : g["hooks"]) h["env"] = {{"CAVEMAN_HOME", home.path() + "/.caveman"}};
    }
  }
  EXPECT_EQ(written["hooks"], expected);
  EXPECT_TRUE(gemini.pre_args.empty());

  WrapLaunch off = launch_for("gemini", home, printing_proxy(gbin, "gemini"));
  off.native_hooks = false;
  ASSERT_OK(install_gemini_session_hooks_as(&off, 0, as_root_private));
  EXPECT_FALSE(off.hooks_installed);
}

TEST(AgentHooks, SessionFailuresFailOpen) {
  TempDir home;
  TempDir bin;
  write_file(bin.file("caveman-proxy"), "#!/bin/sh\necho garbage\n");
  ::chmod(bin.file("caveman-proxy").c_str(), 0755);
  for (const char* agent : {"codex", "gemini"}) {
    WrapLaunch l = launch_for(agent, home, bin.file("caveman-proxy"));
    Status s = std::string(agent) == "codex"
                   ? install_codex_session_hooks(&l)
                   : install_gemini_session_hooks_as(&l, 0, as_root_private);
    EXPECT_EQ(s.error_code(), "cave_native_hooks_invalid") << agent;
    EXPECT_FALSE(l.hooks_installed);
    EXPECT_TRUE(l.pre_args.empty());
    EXPECT_FALSE(l.env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"));
  }
  WrapLaunch none = launch_for("codex", home, "");
  EXPECT_EQ(install_codex_session_hooks(&none).error_code(), "cave_native_hooks_no_proxy");
  // An unparsable system defaults file: no hooks rather than a broken Gemini.
  TempDir gbin;
  WrapLaunch g = launch_for("gemini", home, printing_proxy(gbin, "gemini"));
  write_file(home.file("bad.json"), "{ not json");
  g.env.set("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", home.file("bad.json"));
  EXPECT_FALSE(install_gemini_session_hooks_as(&g, 0, as_root_private).ok());
  EXPECT_EQ(g.env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH").value_or(""), home.file("bad.json"));
}

// Gemini CLI 0.61 (loadSystemFile → isFileAndDirectorySecureSync) loads a system defaults file
// only when it and every directory above it are root's and writable by neither group nor others.
TEST(AgentHooks, GeminiSkipsASystemFileUnlessRootOwnsEveryDirectoryAbove) {
  const std::string file = "/home/u/.caveman/run/gemini-s/system-defaults.json";
  std::map<std::string, PathFacts> root_fs = {{"/", dir_of(0, 0755)},
                                              {"/home", dir_of(0, 0755)},
                                              {"/home/u", dir_of(0, 0700)},
                                              {"/home/u/.caveman", dir_of(0, 0700)}};
  EXPECT_TRUE(gemini_system_file_problems(file, 0, fake_fs(root_fs)).empty())
      << "root, private: loaded";
  // What wrap would create is owned by its user: only root passes.
  std::vector<std::string> user = gemini_system_file_problems(file, 1000, fake_fs(root_fs));
  ASSERT_EQ(user.size(), 1u);
  EXPECT_EQ(user[0], "what caveman creates at /home/u/.caveman/run is owned by uid 1000, not root");
  // The sticky /tmp counts as world-writable; a group-writable directory fails too; the
  // deepest comes first, as in Gemini's own warning.
  std::map<std::string, PathFacts> tmp = {{"/", dir_of(0, 0755)},
                                          {"/tmp", dir_of(0, 01777)},
                                          {"/tmp/c", dir_of(0, 0775)},
                                          {"/tmp/c/h", dir_of(1000, 0700)}};
  std::vector<std::string> p =
      gemini_system_file_problems("/tmp/c/h/../h/./x.json", 0, fake_fs(tmp));
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0], "/tmp/c/h is owned by uid 1000, not root");
  EXPECT_EQ(p[1], "/tmp/c is writable by group (mode 775)");
  EXPECT_EQ(p[2], "/tmp is writable by others (mode 1777)");
  // A symlink on the way: its own owner, and the resolved path's directories, count.
  std::map<std::string, PathFacts> linked = {{"/", dir_of(0, 0755)},
                                             {"/s", dir_of(0, 0755, "/w/d")},
                                             {"/w", dir_of(0, 0777)},
                                             {"/w/d", dir_of(0, 0700)}};
  linked["/s"].is_link = true;
  linked["/s"].link_uid = 1000;
  std::vector<std::string> l = gemini_system_file_problems("/s/x.json", 0, fake_fs(linked));
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0], "the symlink /s is owned by uid 1000, not root");
  EXPECT_EQ(l[1], "/w is writable by others (mode 777)");
}

TEST(AgentHooks, WrapWritesNoGeminiHooksWhereGeminiWouldSkipThem) {
  TempDir home;
  TempDir gbin;
  WrapLaunch g = launch_for("gemini", home, printing_proxy(gbin, "gemini"));
  const std::string path = gemini_session_defaults_path(g.env, g.session_dir);
  EXPECT_EQ(path, home.path() + "/.caveman/run/gemini-caveman-wrap-abc/system-defaults.json");
  // Root, but the state root sits below a world-writable directory.
  PathProbe open_home = [&](const std::string& p) {
    PathFacts f = as_root_private(p);
    if (p == home.path()) f.mode |= 0777;
    return f;
  };
  Status s = install_gemini_session_hooks_as(&g, 0, open_home);
  EXPECT_EQ(s.error_code(), "cave_native_hooks_failed");
  EXPECT_NE(s.message().find("Gemini CLI will skip the hooks' settings file " + path),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find(home.path() + " is writable by others"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("Point CAVEMAN_HOME at a directory below none that others can write"),
            std::string::npos);
  // The launch is untouched and nothing is written.
  EXPECT_FALSE(g.hooks_installed);
  EXPECT_FALSE(g.env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH"));
  EXPECT_FALSE(g.env.get("CAVEMAN_HOME"));
  EXPECT_TRUE(g.owned_dirs.empty());
  EXPECT_FALSE(std::filesystem::exists(home.path() + "/.caveman/run"));
  // Not root: no location works; the way out is the persistent install.
  Status user = install_gemini_session_hooks_as(&g, 1000, as_root_private);
  EXPECT_EQ(user.error_code(), "cave_native_hooks_failed");
  EXPECT_NE(user.message().find("Only root can meet that; run `caveman enable gemini` instead"),
            std::string::npos)
      << user.message();
  // The real filesystem: a state root below a 0777 directory is skipped whoever runs the test.
  const std::string open = home.file("open");
  ::mkdir(open.c_str(), 0700);
  ::chmod(open.c_str(), 0777);
  std::vector<std::string> real =
      gemini_system_file_problems(open + "/state/run/x/system-defaults.json", ::geteuid());
  EXPECT_NE(std::find(real.begin(), real.end(), open + " is writable by others (mode 777)"),
            real.end())
      << ::testing::PrintToString(real);
}

TEST(AgentHooks, PersistentGeminiInstallRoundTrip) {
  TempDir home;
  TempDir bin;
  HookTarget t{home.path() + "/.caveman", Environment({{"HOME", home.path()}}), printing_proxy(bin, "gemini")};
  const std::string settings = home.path() + "/.gemini/settings.json";
  ::mkdir((home.path() + "/.gemini").c_str(), 0700);
  const std::string before =
      "{\n  // mine\n  \"hooks\": {\"AfterTool\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"mine\"}]}]}\n}\n";
  write_file(settings, before);
  ASSERT_OK(install_gemini_hooks(t));
  Json on = Json::parse(read_file(settings));
  ASSERT_EQ(on["hooks"]["AfterTool"].size(), 2u);
  EXPECT_EQ(on["hooks"]["AfterTool"][0]["hooks"][0]["command"], "mine");
  EXPECT_EQ(on["hooks"]["AfterTool"][1]["hooks"][0]["command"], std::string(kCommand) + "gemini");
  ASSERT_OK(install_gemini_hooks(t));  // again: replaces its own, no duplicates
  EXPECT_EQ(Json::parse(read_file(settings))["hooks"]["AfterTool"].size(), 2u);
  ASSERT_OK(uninstall_gemini_hooks(t));
  EXPECT_EQ(read_file(settings), before);
  EXPECT_FALSE(std::filesystem::exists(hook_marker_path(t.caveman_home, "gemini")));

  // Changed by the user since: only caveman's groups go.
  ASSERT_OK(install_gemini_hooks(t));
  Json changed = Json::parse(read_file(settings));
  changed["ui"] = {{"theme", "light"}};
  write_file(settings, changed.dump(2));
  ASSERT_OK(uninstall_gemini_hooks(t));
  Json after = Json::parse(read_file(settings));
  EXPECT_EQ(after["ui"]["theme"], "light");
  EXPECT_EQ(after["hooks"].size(), 1u);
  EXPECT_EQ(after["hooks"]["AfterTool"][0]["hooks"][0]["command"], "mine");
}

TEST(AgentHooks, PersistentCodexInstallRoundTrip) {
  TempDir home;
  TempDir bin;
  const std::string codex_home = home.path() + "/codex";
  HookTarget t{home.path() + "/.caveman", Environment({{"HOME", home.path()}, {"CODEX_HOME", codex_home}}),
               printing_proxy(bin, "codex")};
  ::mkdir(codex_home.c_str(), 0700);
  const std::string config_before = "# mine\nmodel = \"gpt-5\"\n";
  write_file(codex_home + "/config.toml", config_before);
  ASSERT_OK(install_codex_hooks(t));
  Json hooks = Json::parse(read_file(codex_home + "/hooks.json"));
  EXPECT_EQ(hooks["hooks"], Json::parse(document("codex"))["hooks"]);
  std::string config = read_file(codex_home + "/config.toml");
  EXPECT_EQ(config.rfind(config_before, 0), 0u);
  EXPECT_NE(config.find("[hooks.state.\"" + codex_home + "/hooks.json:post_tool_use:0:0\"]\ntrusted_hash = \"" +
                        codex_trust_hash("PostToolUse", hooks["hooks"]["PostToolUse"][0]) + "\""),
            std::string::npos);
  ASSERT_OK(uninstall_codex_hooks(t));
  EXPECT_EQ(read_file(codex_home + "/config.toml"), config_before);
  EXPECT_FALSE(std::filesystem::exists(codex_home + "/hooks.json"));  // caveman created it: gone again

  // A config.toml with inline hooks cannot take the trust tables: refused, nothing written.
  write_file(codex_home + "/config.toml", "hooks = { }\n");
  EXPECT_EQ(install_codex_hooks(t).status().error_code(), "cave_config_unsupported");
  EXPECT_FALSE(std::filesystem::exists(codex_home + "/hooks.json"));
}

TEST(AgentHooks, HookGroupsAddAndRemove) {
  const std::string doc = document("gemini");
  Result<HookGroupsAdded> added = add_hook_groups("", doc);
  ASSERT_OK(added);
  EXPECT_EQ(added->indexes.at("AfterTool"), 0);
  Result<std::string> removed = remove_hook_groups(added->text, std::string(kCommand) + "gemini");
  ASSERT_OK(removed);
  EXPECT_EQ(Json::parse(*removed), Json::object());
  EXPECT_FALSE(add_hook_groups("[1,2]", doc).ok());
  EXPECT_EQ(hooks_document_command(doc), std::string(kCommand) + "gemini");
}

}  // namespace
}  // namespace caveman::cli
