// One `caveman wrap` session: the agent's command line and environment, plus a private temp
// directory that lives exactly as long as the agent (ephemeral MCP config, and the temporary
// Claude Code plugin that carries the native hooks: native_hooks.h).
//
// WrapSession owns the temp dir and removes it in its destructor. Extensions are plain
// functions run in order after the profile injection; each may add args/env/files and
// reports failure as a Status (the session then launches without that extension).
#ifndef CAVEMAN_CLI_WRAP_SESSION_H_
#define CAVEMAN_CLI_WRAP_SESSION_H_

#include <functional>
#include <string>
#include <vector>

#include "caveman/status.h"
#include "process.h"
#include "profiles.h"

namespace caveman::cli {

struct WrapLaunch {
  const AgentProfile* profile = nullptr;
  std::string base_url;               // http://host:port/w/<agent>
  std::string session_dir;            // private temp dir (0700)
  std::vector<std::string> pre_args;  // inserted before the user's args
  Environment env;                    // the agent's environment
  bool recovery_via_mcp = false;      // caveman-mcp reachable by the agent this session
  std::string proxy_path;             // caveman-proxy as the CLI locates it ("" = missing)
  bool native_hooks = true;           // false: --no-hooks or CAVEMAN_WRAP_HOOKS=0
  bool hooks_installed = false;       // set by the hook extensions
  // Directories outside session_dir an extension created for this session only (Gemini CLI
  // refuses settings under a world-writable /tmp); removed when the agent exits.
  std::vector<std::string> owned_dirs;
};

// A hook point for native integrations (issue 15). Registered by default: the Claude Code
// hooks (install_claude_hooks, a no-op for other profiles).
using WrapExtension = std::function<Status(WrapLaunch* launch)>;
std::vector<WrapExtension>& wrap_extensions();

class WrapSession {
 public:
  // Creates the temp dir under $TMPDIR (default /tmp). Errors: codes::kSessionDir.
  static Result<WrapSession> create(const Environment& env);
  WrapSession(WrapSession&& other) noexcept;
  WrapSession& operator=(WrapSession&&) = delete;
  WrapSession(const WrapSession&) = delete;
  ~WrapSession();

  const std::string& dir() const { return dir_; }
  // Writes {"mcpServers":{"caveman":{"type":"stdio","command":…,"args":[…],"alwaysLoad":true}}}
  // and returns its path, for Claude Code's `--mcp-config`. `retrieve_only` passes
  // `--tools caveman_retrieve` (a caveman-mcp with the tool_selection capability).
  Result<std::string> write_mcp_config(const std::string& mcp_command, bool retrieve_only) const;

 private:
  explicit WrapSession(std::string dir) : dir_(std::move(dir)) {}
  std::string dir_;
};

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_WRAP_SESSION_H_
