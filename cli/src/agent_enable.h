// What `caveman enable <agent>` writes into an agent's own user-scoped config (issue 24), one
// AgentIntegration per agent. Each integration lists file edits (config_edit.h entries);
// enable_state.h applies them with a journal and undoes them on `disable`.
//
//   base_url       route the agent's provider through the proxy, plus the mechanism that
//                  starts the proxy when it is not running (never a dead agent):
//                    claude   settings.json env.ANTHROPIC_BASE_URL + a SessionStart hook
//                    codex    config.toml model_provider "caveman" whose auth command
//                             starts the proxy, then prints $OPENAI_API_KEY
//                    gemini   ~/.gemini/.env GOOGLE_GEMINI_BASE_URL + a SessionStart hook
//                    opencode opencode.json provider.{openai,anthropic}.options.baseURL + a
//                             plugin file that starts the proxy when opencode loads it
//                    qwen     ~/.qwen/settings.json security.auth.baseUrl + a SessionStart hook
//   install_hooks  the native hooks: Claude Code's settings.json hooks (the document
//                  `caveman wrap` installs per session). Codex and Gemini CLI: a no-op today —
//                  the seam their native hooks fill (hooks_codex* / hooks_gemini*).
//
// MCP registration is not an edit here: enable reuses `tools mcp install` (agent_mcp.h).
#ifndef CAVEMAN_CLI_AGENT_ENABLE_H_
#define CAVEMAN_CLI_AGENT_ENABLE_H_

#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "native_hooks.h"
#include "config_edit.h"
#include "process.h"

namespace caveman::cli {

struct EnableInputs {
  Environment env;         // the user's (HOME, XDG_CONFIG_HOME, CODEX_HOME, CLAUDE_CONFIG_DIR)
  std::string caveman;     // absolute path of the caveman binary the agent runs
  std::string gateway;     // http://host:port (the agent's path /w/<agent> is added)
  std::string listen;      // host:port the proxy must serve (pinned in the start command)
  std::string home;        // $CAVEMAN_HOME at enable time (pinned likewise)
  std::string proxy_path;  // caveman-proxy (prints Claude Code's hooks document)
};

// One file and what caveman adds to it, in order.
struct FileEdit {
  std::string path;
  std::string new_file_text;  // what a missing file starts as
  std::vector<ConfigEntry> entries;
};

using EditBuilder = Status (*)(const EnableInputs& in, std::vector<FileEdit>* edits);

// Hooks that keep their own journal (hooks_codex.h, hooks_gemini.h): installed after the
// planned edits are applied and removed before they are undone, so each undo finds the bytes
// it wrote.
using OwnHooks = Result<HookInstallReport> (*)(const HookTarget&);

struct AgentIntegration {
  std::string id;
  EditBuilder base_url;
  EditBuilder install_hooks;  // hooks planned as edits (Claude Code); no-op for the others
  std::string how;            // one line for `doctor` and docs: the mechanism
  OwnHooks install_own_hooks = nullptr;
  OwnHooks uninstall_own_hooks = nullptr;
};

// claude, codex, gemini, opencode, qwen (in that order).
const std::vector<AgentIntegration>& agent_integrations();
const AgentIntegration* find_integration(std::string_view agent);

// `<caveman> ensure-proxy --listen L --home H`: what hooks, plugins and Codex's auth command
// run, as argv and as one shell-quoted command line.
std::vector<std::string> ensure_proxy_argv(const EnableInputs& in);
std::string ensure_proxy_command(const EnableInputs& in);

// The edits of both steps merged per file (first-seen file order). Hooks that cannot be
// built (no caveman-proxy, …) are left out with a warning: the agent works without them.
struct EnablePlan {
  std::vector<FileEdit> edits;
  bool hooks = false;  // the install_hooks step added something
  std::vector<std::string> warnings;
};
Result<EnablePlan> plan_enable(const AgentIntegration& agent, const EnableInputs& in,
                               bool with_hooks);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_AGENT_ENABLE_H_
