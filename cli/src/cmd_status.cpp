// `caveman status [--json]` (alias `doctor`): binaries, proxy, stores, the Claude Code MCP
// registration and whether `caveman wrap claude` installs the native hooks, said plainly. Exit 1 when something required is broken: a required binary
// missing or stale, caveman.yaml unusable, a store with unsafe permissions, or the proxy port
// held by a foreign process. A proxy that is simply not running is reported, not an error
// (`caveman wrap` starts one on demand).
#include <sys/stat.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <ostream>

#include "caveman/ccr.h"
#include "agent_enable.h"
#include "context.h"
#include "enable_state.h"
#include "flags.h"
#include "mcp_marker.h"
#include "native_hooks.h"
#include "proxy_address.h"
#include "start_support.h"

namespace caveman::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string octal_mode(mode_t m) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(m & 07777));
  return buf;
}

// {path, exists, size_bytes, mode, permissions_ok}; a database readable by others is unsafe.
Json store_json(const std::string& path, bool* ok) {
  Json j;
  j["path"] = path;
  struct stat st {};
  bool exists = ::lstat(path.c_str(), &st) == 0;
  j["exists"] = exists;
  if (exists) {
    bool safe = S_ISREG(st.st_mode) && (st.st_mode & 077) == 0;
    j["size_bytes"] = static_cast<std::int64_t>(st.st_size);
    j["mode"] = octal_mode(st.st_mode);
    j["permissions_ok"] = safe;
    if (!safe) *ok = false;
  }
  return j;
}

}  // namespace

