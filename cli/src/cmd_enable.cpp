// `caveman enable|disable <agent>` (issue 24): a persistent, user-scoped, journaled install of
// the base URL through the proxy, the proxy starter, MCP registration and native hooks
// (agent_enable.h, enable_state.h); `caveman ensure-proxy` (what the installed hooks run);
// and `caveman <agent>` for an enabled agent (make sure the proxy runs, launch it as is).
#include <spdlog/spdlog.h>

#include <ostream>

#include "agent_enable.h"
#include "context.h"
#include "enable_state.h"
#include "flags.h"
#include "mcp_marker.h"
#include "start_support.h"

namespace caveman::cli {
namespace {

std::vector<std::string> integration_ids() {
  std::vector<std::string> ids;
  for (const auto& a : agent_integrations()) ids.push_back(a.id);
  return ids;
}

Result<ProxyAddress> address_or_report(Context& ctx, std::string_view who) {
  auto address = resolve_proxy(ctx.env);
  if (!address.ok()) ctx.log->error("{}: {}", who, address.status().ToString());
  return address;
}

int disable_agent(Context& ctx, const std::string& home, const std::string& agent) {
  auto marker = read_enable_marker(home, agent);
  if (!marker) {
    *ctx.out << agent << " is not enabled (no " << enable_marker_path(home, agent)
             << "); nothing to undo\n";
    return kExitOk;
  }
  int rc = 0;
  if (marker->mcp_by_enable && cmd_mcp(ctx, {"uninstall", agent}) != 0) rc = 1;
  // Hooks with their own journal went in last, so they come out first.
  const AgentIntegration* integration = find_integration(agent);
  if (integration != nullptr && integration->uninstall_own_hooks != nullptr) {
    auto hooks = integration->uninstall_own_hooks(HookTarget{home, ctx.env, ""});
    if (hooks.ok()) {
      if (!hooks->files.empty()) *ctx.out << "  hooks: " << hooks->message << "\n";
    } else {
      ctx.log->error("caveman disable: {}", hooks.status().ToString());
      rc = 1;
    }
  }
  UndoReport report = undo_edits(marker->files);
  for (const auto& line : report.lines) *ctx.out << "  " << line << "\n";
  if (!report.status.ok()) {
    ctx.log->error(
        "caveman disable: {} — caveman's entries were edited by hand; remove them yourself",
        report.status.ToString());
    rc = 1;
  }
  if (Status s = remove_enable_marker(home, agent); !s.ok()) {
    ctx.log->error("caveman disable: {}", s.ToString());
    return kExitError;
  }
  if (rc == 0) *ctx.out << agent << " disabled\n";
  return rc;
}

// Registers caveman-mcp unless a registration exists already (then it stays the user's).
bool register_mcp(Context& ctx, const std::string& home, const std::string& agent) {
  if (read_marker(home, agent)) {
    *ctx.out << "  MCP: caveman already registered with " << agent << " (kept as it is)\n";
    return false;
  }
  if (cmd_mcp(ctx, {"install", agent}) == 0) return true;
  ctx.log->warn(
      "caveman enable: warning: MCP registration failed; {} runs without caveman_retrieve (retry: "
      "caveman tools mcp install {})",
      agent, agent);
  return false;
}

// Hooks with their own journal (Codex, Gemini CLI); a failure leaves the agent enabled
// without them.
bool install_own_hooks(Context& ctx, const AgentIntegration& agent, const EnableInputs& in) {
  if (agent.install_own_hooks == nullptr) return false;
  auto report = agent.install_own_hooks(HookTarget{in.home, ctx.env, in.proxy_path});
  if (!report.ok()) {
    ctx.log->warn("caveman enable: warning: native hooks left out: {}", report.status().ToString());
    return false;
  }
  *ctx.out << "  hooks: " << report->message << "\n";
  return true;
}

}  // namespace

int cmd_enable(Context& ctx, const Args& args) {
  CLI::App app{"Route an agent through Caveman in every session (user config, journaled; "
               "undo with caveman disable <agent>).", "enable"};
  std::string agent;
  bool no_mcp = false;
  bool no_hooks = false;
  app.add_option("agent", agent, "claude, codex, gemini, opencode or qwen")
      ->required()
      ->check(CLI::IsMember(integration_ids()));
  app.add_flag("--no-mcp", no_mcp, "do not register caveman-mcp");
  app.add_flag("--no-hooks", no_hooks, "do not install native hooks");
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;
  auto address = address_or_report(ctx, "caveman enable");
  if (!address.ok()) return kExitError;
  const std::string& home = address->home;
  if (read_enable_marker(home, agent)) {
    *ctx.out << agent << " is already enabled; enabling it again\n";
    if (int rc = disable_agent(ctx, home, agent); rc != 0) return rc;
  }
  EnableInputs in{ctx.env, self_executable(), address->base_url(), address->listen(), home,
                  ctx.locate("caveman-proxy").path};
  auto plan = plan_enable(*find_integration(agent), in, !no_hooks);
  if (!plan.ok()) {
    ctx.log->error("caveman enable: {}", plan.status().ToString());
    return kExitError;
  }
  for (const auto& w : plan->warnings) ctx.log->warn("caveman enable: warning: {}", w);
  auto applied = apply_edits(home, agent, plan->edits);
  if (!applied.ok()) {
    ctx.log->error(
        "caveman enable: {} (nothing changed; an entry caveman did not write is never overwritten)",
        applied.status().ToString());
    return kExitError;
  }
  EnableMarker marker{agent,   in.gateway + "/w/" + agent, in.listen, in.caveman, false,
                      plan->hooks, *applied};
  if (Status s = write_enable_marker(home, marker); !s.ok()) {
    (void)undo_edits(*applied);
    ctx.log->error("caveman enable: {}", s.ToString());
    return kExitError;
  }
  *ctx.out << agent << " enabled: " << find_integration(agent)->how << "\n";
  for (const auto& a : *applied) *ctx.out << "  edited " << a.journal.path << "\n";
  marker.hooks = marker.hooks || (!no_hooks && install_own_hooks(ctx, *find_integration(agent), in));
  marker.mcp_by_enable = !no_mcp && register_mcp(ctx, home, agent);
  if (Status s = write_enable_marker(home, marker); !s.ok()) {
    ctx.log->error("caveman enable: {}", s.ToString());
    return kExitError;
  }
  *ctx.out << "  the proxy starts on demand at " << in.listen << "; check: caveman doctor " << agent
           << "; undo: caveman disable " << agent << "\n";
  return kExitOk;
}

int cmd_disable(Context& ctx, const Args& args) {
  CLI::App app{"Undo caveman enable <agent>: files byte-identical to before when nothing else "
               "changed them, else only caveman's entries removed.", "disable"};
  std::string agent;
  app.add_option("agent", agent, "claude, codex, gemini, opencode or qwen")
      ->required()
      ->check(CLI::IsMember(integration_ids()));
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;
  auto address = address_or_report(ctx, "caveman disable");
  if (!address.ok()) return kExitError;
  return disable_agent(ctx, address->home, agent);
}

int cmd_ensure_proxy(Context& ctx, const Args& args) {
  CLI::App app{"Start the proxy in the background unless it runs (what enabled agents run at "
               "start-up). Prints nothing on stdout but --print-env's value.", "ensure-proxy"};
  std::string listen;
  std::string home;
  std::string print_env;
  app.add_option("--listen", listen, "host:port the proxy serves");
  app.add_option("--home", home, "CAVEMAN_HOME");
  app.add_option("--print-env", print_env, "print this variable afterwards (Codex's auth command)");
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;
  Context local = ctx;
  if (!listen.empty()) local.env.set("CAVEMAN_LISTEN", listen);
  if (!home.empty()) local.env.set("CAVEMAN_HOME", home);
  int rc = 0;
  auto address = address_or_report(local, "caveman ensure-proxy");
  if (!address.ok()) {
    rc = 1;
  } else {
    Listener listener = inspect_listener(*address);
    if (listener.kind == ListenerKind::kForeign) {
      ctx.log->error("caveman ensure-proxy: {}", describe_busy_port(*address, listener));
      rc = 1;
    } else if (listener.kind == ListenerKind::kFree &&
               // No idle exit: an enabled agent's session may sit idle longer than the wrap
               // timeout and has no second start-up to bring the proxy back.
               !start_background_proxy(local, *address, wrap_mode(local),
                                       mcp_install_evidence(address->home), "caveman ensure-proxy",
                                       /*idle_exit=*/false)) {
      rc = 1;
    }
  }
  // The key is printed whatever happened: Codex then fails on the connection, not the auth.
  if (!print_env.empty()) *ctx.out << ctx.env.get(print_env).value_or("") << "\n";
  return rc;
}

bool agent_enabled(const Context& ctx, const std::string& agent) {
  auto address = resolve_proxy(ctx.env);
  return address.ok() && read_enable_marker(address->home, agent).has_value();
}

int run_enabled_agent(Context& ctx, const std::string& agent, const Args& user_args) {
  auto address = address_or_report(ctx, "caveman " + agent);
  if (!address.ok()) return kExitError;
  auto marker = read_enable_marker(address->home, agent);
  Args ensure{"--home", address->home};
  if (marker && !marker->listen.empty()) ensure = {"--listen", marker->listen, "--home", address->home};
  if (cmd_ensure_proxy(ctx, ensure) != 0) {
    ctx.log->warn(
        "caveman {}: the proxy is not running; {} may fail to connect (caveman doctor {})", agent,
        agent, agent);
  }
  auto path = find_on_path(agent, ctx.env.get("PATH").value_or(""));
  if (!path) {
    ctx.log->error("caveman {}: {} is not installed (not on PATH)", agent, agent);
    return kExitNotFound;
  }
  Args argv{*path};
  argv.insert(argv.end(), user_args.begin(), user_args.end());
  ctx.log->info("caveman: {} (enabled) → {}", agent, marker ? marker->base_url : "");
  return run_forwarded(ctx, argv, "caveman " + agent);
}

}  // namespace caveman::cli
