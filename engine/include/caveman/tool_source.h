// The file a tool result shows, named by the call that produced it (docs/spec/detect.md#hints).
// The proxy, the native hooks and caveman-mcp pass it to the engine as Options::source_path.
#ifndef CAVEMAN_TOOL_SOURCE_H_
#define CAVEMAN_TOOL_SOURCE_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace caveman {

// A tool call's string arguments, as (name, value) pairs in call order.
using ToolArgs = std::vector<std::pair<std::string, std::string>>;

// The last segment of an MCP tool name as agents spell it ("mcp__fs__read_file" →
// "read_file"); other names unchanged.
std::string_view bare_tool_name(std::string_view name);

// The path a read tool names (Claude Code's Read `file_path`, Gemini CLI's and Qwen Code's
// read_file `absolute_path`/`file_path`, opencode's read `filePath`, any tool whose name holds
// "read" and that has one `path`), or the one file a shell call prints (`command`/`cmd` of
// Bash, shell, run_shell_command, exec_command: see shell_source_path). Empty when none.
std::string tool_source_path(std::string_view tool_name, const ToolArgs& args);

// The one file a simple shell command prints: `cat [-n] F`, `head`/`tail [-n N] F`, `nl F`,
// `sed -n 'A,Bp' F`, `less F`, `bat F`, optionally piped into head/tail/nl. Empty for anything
// else (two files, redirections, command substitution, a script).
std::string shell_source_path(std::string_view command);

// The family a file's name declares to detection (config, code, html, xml, json), or empty:
// outputs whose views may differ by it are cached apart.
std::string_view source_family(std::string_view path);

}  // namespace caveman

#endif  // CAVEMAN_TOOL_SOURCE_H_