int cmd_status(Context& ctx, const Args& args) {
  CLI::App app{"What works and what does not: binaries, proxy, stores, MCP registration.", "status"};
  bool as_json = false;
  app.add_flag("--json", as_json, "one JSON object (schema caveman.cli.status.v1)");
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;

  bool ok = true;
  std::vector<std::string> problems;
  std::vector<std::string> notes;
  Json doc;
  doc["schema"] = "caveman.cli.status.v1";

  Json bins = Json::array();
  bool proxy_bridges_hooks = false;  // caveman-proxy answers and can print the hooks document
  for (const auto& spec : binary_specs()) {
    BinaryLocation loc = locate_binary(spec, ctx.env, ctx.self_dir);
    BinaryProbe probe = probe_binary(spec, loc, ctx.env);
    if (spec.name == "caveman-proxy" && probe.ok) {
      proxy_bridges_hooks = probe.has_capability("native_hook_bridge_v1");
    }
    Json b;
    b["name"] = spec.name;
    b["required"] = spec.required;
    b["found"] = loc.found();
    b["path"] = loc.path;
    b["source"] = loc.source;
    b["ok"] = probe.ok;
    b["version"] = probe.version;
    if (!probe.ok) {
      b["error"] = probe.error;
      std::string what = std::string(spec.name) + ": " + probe.error + " (disables " +
                         std::string(spec.powers) + ")";
      if (spec.required) {
        ok = false;
        problems.push_back(what);
      } else {
        notes.push_back(what);
      }
    }
    bins.push_back(b);
  }
  doc["binaries"] = bins;

  std::string home = caveman_home(ctx.env);
  Json proxy;
  auto address = resolve_proxy(ctx.env);
  if (!address.ok()) {
    ok = false;
    problems.push_back("caveman.yaml: " + address.status().ToString());
    proxy["config_error"] = address.status().ToString();
    proxy["listening"] = false;
  } else {
    home = address->home;
    proxy["address"] = address->listen();
    proxy["config_path"] = address->config_path;
    Listener l = inspect_listener(*address);
    proxy["listening"] = l.kind != ListenerKind::kFree;
    proxy["owner"] = l.kind == ListenerKind::kCaveman ? "caveman"
                     : l.kind == ListenerKind::kForeign ? "foreign" : "none";
    if (l.kind == ListenerKind::kCaveman) {
      proxy["pid"] = l.state->pid;
      proxy["started_by"] = l.state->owner;
      proxy["mode"] = l.state->mode;
      proxy["recovery_via_mcp"] = l.state->recovery_via_mcp;
      proxy["version"] = l.state->version;
      proxy["healthy"] = l.healthy;
      if (!l.healthy) {
        ok = false;
        problems.push_back("proxy on " + address->listen() + " is not ready (/health/ready)");
      }
    } else if (l.kind == ListenerKind::kForeign) {
      ok = false;
      proxy["healthy"] = false;
      problems.push_back(describe_busy_port(*address, l));
    } else {
      proxy["healthy"] = false;
      proxy["mode"] = address->mode;  // what `caveman start` would run
      notes.push_back("proxy not running on " + address->listen() +
                      " (caveman start, or caveman wrap <agent> starts one)");
    }
  }
  doc["proxy"] = proxy;

  std::string ccr_path = ctx.env.get("CAVEMAN_CCR_DB").value_or(home + "/ccr.db");
  Json ccr = store_json(ccr_path, &ok);
  std::int64_t budget = ccr::kDefaultMaxBytes;
  if (auto v = ctx.env.get("CAVEMAN_CCR_MAX_BYTES")) {
    try {
      budget = std::stoll(*v);
    } catch (const std::exception&) {
      ok = false;
      problems.push_back("CAVEMAN_CCR_MAX_BYTES is not an integer");
    }
  }
  ccr["budget_bytes"] = budget;
  doc["ccr_db"] = ccr;
  std::string db_path = address.ok() ? address->db_path : home + "/caveman.db";
  doc["caveman_db"] = store_json(db_path, &ok);
  if (doc["ccr_db"].value("permissions_ok", true) == false ||
      doc["caveman_db"].value("permissions_ok", true) == false) {
    problems.push_back("a database is readable by other users (want 0600)");
  }

  Json mcp;
  auto marker = read_marker(home, "claude");
  mcp["installed"] = marker.has_value();
  mcp["marker"] = marker_path(home, "claude");
  if (marker) {
    mcp["scope"] = marker->scope;
    mcp["command"] = marker->command;
    bool runnable = is_executable_file(marker->command);
    mcp["command_ok"] = runnable;
    if (!runnable) {
      ok = false;
      problems.push_back("Claude Code is registered to run " + marker->command +
                         ", which is missing (run caveman tools mcp install claude again)");
    }
  } else {
    notes.push_back("caveman-mcp not registered with Claude Code (caveman tools mcp install claude)");
  }
  doc["claude_mcp"] = mcp;

  // Whether `caveman wrap claude` will give the session Caveman's native hooks.
  Json hooks;
  hooks["enabled"] = native_hooks_enabled(ctx.env);
  hooks["available"] = proxy_bridges_hooks;
  hooks["install"] = "temporary --plugin-dir per caveman wrap claude session";
  std::string hooks_line;
  if (!hooks["enabled"].get<bool>()) {
    hooks_line = "off (CAVEMAN_WRAP_HOOKS=" + ctx.env.get("CAVEMAN_WRAP_HOOKS").value_or("") + ")";
  } else if (!proxy_bridges_hooks) {
    hooks_line = "not installed: caveman-proxy is missing or has no native-hook bridge";
    notes.push_back("caveman wrap claude runs without native hooks (caveman-proxy is missing or "
                    "too old)");
  } else {
    hooks_line = "installed by caveman wrap claude for each session (a temporary plugin; "
                 "--no-hooks or CAVEMAN_WRAP_HOOKS=0 to skip)";
  }
  doc["claude_hooks"] = hooks;
  // Agents `caveman enable` set up (their details: caveman doctor <agent>).
  Json enabled = Json::array();
  for (const auto& a : agent_integrations()) {
    if (auto m = read_enable_marker(home, a.id)) {
      enabled.push_back({{"agent", a.id}, {"base_url", m->base_url}, {"hooks", m->hooks}});
    }
  }
  doc["enabled"] = enabled;
  doc["ok"] = ok;
  doc["problems"] = problems;
  doc["notes"] = notes;

  if (as_json) {
    *ctx.out << doc.dump(2) << "\n";
    return ok ? kExitOk : kExitError;
  }
  std::ostream& out = *ctx.out;
  out << "binaries:\n";
  for (const auto& b : doc["binaries"]) {
    std::string name = b["name"].get<std::string>();
    name.resize(16, ' ');
    out << "  " << (b["ok"].get<bool>() ? "ok     " : "MISSING") << " " << name
        << (b["found"].get<bool>() ? b["path"].get<std::string>() : "-") << "  "
        << b["version"].get<std::string>() << "\n";
  }
  out << "proxy:   ";
  if (!proxy.contains("address")) {
    out << "config error: " << proxy["config_error"].get<std::string>() << "\n";
  } else if (proxy["owner"] == "caveman") {
    out << "listening on " << proxy["address"].get<std::string>() << " (pid " << proxy["pid"]
        << ", mode " << proxy["mode"].get<std::string>() << ", "
        << (proxy["healthy"].get<bool>() ? "healthy" : "NOT READY") << ")\n";
  } else if (proxy["owner"] == "foreign") {
    out << proxy["address"].get<std::string>() << " held by a foreign process\n";
  } else {
    out << "not running (" << proxy["address"].get<std::string>() << ")\n";
  }
  out << "ccr.db:  " << ccr_path << (doc["ccr_db"]["exists"].get<bool>() ? "" : " (not created yet)")
      << ", budget " << budget << " bytes\n";
  out << "caveman.db: " << db_path
      << (doc["caveman_db"]["exists"].get<bool>() ? "" : " (not created yet)") << "\n";
  out << "claude mcp: "
      << (marker ? "registered (" + marker->scope + " scope) → " + marker->command
                 : std::string("not registered"))
      << "\n";
  out << "claude hooks: " << hooks_line << "\n";
  out << "enabled: ";
  if (enabled.empty()) out << "none (caveman enable <agent>)";
  for (std::size_t i = 0; i < enabled.size(); ++i) {
    out << (i ? ", " : "") << enabled[i]["agent"].get<std::string>() << " → "
        << enabled[i]["base_url"].get<std::string>();
  }
  out << "\n";
  for (const auto& p : problems) out << "problem: " << p << "\n";
  for (const auto& n : notes) out << "note: " << n << "\n";
  out << (ok ? "status: ok\n" : "status: BROKEN\n");
  return ok ? kExitOk : kExitError;
}

}  // namespace caveman::cli
