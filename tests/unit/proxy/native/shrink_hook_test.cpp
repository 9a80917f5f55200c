// The shrink hook on Codex's and Gemini CLI's shell tools: which commands are rewritten to run
// under caveman-shrink, the host output that rewrites them, and when nothing is touched.
#include "native/shrink_hook.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "native/host_formats.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

Json before(const char* event, const char* tool, const std::string& command) {
  return {{"session_id", "s"}, {"cwd", "/p"}, {"hook_event_name", event}, {"tool_name", tool},
          {"tool_input", {{"command", command}}}, {"permission_mode", "bypassPermissions"}};
}

TEST(ShrinkHook, QuotesForSh) {
  EXPECT_EQ(shrink_wrapped("npm test -- -t 'a b'", "/opt/bin/caveman-shrink"),
            "'/opt/bin/caveman-shrink' --shell -- 'npm test -- -t '\\''a b'\\'''");
}

TEST(ShrinkHook, GeminiBuildAndTestCommandsRunUnderShrink) {
  Json in = before("BeforeTool", "run_shell_command", "cmake --build build");
  in["tool_input"]["description"] = "build";
  std::optional<std::string> out = shrink_rewrite(gemini_host(), in.dump(), "/b/caveman-shrink");
  ASSERT_TRUE(out);
  Json j = Json::parse(*out);
  EXPECT_EQ(j["hookSpecificOutput"]["hookEventName"], "BeforeTool");
  EXPECT_EQ(j["hookSpecificOutput"]["tool_input"]["command"], "'/b/caveman-shrink' --shell -- 'cmake --build build'");
  EXPECT_EQ(j["hookSpecificOutput"]["tool_input"]["description"], "build");  // the rest kept
  EXPECT_FALSE(j.contains("decision"));
}

TEST(ShrinkHook, CodexOnlyWhereNothingWouldBeAsked) {
  Json in = before("PreToolUse", "Bash", "pytest -q");
  std::optional<std::string> out = shrink_rewrite(codex_host(), in.dump(), "/b/caveman-shrink");
  ASSERT_TRUE(out);
  Json j = Json::parse(*out)["hookSpecificOutput"];
  EXPECT_EQ(j["permissionDecision"], "allow");
  EXPECT_EQ(j["updatedInput"]["command"], "'/b/caveman-shrink' --shell -- 'pytest -q'");
  in["permission_mode"] = "default";  // Codex would ask: never approve on the user's behalf
  EXPECT_FALSE(shrink_rewrite(codex_host(), in.dump(), "/b/caveman-shrink"));
}

TEST(ShrinkHook, LeavesEverythingElseAlone) {
  const std::string shrink = "/b/caveman-shrink";
  EXPECT_FALSE(shrink_rewrite(gemini_host(), before("BeforeTool", "run_shell_command", "ls -la").dump(), shrink));
  EXPECT_FALSE(shrink_rewrite(gemini_host(), before("BeforeTool", "read_file", "make").dump(), shrink));
  EXPECT_FALSE(shrink_rewrite(gemini_host(), before("AfterTool", "run_shell_command", "make").dump(), shrink));
  EXPECT_FALSE(shrink_rewrite(gemini_host(),
                              before("BeforeTool", "run_shell_command", "caveman-shrink -- make").dump(), shrink));
  Json bg = before("BeforeTool", "run_shell_command", "npm test");
  bg["tool_input"]["is_background"] = true;
  EXPECT_FALSE(shrink_rewrite(gemini_host(), bg.dump(), shrink));
  EXPECT_FALSE(shrink_rewrite(claude_host(), before("PreToolUse", "Bash", "make").dump(), shrink));
  EXPECT_FALSE(shrink_rewrite(gemini_host(), before("BeforeTool", "run_shell_command", "make").dump(), ""));
  EXPECT_FALSE(shrink_rewrite(gemini_host(), "not json", shrink));
}

TEST(ShrinkHook, OffSwitchAndLookup) {
  ::setenv("CAVEMAN_SHRINK_HOOK", "off", 1);
  EXPECT_EQ(find_shrink_binary(), "");
  ::unsetenv("CAVEMAN_SHRINK_HOOK");
  ::setenv("CAVEMAN_SHRINK_BIN", "/bin/sh", 1);
  EXPECT_EQ(find_shrink_binary(), "/bin/sh");
  ::setenv("CAVEMAN_SHRINK_BIN", "/nonexistent/caveman-shrink", 1);
  EXPECT_EQ(find_shrink_binary(), "");
  ::unsetenv("CAVEMAN_SHRINK_BIN");
}

}  // namespace
}  // namespace caveman::proxy::native
