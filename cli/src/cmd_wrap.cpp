// `caveman wrap [--off|--mode M] [--strict] [--] <agent> [args…]` and the shortcut
// `caveman <agent> …` (docs/cli.md#wrap, narrowed by issue 9): launch an agent pointed at a
// matching proxy, with caveman-mcp recovery wired when it really reaches the agent.
//
// Proxy reuse: a live Caveman proxy on the port is used as it is (a mode or recovery mismatch
// is reported, never "fixed" by killing a proxy another session may use); a free port gets a
// detached proxy (owner wrap, left running afterwards); a foreign process is never trusted:
// the agent is launched directly (no Caveman) or, with --strict, wrap exits 1.
//
// Claude Code, Codex and Gemini CLI also get Caveman's native hooks for the session only
// (native_hooks.h, hooks_codex.h, hooks_gemini.h), unless --no-hooks or CAVEMAN_WRAP_HOOKS=0;
// a failure there is a warning, never a failed launch.
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <ostream>
#include <thread>

#include "caveman/version.h"
#include "config.h"
#include "context.h"
#include "enable_state.h"
#include "flags.h"
#include "mcp_marker.h"
#include "native_hooks.h"
#include "proxy_address.h"
#include "start_support.h"
#include "stats_report.h"
#include "wrap_session.h"

