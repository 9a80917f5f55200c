// Caveman's native hooks for the Codex CLI (issue 24). The hooks document comes from
// `caveman-proxy native-hook print-settings --agent codex` (PostToolUse answers with
// {"decision":"block","reason":<view>}, which Codex sends to the model instead of the output).
//
// Codex runs a hook only once it is trusted: its trust state is keyed by
// "<source>:<event_snake>:<group>:<handler>" and holds "sha256:" + SHA-256 of the compact,
// key-sorted JSON {"event_name":<event_snake>,"hooks":[{"async":false,…handler}],"matcher"?}
// (checked against Codex 0.171's own `hooks/list` currentHash). Caveman trusts exactly the
// hooks it adds, never anything else (no --dangerously-bypass-hook-trust).
//
// Session (`caveman wrap codex`): `-c hooks.<Event>=[…]` per event plus one
// `-c hooks.state={"/<session-flags>/config.toml:…"={trusted_hash=…},…}`: nothing is written
// to $CODEX_HOME, so the user's auth, config and own hooks stay as they are.
// Persistent (`caveman enable codex`): the groups are appended to $CODEX_HOME/hooks.json
// (default ~/.codex) and their trust to config.toml, both journaled; uninstall restores both
// files byte for byte when nothing else changed them, otherwise removes only caveman's parts.
#ifndef CAVEMAN_CLI_HOOKS_CODEX_H_
#define CAVEMAN_CLI_HOOKS_CODEX_H_

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "native_hooks.h"

namespace caveman::cli {

// "PostToolUse" → "post_tool_use".
std::string codex_event_key(std::string_view event);
// "sha256:<hex>" for one matcher group of `event`, as Codex computes it.
std::string codex_trust_hash(std::string_view event, const nlohmann::json& group);
// The `-c` arguments that install `document` (print-settings output) for one session.
Result<std::vector<std::string>> codex_session_args(const std::string& document);

// The wrap extension: a no-op unless launch is codex with hooks wanted.
Status install_codex_session_hooks(WrapLaunch* launch);

// The persistent, journaled install and its undo (marker: <caveman_home>/hooks/codex.json).
// Errors: codes::kNativeHooks… (document), codes::kConfigUnsupported (a config.toml whose hooks
// caveman cannot extend safely), codes::kConfigNotWritable.
Result<HookInstallReport> install_codex_hooks(const HookTarget& target);
Result<HookInstallReport> uninstall_codex_hooks(const HookTarget& target);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_HOOKS_CODEX_H_
