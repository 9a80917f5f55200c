// `caveman tools mcp install|uninstall [claude] [--scope user|project|local] [--print]`
// (PROCESSES.md §2.7, narrowed by issue 9). Registration goes through Claude Code's own
// `claude mcp add/remove`; the marker <home>/mcp/claude.json records what we registered, so
// uninstall never removes a registration it did not make.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>

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
std::string registered_command(Context& ctx, const std::string& claude) {
  ClaudeRun get = run_claude(ctx, claude, {"mcp", "get", "caveman"});
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

int install(Context& ctx, const std::string& claude, const std::string& scope,
            const std::string& home) {
  BinaryLocation mcp = ctx.locate("caveman-mcp");
  BinaryProbe probe = probe_binary(*find_binary_spec("caveman-mcp"), mcp, ctx.env);
  if (!probe.ok) {
    *ctx.err << "caveman tools mcp install: " << probe.error
             << ": caveman-mcp is not usable (set CAVEMAN_MCP_BIN, put it on PATH or run "
                "`caveman install`)\n";
    return 1;
  }
  auto marker = read_marker(home, "claude");
  Args add{"mcp", "add", "--scope", scope, "caveman", "--", mcp.path};
  ClaudeRun r = run_claude(ctx, claude, add);
  if (r.code != 0 && r.text.find("already exists") != std::string::npos) {
    // Replace only our own earlier registration (same scope, as the marker says).
    if (!marker || marker->scope != scope) {
      *ctx.err << "caveman tools mcp install: a `caveman` MCP server that caveman did not "
                  "register already exists in Claude Code's "
               << scope << " config; leaving it alone (remove it with `claude mcp remove caveman -s "
               << scope << "` first)\n";
      return 1;
    }
    run_claude(ctx, claude, {"mcp", "remove", "caveman", "-s", scope});
    r = run_claude(ctx, claude, add);
  }
  if (r.code != 0) {
    *ctx.err << "caveman tools mcp install: `claude mcp add` failed (exit " << r.code
             << "): " << r.text << "\n";
    return 1;
  }
  McpMarker m;
  m.command = mcp.path;
  m.agent = "claude";
  m.scope = scope;
  if (scope != "user") m.project = current_dir();
  if (Status s = write_marker(home, m); !s.ok()) {
    // Keep state consistent: no marker means we must not leave a registration behind.
    run_claude(ctx, claude, {"mcp", "remove", "caveman", "-s", scope});
    *ctx.err << "caveman tools mcp install: " << s.ToString() << "\n";
    return 1;
  }
  *ctx.out << "caveman-mcp registered with Claude Code (" << scope << " scope): " << mcp.path
           << "\n  check it with: claude mcp list\n";
  return 0;
}

int uninstall(Context& ctx, const std::string& claude, const std::string& scope_flag,
              const std::string& home) {
  auto marker = read_marker(home, "claude");
  if (!marker) {
    *ctx.out << "caveman tools mcp uninstall: no registration made by `caveman tools mcp "
                "install` (no marker at "
             << marker_path(home, "claude") << "); nothing removed\n";
    return 0;
  }
  std::string scope = scope_flag.empty() ? marker->scope : scope_flag;
  if (scope != marker->scope) {
    *ctx.err << "caveman tools mcp uninstall: caveman registered the server in the "
             << marker->scope << " scope, not " << scope << "; nothing removed\n";
    return 1;
  }
  std::string current = registered_command(ctx, claude);
  if (!current.empty() && current != marker->command) {
    *ctx.err << "caveman tools mcp uninstall: the `caveman` server now runs \"" << current
             << "\", not the binary caveman registered; leaving it alone\n";
    (void)remove_marker(home, "claude");
    return 1;
  }
  if (!current.empty()) {
    ClaudeRun r = run_claude(ctx, claude, {"mcp", "remove", "caveman", "-s", scope});
    if (r.code != 0) {
      *ctx.err << "caveman tools mcp uninstall: `claude mcp remove` failed (exit " << r.code
               << "): " << r.text << "\n";
      return 1;
    }
  }
  if (Status s = remove_marker(home, "claude"); !s.ok()) {
    *ctx.err << "caveman tools mcp uninstall: " << s.ToString() << "\n";
    return 1;
  }
  *ctx.out << "caveman-mcp removed from Claude Code (" << scope << " scope)\n";
  return 0;
}

}  // namespace

int cmd_mcp(Context& ctx, const Args& args) {
  CLI::App app{"Register caveman-mcp with Claude Code (or print the config for other hosts).",
               "tools mcp"};
  std::string action;
  std::string agent = "claude";
  std::string scope;
  bool print = false;
  app.add_option("action", action, "install | uninstall")
      ->required()
      ->check(CLI::IsMember({"install", "uninstall"}));
  app.add_option("agent", agent, "claude (other agents: use --print)");
  app.add_option("--scope", scope, "Claude Code config scope (default user)")
      ->check(CLI::IsMember({"user", "project", "local"}));
  app.add_flag("--print", print, "print the JSON/TOML snippet for other MCP hosts instead");
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;

  if (print) {
    BinaryLocation mcp = ctx.locate("caveman-mcp");
    print_snippets(*ctx.out, mcp.found() ? mcp.path : std::string("caveman-mcp"));
    if (!mcp.found()) *ctx.err << "caveman: warning: caveman-mcp not found; snippet uses the bare name\n";
    return 0;
  }
  const AgentProfile* profile = find_profile(agent);
  if (profile == nullptr || profile->id != "claude") {
    *ctx.err << "caveman tools mcp " << action << ": automatic registration supports claude; for \""
             << agent << "\" use `caveman tools mcp install --print` and add the snippet to its "
             << "config\n";
    return 2;
  }
  std::string home = caveman_home(ctx.env);
  if (home.empty()) {
    *ctx.err << "caveman tools mcp: cave_no_home: neither CAVEMAN_HOME nor HOME is set\n";
    return 1;
  }
  auto claude = find_on_path(profile->binary, ctx.env.get("PATH").value_or(""));
  if (!claude) {
    *ctx.err << "caveman tools mcp: " << profile->name << " (`" << profile->binary
             << "`) is not on PATH; install it with: " << profile->install_hint << "\n";
    return 127;
  }
  if (action == "install") return install(ctx, *claude, scope.empty() ? "user" : scope, home);
  return uninstall(ctx, *claude, scope, home);
}

}  // namespace caveman::cli
