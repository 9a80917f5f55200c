// Agent profiles (docs/cli.md#adding-an-agent-profile): one JSON data file per agent in
// cli/profiles/, embedded in the binary at build time. A profile says which binary to launch, which
// environment variables point it at the proxy and how caveman-mcp recovery reaches it.
//
// Templates: "{{base_url}}" renders to the attributed gateway URL
// (http://host:port/w/<agent>; the bare gateway for unknown commands). A variable whose
// value renders empty is omitted. Profiles are immutable values; parsing errors are Status
// values (codes::kInvalidProfile) and are caught by a unit test over every embedded file.
#ifndef CAVEMAN_CLI_PROFILES_H_
#define CAVEMAN_CLI_PROFILES_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/status.h"
#include "process.h"

namespace caveman::cli {

// How caveman-mcp is made available to the agent for a wrap session.
enum class McpDelivery {
  kClaudeMcpConfig,  // ephemeral `--mcp-config <file>` for this session only
  kMarker,           // only when `caveman tools mcp install` left ~/.caveman/mcp/<id>.json
  kNone,             // the agent cannot call MCP tools
};

struct AgentProfile {
  std::string id;      // claude
  std::string name;    // Claude Code
  std::string binary;  // claude ("" for generic)
  std::string wire;
  std::string install_hint;
  std::map<std::string, std::string> env;           // always set
  std::map<std::string, std::string> env_if_unset;  // set unless the caller has a value
  std::vector<std::string> unset;                   // removed from the child env
  std::vector<std::string> args;                    // prepended to the user's args
  McpDelivery mcp = McpDelivery::kMarker;
};

Result<AgentProfile> parse_profile(std::string_view json_text);

// All embedded profiles (generic included), sorted by id.
const std::vector<AgentProfile>& builtin_profiles();
// By id or binary name; nullptr when unknown. Never returns the generic profile.
const AgentProfile* find_profile(std::string_view name);
const AgentProfile& generic_profile();

// Replaces {{base_url}} in `text`.
std::string render_template(std::string_view text, std::string_view base_url);

// The child environment for a wrapped agent: `base` plus the generic union and the profile's
// injection, all pointing at `base_url`.
Environment wrap_environment(const Environment& base, const AgentProfile& profile,
                             std::string_view base_url);
// When the environment names an HTTP(S) proxy, NO_PROXY and no_proxy gain 127.0.0.1,
// localhost and ::1 (kept as they are otherwise): a wrapped agent must reach the loopback
// gateway directly, not through the proxy (curl, Node and Python clients do not bypass
// loopback on their own). Called by wrap_environment.
void bypass_proxy_for_loopback(Environment& env);
// Profile args rendered for `base_url`.
std::vector<std::string> wrap_args(const AgentProfile& profile, std::string_view base_url);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_PROFILES_H_
