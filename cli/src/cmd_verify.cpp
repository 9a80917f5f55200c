// `caveman verify [--agent A] [--since 15m] [--wait SECONDS]`: proof that an agent really goes
// through Caveman — a usage row the proxy wrote to caveman.db for that agent (any agent when
// none is given) inside the window. --wait polls, so a user can run it, then prompt the agent.
#include <spdlog/spdlog.h>

#include <chrono>
#include <ctime>
#include <ostream>
#include <thread>

#include "context.h"
#include "flags.h"
#include "proxy_address.h"
#include "stats_report.h"

namespace caveman::cli {
namespace {

// Requests from `agent` ("" = all) in the report.
std::int64_t requests_of(const StatsReport& report, const std::string& agent) {
  if (agent.empty()) return report.requests;
  auto it = report.by_agent.find(agent);
  return it == report.by_agent.end() ? 0 : it->second.requests;
}

}  // namespace

int cmd_verify(Context& ctx, const Args& args) {
  CLI::App app{"Check that an agent's requests reach Caveman: a fresh usage row in caveman.db.",
               "verify"};
  std::string agent;
  std::string since = "15m";
  int wait_s = 0;
  app.add_option("--agent", agent, "the agent (claude, codex, gemini, opencode, …); default any");
  app.add_option("--since", since, "window: 90s, 15m, 24h, 7d (default 15m)");
  app.add_option("--wait", wait_s, "keep looking for up to this many seconds")
      ->check(CLI::Range(0, 3600));
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;
  auto window = parse_duration(since);
  auto address = resolve_proxy(ctx.env);
  if (!window.ok() || !address.ok()) {
    ctx.log->error("caveman verify: {}",
                   (window.ok() ? address.status() : window.status()).ToString());
    return window.ok() ? kExitError : kExitUsage;
  }
  std::string ccr_db = ctx.env.get("CAVEMAN_CCR_DB").value_or(address->home + "/ccr.db");
  std::int64_t from = static_cast<std::int64_t>(std::time(nullptr)) - *window;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(wait_s);
  std::string who = agent.empty() ? "any agent" : agent;
  while (true) {
    auto report = build_stats(address->db_path, ccr_db, from);
    if (!report.ok()) {
      ctx.log->error("caveman verify: {}", report.status().ToString());
      return kExitError;
    }
    if (std::int64_t n = requests_of(*report, agent); n > 0) {
      *ctx.out << "ok: " << n << " request(s) from " << who << " through Caveman since "
               << report->since << " (" << address->db_path << ")\n";
      return kExitOk;
    }
    if (std::chrono::steady_clock::now() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
  *ctx.out << "not yet: no request from " << who << " in the last " << since << " ("
           << address->db_path << ").\n  run a prompt in the agent"
           << (agent.empty() ? "" : " (caveman " + agent + " …, or " + agent +
                                        " itself after caveman enable " + agent + ")")
           << ", then caveman verify" << (agent.empty() ? "" : " --agent " + agent)
           << "; what is installed: caveman doctor" << (agent.empty() ? "" : " " + agent) << "\n";
  return kExitError;
}

}  // namespace caveman::cli
