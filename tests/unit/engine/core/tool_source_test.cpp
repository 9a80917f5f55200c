// Which file a tool result shows (docs/spec/detect.md#hints).
#include "caveman/tool_source.h"

#include <gtest/gtest.h>

namespace caveman {
namespace {

TEST(ToolSourceTest, ReadToolsOfEachAgentNameTheirFile) {
  EXPECT_EQ(tool_source_path("Read", {{"file_path", "/etc/a.conf"}, {"offset", "3"}}),
            "/etc/a.conf");
  EXPECT_EQ(tool_source_path("read_file", {{"absolute_path", "/p/x.py"}}), "/p/x.py");
  EXPECT_EQ(tool_source_path("read", {{"filePath", "/p/y.ts"}}), "/p/y.ts");
  EXPECT_EQ(tool_source_path("mcp__fs__read_text_file", {{"path", "/p/z.yaml"}}), "/p/z.yaml");
  // A tool that does not read a file names none, whatever its arguments.
  EXPECT_EQ(tool_source_path("Write", {{"file_path", "/etc/a.conf"}}), "");
  EXPECT_EQ(tool_source_path("Grep", {{"path", "/src"}, {"pattern", "x"}}), "");
}

TEST(ToolSourceTest, ShellCallsThatPrintOneFile) {
  EXPECT_EQ(tool_source_path("Bash", {{"command", "cat -n /etc/hosts"}}), "/etc/hosts");
  EXPECT_EQ(tool_source_path("exec_command", {{"cmd", "sed -n '120,180p' src/main.cpp"}}),
            "src/main.cpp");
  EXPECT_EQ(shell_source_path("head -n 40 'my file.toml'"), "my file.toml");
  EXPECT_EQ(shell_source_path("cat app.yaml | head -80"), "app.yaml");
  EXPECT_EQ(shell_source_path("sed -n '1,$p' a.ini"), "a.ini");
}

TEST(ToolSourceTest, AnythingElseNamesNoFile) {
  for (const char* c : {"cat a b", "grep x a.conf", "cat a.conf | grep x", "cat $F", "cat a > b",
                        "sed -i 's/a/b/' f", "sed -n '/x/p' f", "cat *.conf", "head -n 4",
                        "cat \"$HOME/a\"", "ls -l", ""}) {
    EXPECT_EQ(shell_source_path(c), "") << c;
  }
  EXPECT_EQ(tool_source_path("WebFetch", {{"url", "https://x.org/a.html"}}), "");
}

}  // namespace
}  // namespace caveman