namespace caveman::cli {
namespace {

constexpr const char* kWrapFooter =
    "--mode: record, compress (default), pixel, recommend, shadow, canary or active (compression\n"
    "+ the cost optimizers, e.g. cache breakpoints; docs/proxy.md, Cost modes).\n"
    "agents: claude, codex, gemini, aider, opencode, qwen; any other command is wrapped generically\n"
    "(persistent instead of per session: caveman enable claude|codex|gemini|opencode|qwen)\n";

struct WrapFlags {
  std::string mode;  // "" = default
  bool off = false;
  bool strict = false;
  bool no_hooks = false;
  Args agent_and_args;  // the agent, then its own arguments
};

// Wrap flags come before the agent; everything after the agent is the agent's.
std::optional<int> parse_wrap_flags(const Args& args, WrapFlags* f, Context& ctx) {
  CLI::App app{"Launch an agent through the proxy: caveman wrap [flags] [--] <agent> [args…]",
               "wrap"};
  app.prefix_command();
  app.footer(kWrapFooter);
  app.add_flag("--off", f->off, "Record mode (byte-exact pass-through, nothing compressed)");
  app.add_option("--mode", f->mode, "The proxy mode")
      ->check(CLI::Validator(
          [](std::string& m) -> std::string {
            return proxy::normalize_mode(m) == m ? "" : "must be one of record, compress, pixel, "
                                                        "recommend, shadow, canary, active";
          },
          "MODE"));
  app.add_flag("--strict", f->strict,
               "Exit 1 instead of launching directly when the port is held by a foreign process");
  app.add_flag("--no-hooks", f->no_hooks,
               "Do not give the agent Caveman's native hooks (also CAVEMAN_WRAP_HOOKS=0)");
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return rc;
  // A prefix command passes unknown flags on; before the agent (and without `--`) they are
  // ours, and wrong.
  Args& rest = f->agent_and_args;
  rest = app.remaining();
  const bool marked = !rest.empty() && rest[0] == "--";
  if (marked) rest.erase(rest.begin());
  if (rest.empty()) return base::usage_error("caveman wrap", "wrap needs an agent", *ctx.err);
  if (!marked && rest[0].starts_with("-")) {
    return base::usage_error("caveman wrap", "unknown flag " + rest[0], *ctx.err);
  }
  if (f->off) f->mode = "record";
  return std::nullopt;
}

// The environment for a direct launch: the caller's, minus base URLs that point at a gateway
// we are not using.
Environment direct_environment(const Environment& env, const std::string& gateway) {
  Environment out = env;
  for (const char* name : {"ANTHROPIC_BASE_URL", "OPENAI_BASE_URL", "OPENAI_API_BASE",
                           "GOOGLE_GEMINI_BASE_URL"}) {
    auto v = out.get(name);
    if (v && v->rfind(gateway, 0) == 0) out.unset(name);
  }
  return out;
}

void print_session_summary(Context& ctx, const ProxyAddress& address, const std::string& slug,
                           std::int64_t since) {
  std::string ccr_db = ctx.env.get("CAVEMAN_CCR_DB").value_or(address.home + "/ccr.db");
  Bucket b;
  // Usage rows are written by the proxy's background writer just after each response.
  for (int attempt = 0; attempt < 10; ++attempt) {
    auto report = build_stats(address.db_path, ccr_db, since);
    if (report.ok()) {
      auto it = report->by_agent.find(slug);
      if (it != report->by_agent.end()) b = it->second;
    }
    if (b.requests > 0) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  double pct = b.tokens_before > 0 ? 100.0 * static_cast<double>(b.tokens_before - b.tokens_after) /
                                         static_cast<double>(b.tokens_before)
                                   : 0.0;
  ctx.log->info(
      "caveman: session {}: {} request(s), input tokens {} → {} ({:.1f}% saved, inferred); proxy "
      "left running on {}",
      slug, b.requests, b.tokens_before, b.tokens_after, pct, address.listen());
}

}  // namespace

int cmd_wrap(Context& ctx, const Args& args) {
  WrapFlags flags;
  if (auto rc = parse_wrap_flags(args, &flags, ctx)) return *rc;
  const std::string agent = flags.agent_and_args[0];
  Args user_args(flags.agent_and_args.begin() + 1, flags.agent_and_args.end());

  const AgentProfile* profile = find_profile(agent);
  if (profile == nullptr) {
    ctx.log->warn(
        "caveman wrap: warning: no profile for \"{}\"; wrapping it generically (base-URL "
        "variables only, no MCP recovery)",
        agent);
    profile = &generic_profile();
  }
  std::string binary = profile->id == "generic" ? agent : profile->binary;
  std::optional<std::string> agent_path;
  if (auto forced = ctx.env.get("CAVEMAN_AGENT_BIN"); forced && is_executable_file(*forced)) {
    agent_path = *forced;
  } else {
    agent_path = find_on_path(binary, ctx.env.get("PATH").value_or(""));
  }
  if (!agent_path) {
    ctx.log->error(
        "caveman wrap: {} is not installed (not on PATH){}", binary,
        profile->install_hint.empty() ? "" : "; install it with: " + profile->install_hint);
    return kExitNotFound;
  }

  auto resolved = resolve_proxy(ctx.env);
  if (!resolved.ok()) {
    ctx.log->error("caveman wrap: {}", resolved.status().ToString());
    return kExitError;
  }
  const ProxyAddress address = *resolved;
  std::string mode = flags.mode.empty() ? wrap_mode(ctx) : flags.mode;

  auto session = WrapSession::create(ctx.env);
  if (!session.ok()) {
    ctx.log->error("caveman wrap: {}", session.status().ToString());
    return kExitError;
  }
  WrapLaunch launch;
  launch.profile = profile;
  launch.session_dir = session->dir();
  std::string slug = profile->id == "generic" ? "unlabeled-agent" : profile->id;
  launch.base_url = address.base_url() + (profile->id == "generic" ? "" : "/w/" + profile->id);
  launch.proxy_path = ctx.locate("caveman-proxy").path;
  launch.native_hooks = !flags.no_hooks && native_hooks_enabled(ctx.env);
  // `caveman enable` put the hooks in the agent's settings already: a second copy from the
  // session plugin would run every hook twice.
  if (auto enabled = read_enable_marker(address.home, profile->id); enabled && enabled->hooks) {
    launch.native_hooks = false;
  }

  // Recovery is claimed only when caveman-mcp really reaches this agent for this session.
  if (mode != "record" && profile->mcp != McpDelivery::kNone) {
    BinaryLocation mcp = ctx.locate("caveman-mcp");
    BinaryProbe probe = probe_binary(*find_binary_spec("caveman-mcp"), mcp, ctx.env);
    if (profile->mcp == McpDelivery::kClaudeMcpConfig && probe.ok) {
      auto file = session->write_mcp_config(mcp.path, probe.has_capability("tool_selection"));
      if (file.ok()) {
        // `--mcp-config` is variadic in Claude Code: with a separate value it would also
        // swallow a positional prompt after it (`caveman wrap claude "fix the bug"`).
        launch.pre_args = {"--mcp-config=" + *file};
        launch.recovery_via_mcp = true;
      }
    }
    if (!launch.recovery_via_mcp) {
      auto marker = read_marker(address.home, profile->id);
      launch.recovery_via_mcp = marker && is_executable_file(marker->command);
    }
    if (!launch.recovery_via_mcp) {
      ctx.log->info(
          "caveman wrap: note: caveman-mcp is not available to {} ({}); streaming requests pass "
          "through uncompressed",
          profile->name, probe.ok ? "no install marker" : probe.error);
    }
  }

  bool direct = false;
  Listener listener = inspect_listener(address);
  if (listener.kind == ListenerKind::kForeign) {
    ctx.log->log(flags.strict ? spdlog::level::err : spdlog::level::warn, "caveman wrap: {}.",
                 describe_busy_port(address, listener));
    if (flags.strict) return kExitError;
    ctx.log->warn("caveman wrap: launching {} directly, without Caveman", binary);
    direct = true;
  } else if (listener.kind == ListenerKind::kCaveman) {
    const auto& s = *listener.state;
    if (s.mode != mode || s.recovery_via_mcp != launch.recovery_via_mcp) {
      ctx.log->info(
          "caveman wrap: note: the proxy on {} runs mode {}{} MCP recovery (this session wanted "
          "{}{}); using it as it is",
          address.listen(), s.mode, s.recovery_via_mcp ? " with" : " without", mode,
          launch.recovery_via_mcp ? " with" : " without");
    }
  } else if (!start_background_proxy(ctx, address, mode, launch.recovery_via_mcp, "caveman wrap")) {
    ctx.log->warn("caveman wrap: launching {} directly, without Caveman", binary);
    direct = true;
  }

  // The agent's lease (`/w/<agent>/@<pid>`): this process waits for the agent, so the proxy
  // knows the agent is alive while it is (cache keepalive, docs/proxy.md). Only for a proxy
  // of this version: an older one would not route the lease.
  bool lease_known = listener.kind != ListenerKind::kCaveman || listener.state->version == kVersion;
  if (!direct && profile->id != "generic" && lease_known) {
    launch.base_url += "/@" + std::to_string(::getpid());
  }
  if (direct) {
    launch.env = direct_environment(ctx.env, address.base_url());
    launch.pre_args.clear();
  } else {
    launch.env = wrap_environment(ctx.env, *profile, launch.base_url);
    for (auto& extension : wrap_extensions()) {
      if (Status s = extension(&launch); !s.ok()) {
        ctx.log->warn("caveman wrap: warning: {}", s.ToString());
      }
    }
  }
  Args argv{*agent_path};
  if (!direct) {
    for (auto& a : wrap_args(*profile, launch.base_url)) argv.push_back(a);
  }
  argv.insert(argv.end(), launch.pre_args.begin(), launch.pre_args.end());
  argv.insert(argv.end(), user_args.begin(), user_args.end());

  std::int64_t started = static_cast<std::int64_t>(std::time(nullptr)) - 1;
  if (!direct) {
    ctx.log->info("caveman: {} → {} (mode {}, recovery {}{})", profile->name, launch.base_url, mode,
                  launch.recovery_via_mcp ? "caveman-mcp" : "none",
                  launch.hooks_installed ? ", native hooks" : "");
  }
  ctx.out->flush();
  auto rc = run_foreground(argv, launch.env);
  for (const std::string& dir : launch.owned_dirs) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  if (!rc.ok()) {
    ctx.log->error("caveman wrap: {}", rc.status().ToString());
    return rc.status().code() == Code::kNotFound ? kExitNotFound : kExitError;
  }
  if (!direct) print_session_summary(ctx, address, slug, started);
  return *rc;
}

}  // namespace caveman::cli
