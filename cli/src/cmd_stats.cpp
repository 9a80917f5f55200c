// `caveman stats [--json|--csv] [--since DURATION]` (issue 9): savings by content type (ccr.db)
// and by agent / provider (caveman.db), read directly from the stores so it works with the
// proxy stopped.
#include <spdlog/spdlog.h>

#include <ctime>
#include <ostream>

#include "caveman/ccr.h"
#include "context.h"
#include "flags.h"
#include "proxy_address.h"
#include "stats_report.h"

namespace caveman::cli {

int cmd_stats(Context& ctx, const Args& args) {
  CLI::App app{"What Caveman did: savings by content type, agent and provider (inferred).", "stats"};
  bool json = false;
  bool csv = false;
  std::string since;
  auto* j = app.add_flag("--json", json, "one JSON object");
  app.add_flag("--csv", csv, "CSV rows")->excludes(j);
  app.add_option("--since", since, "only the last DURATION (90s, 15m, 24h, 7d)");
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;
  std::int64_t since_epoch = -1;
  if (!since.empty()) {
    auto d = parse_duration(since);
    if (!d.ok()) {
      ctx.log->error("caveman stats: {}", d.status().ToString());
      return kExitUsage;
    }
    since_epoch = static_cast<std::int64_t>(std::time(nullptr)) - *d;
  }
  auto address = resolve_proxy(ctx.env);
  if (!address.ok()) {
    ctx.log->error("caveman stats: {}", address.status().ToString());
    return kExitError;
  }
  std::string ccr_db = ctx.env.get("CAVEMAN_CCR_DB").value_or(address->home + "/ccr.db");
  auto report = build_stats(address->db_path, ccr_db, since_epoch);
  if (!report.ok()) {
    ctx.log->error("caveman stats: {}", report.status().ToString());
    return kExitError;
  }
  *ctx.out << (json ? report->to_json() : csv ? report->to_csv() : report->to_table());
  return kExitOk;
}

}  // namespace caveman::cli
