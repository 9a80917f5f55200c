// `caveman start [--port N] [--host H] [--config FILE] [--mode record|compress]`: caveman-proxy
// in the foreground (docs/cli.md#start). Unlike the original, a port that is already taken
// (even by a Caveman proxy) is an error: `start` promises *this* process serves the port.
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <filesystem>
#include <ostream>

#include "caveman/base/codes.h"
#include "caveman/base/net.h"
#include "config.h"
#include "context.h"
#include "flags.h"
#include "proxy_address.h"
#include "start_support.h"

namespace caveman::cli {

namespace {
constexpr int kProxyReadyTimeoutMs = 10000;
}  // namespace

bool mcp_install_evidence(const std::string& home) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(home + "/mcp", ec)) {
    if (entry.path().extension() == ".json") return true;
  }
  return false;
}

std::string describe_busy_port(const ProxyAddress& address, const Listener& listener) {
  if (listener.kind == ListenerKind::kCaveman) {
    const auto& s = *listener.state;
    return "a Caveman proxy is already listening on " + address.listen() + " (pid " +
           std::to_string(s.pid) + ", owner " + s.owner + ", mode " + s.mode + ")";
  }
  return address.listen() +
         " is already in use by another process (not a Caveman proxy: no live run-state in " +
         address.home + "/run/); Caveman will not touch it";
}

std::string wrap_mode(Context& ctx) {
  std::string mode = ctx.env.get("CAVEMAN_WRAP_MODE").value_or("compress");
  if (proxy::normalize_mode(mode) == mode) return mode;
  ctx.log->warn("caveman: warning: CAVEMAN_WRAP_MODE={} is not a proxy mode; using record", mode);
  return "record";
}

bool start_background_proxy(Context& ctx, const ProxyAddress& address, const std::string& mode,
                            bool recovery, std::string_view who, bool idle_exit) {
  BinaryLocation proxy = ctx.locate("caveman-proxy");
  if (!proxy.found()) {
    ctx.log->error("{}: caveman-proxy not found (set CAVEMAN_PROXY_BIN or run caveman install)",
                   who);
    return false;
  }
  Environment env = ctx.env;
  env.set("CAVEMAN_PROXY_OWNER", idle_exit ? "wrap" : "start");
  env.set("CAVEMAN_MODE", mode);
  env.set("CAVEMAN_LISTEN", address.listen());
  if (recovery) {
    env.set("CAVEMAN_RECOVERY", "mcp");
  } else {
    env.unset("CAVEMAN_RECOVERY");
  }
  env.unset("CAVEMAN_WRAP_ENTITLED");
  std::string run_dir = address.home + "/run";
  ::mkdir(run_dir.c_str(), 0700);
  std::string log = run_dir + "/proxy-" + std::to_string(address.port) + ".log";
  auto pid = spawn_detached({proxy.path, "serve"}, env, log);
  if (!pid.ok()) {
    ctx.log->error("{}: {}", who, pid.status().ToString());
    return false;
  }
  if (!wait_until_ready(address, kProxyReadyTimeoutMs)) {
    ctx.log->error("{}: the proxy did not become ready on {} (log: {})", who, address.listen(),
                   log);
    return false;
  }
  ctx.log->info(
      "caveman: started caveman-proxy on {} ({}{}), pid {}; it keeps running after this session",
      address.listen(), mode, recovery ? ", recovery via caveman-mcp" : "", *pid);
  return true;
}

int cmd_start(Context& ctx, const Args& args) {
  CLI::App app{"Run caveman-proxy in the foreground; Ctrl-C or SIGTERM stops it.", "start"};
  int port = 0;
  std::string host;
  std::string config;
  std::string mode;
  app.add_option("--port", port, "TCP port (1-65535)")->check(CLI::Range(1, 65535));
  app.add_option("--host", host, "loopback host (127.0.0.1, ::1, localhost)");
  app.add_option("--config", config, "caveman.yaml to use instead of $CAVEMAN_HOME/caveman.yaml");
  app.add_option("--mode", mode, "record (byte-exact pass-through) or compress")
      ->check(CLI::IsMember({"record", "compress"}));
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;

  Environment env = ctx.env;
  if (!config.empty()) env.set("CAVEMAN_CONFIG", config);
  if (!mode.empty()) env.set("CAVEMAN_MODE", mode);
  auto resolved = resolve_proxy(env);
  if (!resolved.ok()) {
    ctx.log->error("caveman start: {}", resolved.status().ToString());
    return kExitError;
  }
  ProxyAddress address = *resolved;
  if (!host.empty() || port != 0) {
    std::string h = host.empty() ? address.host : host;
    std::string listen = (h.find(':') != std::string::npos && h.front() != '[' ? "[" + h + "]" : h) +
                         ":" + std::to_string(port != 0 ? port : address.port);
    Result<base::ListenAddress> parsed = base::parse_loopback_listen(listen, codes::kInvalidConfig);
    if (!parsed.ok()) {
      ctx.log->error("caveman start: {}", parsed.status().ToString());
      return kExitUsage;
    }
    address.host = parsed->host;
    address.port = parsed->port;
  }
  if (address.port != 0) {
    Listener listener = inspect_listener(address);
    if (listener.kind != ListenerKind::kFree) {
      ctx.log->error("caveman start: {}: {}. Choose another port with --port N.", codes::kPortInUse,
                     describe_busy_port(address, listener));
      return kExitError;
    }
  }
  BinaryLocation proxy = ctx.locate("caveman-proxy");
  if (!proxy.found()) {
    ctx.log->error(
        "caveman start: {}: caveman-proxy not found (checked $CAVEMAN_PROXY_BIN, PATH, "
        "$CAVEMAN_HOME/bin and the caveman binary's directory). Build it with `make build` or "
        "copy it with `caveman install`.",
        codes::kBinaryMissing);
    return kExitError;
  }
  env.set("CAVEMAN_LISTEN", address.listen());
  env.set("CAVEMAN_PROXY_OWNER", "start");
  env.unset("CAVEMAN_WRAP_ENTITLED");
  if (env.get("CAVEMAN_RECOVERY").value_or("") != "mcp") {
    if (mcp_install_evidence(address.home)) {
      env.set("CAVEMAN_RECOVERY", "mcp");
    } else {
      env.unset("CAVEMAN_RECOVERY");
    }
  }
  *ctx.out << "caveman: starting caveman-proxy on " << address.base_url() << " (mode "
           << address.mode << ", state " << address.home << ")\n"
           << "  point an agent at it:  caveman wrap claude   (or ANTHROPIC_BASE_URL="
           << address.base_url() << " / OPENAI_BASE_URL=" << address.base_url() << "/v1)\n"
           << "  stop it with Ctrl-C (SIGTERM)\n";
  ctx.out->flush();
  auto rc = run_foreground({proxy.path, "serve"}, env);
  if (!rc.ok()) {
    ctx.log->error("caveman start: {}", rc.status().ToString());
    return kExitError;
  }
  return *rc;
}

}  // namespace caveman::cli
