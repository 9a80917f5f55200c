#include "proxy_app.h"

#include <pthread.h>
#include <signal.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <memory>
#include <ostream>
#include <thread>

#include "caveman/base/time.h"
#include "caveman/common_flags.h"
#include "caveman/version.h"
#include "config.h"
#include "errors.h"
#include "idle_exit.h"
#include "native/native_cli.h"
#include "native/service.h"
#include "run_state.h"
#include "server.h"
#include "stats.h"
#include "url.h"

namespace caveman::proxy {
namespace {

constexpr const char* kUsage =
    "usage: caveman-proxy [serve]\n"
    "       caveman-proxy status [--port N]\n"
    "       caveman-proxy stats [--recent N]\n"
    "       caveman-proxy native-hook <agent> | native-hook print-settings [--command CMD]\n"
    "       caveman-proxy native-why --decision <id>\n"
    "       caveman-proxy --help | --version | version [--json]\n"
    "\n"
    "Loopback HTTP proxy in front of the Anthropic, OpenAI and Gemini APIs. Point\n"
    "ANTHROPIC_BASE_URL / OPENAI_BASE_URL (…/v1) at it. Record mode (default) forwards every\n"
    "byte unchanged; compress mode shrinks big tool results in the live zone of a request and\n"
    "keeps the originals in ccr.db under <<ccr:HANDLE>> markers.\n"
    "\n"
    "Config: $CAVEMAN_CONFIG or $CAVEMAN_HOME/caveman.yaml (label, mode, listen,\n"
    "providers.<name>.base_url, compat.<name>.{base_url,api_key_env}, compress.min_bytes,\n"
    "upstream.{timeout_ms,connect_timeout_ms}, server.{threads,max_queue}).\n"
    "Env: CAVEMAN_MODE, CAVEMAN_LISTEN, CAVEMAN_LABEL, CAVEMAN_RECOVERY=mcp,\n"
    "CAVE_SSRF_ALLOWLIST, CAVE_MAX_REQUEST_BYTES, CAVE_GATEWAY_UPSTREAM_TIMEOUT_MS,\n"
    "CAVEMAN_NATIVE_IDLE_TIMEOUT (a proxy started by `caveman wrap` exits when idle that long; 30m),\n"
    "HTTPS_PROXY / NO_PROXY (https upstreams through an http:// proxy's CONNECT tunnel),\n"
    "SSL_CERT_FILE / SSL_CERT_DIR (CAs trusted for https upstreams; default: the system's).\n"
    "Exit codes: 0 ok, 1 runtime failure (port taken, store), 2 usage or non-loopback listen.\n"
    "Docs: docs/proxy.md\n";

ToolInfo tool_info() {
  return ToolInfo{"caveman-proxy", kRunStateSchema, kUsage,
                  {"run_state", "usage_rows", "record_byte_exact", "compress_live_zone",
                   "prefix_cache", "server_side_retrieve", "sse_relay", "native_runtime_v1",
                   "native_hook_bridge_v1", "typed_ccr", "decision_ledger_v1"}};
}

void init_logging() {
  auto logger = spdlog::stderr_logger_mt("caveman-proxy");
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%eZ caveman-proxy %l: %v", spdlog::pattern_time_type::utc);
  spdlog::set_default_logger(logger);
  const char* level = std::getenv("CAVEMAN_LOG_LEVEL");
  spdlog::set_level(level != nullptr ? spdlog::level::from_str(level) : spdlog::level::info);
}

int exit_code_for(const Status& s) {
  return s.cave_code() == "cave_listen_not_loopback" ? 2 : 1;
}

// Startup step 6 (docs/spec/proxy.md#startup): the native runtime socket. Never fatal: without
// ccr.db, the session key or the socket the proxy serves HTTP as before.
std::unique_ptr<native::NativeService> start_native_runtime(const Config& config, ProxyRuntime* rt) {
  std::shared_ptr<ccr::Store> store = rt->store;
  if (!store) {
    ccr::OpenOptions options;
    Result<std::string> path = ccr::resolve_store_path(&options);
    Result<std::unique_ptr<ccr::Store>> opened =
        path.ok() ? ccr::open_store(*path, options) : Result<std::unique_ptr<ccr::Store>>(path.status());
    if (!opened.ok()) {
      spdlog::warn("native runtime disabled: {}", opened.status().ToString());
      return nullptr;
    }
    store = std::shared_ptr<ccr::Store>(std::move(opened).value());
  }
  native::ServiceOptions options;
  options.record_mode = config.mode != "compress";
  options.mask_threshold_bytes = native::mask_threshold_from_env();
  options.on_request = [clock = &rt->activity] { clock->touch(); };
  Result<std::unique_ptr<native::NativeService>> service =
      native::NativeService::start(config.home, std::move(store), options);
  if (!service.ok()) {
    spdlog::warn("native runtime disabled: {}", service.status().ToString());
    return nullptr;
  }
  rt->session_key = (*service)->session_key();
  rt->keepalive_route = true;
  spdlog::info("native runtime on {}", (*service)->socket_path());
  return std::move(service).value();
}

// Startup steps 2–10 (docs/spec/proxy.md#startup).
int serve(const Config& config, std::ostream& err) {
  // Block the stop signals before any thread starts so only the waiter receives them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  ::signal(SIGPIPE, SIG_IGN);

  ProxyRuntime rt;
  rt.config = config;
  rt.env = process_env();
  Result<std::unique_ptr<UsageWriter>> writer = UsageWriter::start(config.db_path);
  if (!writer.ok()) {
    err << "caveman-proxy: " << writer.status().ToString() << "\n";
    return 1;
  }
  rt.usage = std::move(writer).value();
  // The estimate compresses copies only (external recovery): no store needed.
  rt.estimator = std::make_unique<Engine>(nullptr);
  rt.ledger = std::make_unique<CostLedger>(&rt.config, rt.estimator.get(), &rt.sessions);
  rt.usage->set_hook([ledger = rt.ledger.get()](UsageRow& row, const Usage& usage, std::size_t backlog) {
    ledger->enrich(row, usage, backlog);
  });
  const std::string& m = config.mode;
  if (m == "compress" || m == "pixel" || m == "active" || m == "canary") {
    ccr::OpenOptions options;
    Result<std::string> path = ccr::resolve_store_path(&options);
    Result<std::unique_ptr<ccr::Store>> store =
        path.ok() ? ccr::open_store(*path, options) : Result<std::unique_ptr<ccr::Store>>(path.status());
    Result<std::unique_ptr<SqlitePrefixCache>> cache = SqlitePrefixCache::open(config.db_path);
    if (store.ok() && cache.ok()) {
      rt.store = std::shared_ptr<ccr::Store>(std::move(store).value());
      rt.engine = std::make_unique<Engine>(rt.store);
      rt.prefix_cache = std::move(cache).value();
    } else {
      // No recovery store means nothing may be compressed: fail open to record.
      spdlog::warn("{} mode disabled, forwarding as record: {}", config.mode,
                   (!store.ok() ? store.status() : cache.status()).ToString());
    }
  }
  rt.upstream = std::make_unique<UpstreamClient>(rt.config);
  std::unique_ptr<native::NativeService> native_rt = start_native_runtime(config, &rt);

  ProxyServer server(&rt);
  if (Status s = server.bind(); !s.ok()) {
    err << "caveman-proxy: " << s.ToString() << "\n";
    rt.usage->stop();
    return 1;
  }
  RunState state;
  state.pid = static_cast<int>(::getpid());
  state.port = server.port();
  state.listen = config.listen_host + ":" + std::to_string(server.port());
  state.mode = config.mode;
  state.owner = config.owner;
  state.instance_token = random_hex32();
  state.started_at = base::format_utc(base::now_utc(), {base::Fraction::kNone});
  state.version = kVersion;
  state.recovery_via_mcp = config.recovery_via_mcp;
  if (Status s = write_run_state(config.home, state); !s.ok()) {
    spdlog::warn("run-state file not written: {}", s.ToString());
  }
  std::string host = url_host(config.listen_host);
  spdlog::info("listening on http://{}:{} mode={}{} home={}", host, server.port(), config.mode,
               rt.compress_enabled() ? (config.recovery_via_mcp ? " recovery=mcp" : " recovery=server")
                                     : "",
               config.home);

  std::atomic<bool> signalled{false};
  std::thread waiter([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    if (signalled.exchange(true)) return;  // woken by serve() below
    spdlog::info("signal {}: finishing requests in flight", sig);
    server.begin_shutdown();
  });
  std::unique_ptr<IdleWatch> idle_watch;
  if (config.owner == "wrap") {
    std::int64_t timeout = idle_timeout_ms(rt.env);
    idle_watch = std::make_unique<IdleWatch>(
        &rt.activity, timeout, [&rt] { return rt.metrics.inflight() > 0; },
        [&server, timeout] {
          spdlog::info("no activity for {} s: exiting (started by caveman wrap)", timeout / 1000);
          server.begin_shutdown();
        });
  }
  Status served = server.serve();
  if (idle_watch) idle_watch->stop();
  if (!signalled.exchange(true)) {
    pthread_kill(waiter.native_handle(), SIGTERM);  // the listener ended without a signal
  }
  waiter.join();
  if (native_rt) native_rt->stop();
  rt.usage->stop();
  if (Status s = remove_run_state(config.home, server.port(), state.instance_token); !s.ok()) {
    spdlog::warn("run-state file not removed: {}", s.ToString());
  }
  spdlog::info("stopped ({} usage rows written, {} dropped)", rt.usage->written(), rt.usage->dropped());
  return served.ok() ? 0 : 1;
}

// `--name value` or `--name=value`; returns false when the flag is malformed.
bool flag_value(const std::vector<std::string>& args, std::size_t* i, const std::string& name,
                std::string* value) {
  const std::string& a = args[*i];
  if (a == name) {
    if (*i + 1 >= args.size()) return false;
    *value = args[++*i];
    return true;
  }
  if (a.rfind(name + "=", 0) == 0) {
    *value = a.substr(name.size() + 1);
    return true;
  }
  return false;
}

bool parse_int(const std::string& s, int* out) {
  if (s.empty() || s.size() > 9) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

int status_command(const Config& config, const std::vector<std::string>& args, std::ostream& out,
                   std::ostream& err) {
  int port = config.listen_port;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string v;
    if (!flag_value(args, &i, "--port", &v) || !parse_int(v, &port)) {
      err << "caveman-proxy: usage: caveman-proxy status [--port N]\n";
      return 2;
    }
  }
  Result<RunState> state = read_run_state(config.home, port);
  // A record whose process is gone (or not ours to signal) is reported as unknown.
  if (!state.ok() || ::kill(state->pid, 0) != 0) {
    out << "{\"owner\":\"unknown\"}\n";
    return 0;
  }
  out << state->to_json() << "\n";
  return 0;
}

int stats_command(const Config& config, const std::vector<std::string>& args, std::ostream& out,
                  std::ostream& err) {
  int recent = -1;
  for (std::size_t i = 1; i < args.size(); ++i) {
    std::string v;
    if (!flag_value(args, &i, "--recent", &v) || !parse_int(v, &recent) || recent <= 0) {
      err << "caveman-proxy: usage: caveman-proxy stats [--recent N] (N a positive integer)\n";
      return 2;
    }
  }
  Result<std::string> text = recent > 0 ? stats_recent(config.db_path, recent) : stats_summary(config.db_path);
  if (!text.ok()) {
    err << "caveman-proxy: " << text.status().ToString() << "\n";
    return 1;
  }
  out << *text << "\n";
  return 0;
}

}  // namespace

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  if (auto rc = handle_common_flags(tool_info(), args, out)) return *rc;
  std::string verb = args.empty() ? "serve" : args[0];
  // The native verbs read no caveman.yaml: a hook must stay silent and fast.
  if (verb == "native-hook") return native::run_native_hook_command({args.begin() + 1, args.end()}, in, out, err);
  if (verb == "native-why") return native::run_native_why_command({args.begin() + 1, args.end()}, out, err);
  if (verb != "serve" && verb != "status" && verb != "stats") {
    err << "caveman-proxy: cave_unknown_command: unknown subcommand \"" << verb
        << "\" (see caveman-proxy --help)\n";
    return 2;
  }
  if (verb == "serve" && args.size() > 1) {
    err << "caveman-proxy: usage: caveman-proxy [serve] (configure with caveman.yaml or env)\n";
    return 2;
  }
  init_logging();
  Result<Config> config = load_config(process_env());
  if (!config.ok()) {
    err << "caveman-proxy: " << config.status().ToString() << "\n";
    return exit_code_for(config.status());
  }
  if (verb == "status") return status_command(*config, args, out, err);
  if (verb == "stats") return stats_command(*config, args, out, err);
  return serve(*config, err);
}

}  // namespace caveman::proxy
