// `caveman tools mcp install|uninstall [agent] [--server S] [--scope …] [--print]`
// (docs/cli.md#tools-mcp, issues 9 and 24). Claude Code registration goes through its own
// `claude mcp add/remove`; Codex, Gemini CLI, opencode and Qwen Code have their config edited with a
// journal (agent_mcp.h). The marker <home>/mcp/<agent>[.<server>].json records what we
// registered, so uninstall never removes a registration it did not make. No agent: every
// supported agent whose binary is on PATH.
#include <spdlog/spdlog.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

#include "agent_mcp.h"
#include "caveman/base/codes.h"
#include "context.h"
#include "flags.h"
#include "mcp_marker.h"
#include "profiles.h"

namespace caveman::cli {
namespace {

constexpr int kClaudeTimeoutMs = 60000;

void print_snippets(std::ostream& out, const std::string& command) {
  nlohmann::ordered_json server;
  server["command"] = command;
  server["args"] = nlohmann::ordered_json::array();
  nlohmann::ordered_json doc;
  doc["mcpServers"]["caveman"] = server;
  out << "# Cursor (~/.cursor/mcp.json), Claude Desktop, Windsurf and most MCP hosts:\n"
      << doc.dump(2) << "\n\n"
      << "# Codex (~/.codex/config.toml):\n"
      << "[mcp_servers.caveman]\n"
      << "command = " << nlohmann::json(command).dump() << "\n"
      << "args = []\n";
}

std::string current_dir() {
  std::error_code ec;
  auto p = std::filesystem::current_path(ec);
  return ec ? std::string() : p.string();
}

struct ClaudeRun {
  int code = -1;
  std::string text;  // stdout + stderr
};

ClaudeRun run_claude(Context& ctx, const std::string& claude, const Args& args) {
  Args argv{claude};
  argv.insert(argv.end(), args.begin(), args.end());
  auto r = run_captured(argv, ctx.env, kClaudeTimeoutMs);
  if (!r.ok()) return {-1, r.status().ToString()};
  return {r->timed_out ? -1 : r->exit_code, r->out + r->err};
}

// The command Claude Code has registered as `caveman` (any scope it reports), or "".
std::string registered_command(Context& ctx, const std::string& claude,
                               const std::string& server) {
  ClaudeRun get = run_claude(ctx, claude, {"mcp", "get", server});
  if (get.code != 0) return {};
  std::string cmd;
  std::size_t at = get.text.find("Command: ");
  if (at != std::string::npos) {
    std::size_t end = get.text.find('\n', at);
    cmd = get.text.substr(at + 9, end == std::string::npos ? std::string::npos : end - at - 9);
    while (!cmd.empty() && (cmd.back() == '\r' || cmd.back() == ' ')) cmd.pop_back();
  }
  return cmd;
}

// The usable binary of `server`, or "" after printing why not.
std::string server_command(Context& ctx, const McpServerSpec& server) {
  BinaryLocation where = ctx.locate(server.binary);
  BinaryProbe probe = probe_binary(*find_binary_spec(server.binary), where, ctx.env);
  if (probe.ok) return where.path;
  ctx.log->error(
      "caveman tools mcp install: {}: {} is not usable (set CAVEMAN_<X>_BIN, put it on PATH or run "
      "`caveman install`)",
      probe.error, server.binary);
  return {};
}

int install_claude(Context& ctx, const std::string& claude, const std::string& scope,
                   const std::string& home, const std::string& server, const std::string& command) {
  auto marker = read_marker(home, "claude", server);
  Args add{"mcp", "add", "--scope", scope, server, "--", command};
  ClaudeRun r = run_claude(ctx, claude, add);
  if (r.code != 0 && r.text.find("already exists") != std::string::npos) {
    // Replace only our own earlier registration (same scope, as the marker says).
    if (!marker || marker->scope != scope) {
      ctx.log->error(
          "caveman tools mcp install: a `caveman` MCP server that caveman did not register "
          "already exists in Claude Code's {} config; leaving it alone (remove it with `claude mcp "
          "remove {} -s {}` first)",
          scope, server, scope);
      return kExitError;
    }
    run_claude(ctx, claude, {"mcp", "remove", server, "-s", scope});
    r = run_claude(ctx, claude, add);
  }
  if (r.code != 0) {
    ctx.log->error("caveman tools mcp install: `claude mcp add` failed (exit {}): {}", r.code,
                   r.text);
    return kExitError;
  }
  McpMarker m;
  m.command = command;
  m.server = server;
  m.agent = "claude";
  m.scope = scope;
  if (scope != "user") m.project = current_dir();
  if (Status s = write_marker(home, m); !s.ok()) {
    // Keep state consistent: no marker means we must not leave a registration behind.
    run_claude(ctx, claude, {"mcp", "remove", server, "-s", scope});
    ctx.log->error("caveman tools mcp install: {}", s.ToString());
    return kExitError;
  }
  *ctx.out << server << " registered with Claude Code (" << scope << " scope): " << command
           << "\n  check it with: claude mcp list\n";
  return kExitOk;
}

int uninstall_claude(Context& ctx, const std::string& claude, const std::string& scope_flag,
                     const std::string& home, const std::string& server) {
  auto marker = read_marker(home, "claude", server);
  if (!marker) {
    *ctx.out << "caveman tools mcp uninstall: no registration made by `caveman tools mcp "
                "install` (no marker at "
             << marker_path(home, "claude", server) << "); nothing removed\n";
    return kExitOk;
  }
  std::string scope = scope_flag.empty() ? marker->scope : scope_flag;
  if (scope != marker->scope) {
    ctx.log->error(
        "caveman tools mcp uninstall: caveman registered the server in the {} scope, not {}; "
        "nothing removed",
        marker->scope, scope);
    return kExitError;
  }
  std::string current = registered_command(ctx, claude, server);
  if (!current.empty() && current != marker->command) {
    ctx.log->error(
        "caveman tools mcp uninstall: the `{}` server now runs \"{}\", not the binary caveman "
        "registered; leaving it alone",
        server, current);
    (void)remove_marker(home, "claude", server);
    return kExitError;
  }
  if (!current.empty()) {
    ClaudeRun r = run_claude(ctx, claude, {"mcp", "remove", server, "-s", scope});
    if (r.code != 0) {
      ctx.log->error("caveman tools mcp uninstall: `claude mcp remove` failed (exit {}): {}",
                     r.code, r.text);
      return kExitError;
    }
  }
  if (Status s = remove_marker(home, "claude", server); !s.ok()) {
    ctx.log->error("caveman tools mcp uninstall: {}", s.ToString());
    return kExitError;
  }
  *ctx.out << server << " removed from Claude Code (" << scope << " scope)\n";
  return kExitOk;
}


// One agent: claude through its own CLI, the others by editing their config.
int run_for_agent(Context& ctx, const std::string& action, const std::string& agent,
                  const std::string& scope, const std::string& home, const McpServerSpec& server) {
  const AgentProfile* profile = find_profile(agent);
  auto bin = find_on_path(profile->binary, ctx.env.get("PATH").value_or(""));
  if (agent == "claude") {
    if (!bin) {
      ctx.log->error("caveman tools mcp: {} (`{}`) is not on PATH; install it with: {}",
                     profile->name, profile->binary, profile->install_hint);
      return kExitNotFound;
    }
    if (action == "uninstall") return uninstall_claude(ctx, *bin, scope, home, server.name);
    std::string command = server_command(ctx, server);
    if (command.empty()) return kExitError;
    return install_claude(ctx, *bin, scope.empty() ? "user" : scope, home, server.name, command);
  }
  if (!scope.empty() && scope != "user") {
    ctx.log->error(
        "caveman tools mcp: {} is registered in its user config only; --scope {} applies to claude",
        profile->name, scope);
    return kExitUsage;
  }
  std::string command;
  if (action == "install") {
    command = server_command(ctx, server);
    if (command.empty()) return kExitError;
  }
  Result<McpEditReport> r = action == "install"
                                ? install_config_mcp(home, ctx.env, agent, server.name, command)
                                : uninstall_config_mcp(home, agent, server.name);
  if (!r.ok()) {
    ctx.log->error("caveman tools mcp {} {}: {}", action, agent, r.status().ToString());
    return kExitError;
  }
  *ctx.out << r->message << "\n";
  return kExitOk;
}

// No agent named: every supported agent whose binary is on PATH (uninstall: every marker).
std::vector<std::string> default_agents(Context& ctx, const std::string& action,
                                        const std::string& home, const std::string& server) {
  std::vector<std::string> agents;
  std::vector<std::string> all{"claude"};
  all.insert(all.end(), config_mcp_agents().begin(), config_mcp_agents().end());
  for (const auto& a : all) {
    bool on_path = find_on_path(find_profile(a)->binary, ctx.env.get("PATH").value_or("")).has_value();
    bool marked = read_marker(home, a, server).has_value();
    if (action == "install" ? on_path : marked) agents.push_back(a);
  }
  return agents;
}

}  // namespace

int cmd_mcp(Context& ctx, const Args& args) {
  CLI::App app{"Register Caveman's MCP servers with your agents (or print the config).",
               "tools mcp"};
  std::string action;
  std::string agent;
  std::string scope;
  std::string server_name = "caveman";
  bool print = false;
  app.add_option("action", action, "install | uninstall")
      ->required()
      ->check(CLI::IsMember({"install", "uninstall"}));
  app.add_option("agent", agent, "claude | codex | gemini | opencode | qwen (default: all on PATH)")
      ->check(CLI::IsMember({"claude", "codex", "gemini", "opencode", "qwen"}));
  app.add_option("--server", server_name, "caveman (default) | caveman-browse | cavemem")
      ->check(CLI::IsMember({"caveman", "caveman-browse", "cavemem"}));
  app.add_option("--scope", scope, "Claude Code config scope (default user)")
      ->check(CLI::IsMember({"user", "project", "local"}));
  app.add_flag("--print", print, "print the JSON/TOML snippet for other MCP hosts instead");
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;

  if (print) {
    BinaryLocation mcp = ctx.locate("caveman-mcp");
    print_snippets(*ctx.out, mcp.found() ? mcp.path : std::string("caveman-mcp"));
    if (!mcp.found())
      ctx.log->warn("caveman: warning: caveman-mcp not found; snippet uses the bare name");
    return kExitOk;
  }
  std::string home = caveman_home(ctx.env);
  if (home.empty()) {
    ctx.log->error("caveman tools mcp: {}: neither CAVEMAN_HOME nor HOME is set", codes::kNoHome);
    return kExitError;
  }
  const McpServerSpec& server = *find_mcp_server(server_name);
  std::vector<std::string> agents{agent};
  if (agent.empty()) {
    agents = default_agents(ctx, action, home, server.name);
    if (agents.empty()) {
      *ctx.out << "caveman tools mcp " << action << ": "
               << (action == "install" ? "none of claude, codex, gemini, opencode, qwen is on PATH"
                                       : "no registration made by caveman")
               << "; nothing to do\n";
      return kExitOk;
    }
  }
  int rc = 0;
  for (const auto& a : agents) {
    int r = run_for_agent(ctx, action, a, scope, home, server);
    if (r != 0 && rc == 0) rc = r;
  }
  return rc;
}

}  // namespace caveman::cli
