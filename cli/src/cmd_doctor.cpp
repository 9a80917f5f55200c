// `caveman doctor <agent>`: what Caveman installed for one agent, what is broken and what to
// run. `caveman doctor` with no agent (or only flags) is `caveman status`.
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <ostream>

#include "agent_enable.h"
#include "context.h"
#include "enable_state.h"
#include "hooks_gemini.h"
#include "mcp_marker.h"
#include "profiles.h"
#include "proxy_address.h"
#include "stats_report.h"

namespace caveman::cli {
namespace {

struct Findings {
  std::vector<std::string> lines;
  std::vector<std::string> fixes;  // what to run, in order
  bool broken = false;
  void ok(const std::string& s) { lines.push_back("  ok      " + s); }
  void note(const std::string& s) { lines.push_back("  note    " + s); }
  void bad(const std::string& s, const std::string& fix) {
    lines.push_back("  broken  " + s);
    broken = true;
    if (!fix.empty() && std::find(fixes.begin(), fixes.end(), fix) == fixes.end()) {
      fixes.push_back(fix);
    }
  }
};

void check_binary(Context& ctx, const AgentProfile& p, Findings* f) {
  auto path = find_on_path(p.binary, ctx.env.get("PATH").value_or(""));
  if (path) f->ok(p.binary + " at " + *path);
  else f->bad(p.binary + " is not on PATH", p.install_hint);
}

void check_enable(const std::string& home, const std::string& agent, Findings* f) {
  auto marker = read_enable_marker(home, agent);
  if (!marker) {
    f->note("not enabled (caveman " + agent + " wraps it per session; persistent: caveman enable " +
            agent + ")");
    return;
  }
  f->ok("enabled → " + marker->base_url + (marker->hooks ? ", native hooks" : ""));
  // The agent runs this binary to start the proxy; gone → the agent cannot start one.
  if (!marker->caveman.empty() && !is_executable_file(marker->caveman)) {
    f->bad("the proxy starter " + marker->caveman + " no longer exists", "caveman enable " + agent);
  }
  for (const auto& file : marker->files) {
    auto text = read_file_bytes(file.journal.path);
    for (const auto& e : file.entries) {
      std::string what = file.journal.path + ": " + (e.table.empty() ? "" : e.table + ".") + e.name;
      auto has = text ? has_entry(*text, e) : Result<bool>(false);
      if (has.ok() && *has) f->ok(what);
      else f->bad(what + " is gone", "caveman enable " + agent);
    }
  }
}

// `caveman wrap gemini` hands Gemini its hooks in a system defaults file under the state root,
// which Gemini skips unless root owns it and every directory above it (hooks_gemini.h). The
// hooks `caveman enable gemini` put in ~/.gemini/settings.json are not subject to that rule.
void check_gemini_session_hooks(Context& ctx, const std::string& home, Findings* f) {
  if (!native_hooks_enabled(ctx.env)) return;
  const std::string path = gemini_session_defaults_path(ctx.env, "caveman-wrap-<session>");
  Status s = check_gemini_session_defaults(path, ::geteuid());
  auto marker = read_enable_marker(home, "gemini");
  if (s.ok()) {
    f->ok("caveman wrap gemini: Gemini CLI loads the session hooks from " + path);
  } else if (marker && marker->hooks) {
    f->note("caveman wrap gemini: " + s.message() + " (the enabled hooks still run)");
  } else {
    f->bad("caveman wrap gemini: " + s.message(), "caveman enable gemini");
  }
}

void check_mcp(const std::string& home, const std::string& agent, Findings* f) {
  auto marker = read_marker(home, agent);
  if (!marker) {
    f->note("caveman-mcp not registered (caveman tools mcp install " + agent + ")");
  } else if (!is_executable_file(marker->command)) {
    f->bad("caveman-mcp registered as " + marker->command + ", which no longer exists",
           "caveman tools mcp install " + agent);
  } else {
    f->ok("caveman-mcp registered: " + marker->command);
  }
}

void check_proxy(const ProxyAddress& address, Findings* f) {
  Listener l = inspect_listener(address);
  if (l.kind == ListenerKind::kCaveman) f->ok("proxy running on " + address.listen());
  else if (l.kind == ListenerKind::kFree) f->note("proxy not running on " + address.listen() + " (an enabled agent starts it)");
  else f->bad(address.listen() + " is held by a process that is not Caveman", "caveman status");
}

void check_usage(Context& ctx, const ProxyAddress& address, const std::string& agent, Findings* f) {
  std::string ccr = ctx.env.get("CAVEMAN_CCR_DB").value_or(address.home + "/ccr.db");
  auto report = build_stats(address.db_path, ccr, static_cast<std::int64_t>(std::time(nullptr)) - 86400);
  std::int64_t n = 0;
  if (report.ok() && report->by_agent.count(agent)) n = report->by_agent.at(agent).requests;
  if (n > 0) f->ok(std::to_string(n) + " request(s) through Caveman in the last 24h");
  else f->note("no request through Caveman in the last 24h (caveman verify --agent " + agent + ")");
}

}  // namespace

int cmd_doctor(Context& ctx, const Args& args) {
  if (args.empty() || args[0].rfind("-", 0) == 0) return cmd_status(ctx, args);
  const AgentProfile* p = find_profile(args[0]);
  if (p == nullptr || args.size() > 1) {
    *ctx.err << "usage: caveman doctor [<agent>]   (agents: claude codex gemini opencode …)\n";
    return kExitUsage;
  }
  auto address = resolve_proxy(ctx.env);
  if (!address.ok()) {
    ctx.log->error("caveman doctor: {}", address.status().ToString());
    return kExitError;
  }
  Findings f;
  check_binary(ctx, *p, &f);
  if (find_integration(p->id)) check_enable(address->home, p->id, &f);
  if (p->id == "gemini") check_gemini_session_hooks(ctx, address->home, &f);
  if (p->mcp != McpDelivery::kNone) check_mcp(address->home, p->id, &f);
  check_proxy(*address, &f);
  check_usage(ctx, *address, p->id, &f);
  *ctx.out << "caveman doctor " << p->id << " (" << p->name << ")\n";
  for (const auto& l : f.lines) *ctx.out << l << "\n";
  for (const auto& fix : f.fixes) *ctx.out << "  run:    " << fix << "\n";
  if (!f.broken) *ctx.out << "  nothing broken\n";
  return f.broken ? kExitError : kExitOk;
}

}  // namespace caveman::cli
