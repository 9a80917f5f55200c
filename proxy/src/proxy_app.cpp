#include "proxy_app.h"

#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <thread>

#include "caveman/base/cli.h"
#include "caveman/base/exit_code.h"
#include "caveman/base/log.h"
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

constexpr std::string_view kTool = "caveman-proxy";

constexpr const char* kDescription =
    "Loopback HTTP proxy in front of the Anthropic, OpenAI and Gemini APIs. Point\n"
    "ANTHROPIC_BASE_URL / OPENAI_BASE_URL (…/v1) at it. Record mode (default) forwards every\n"
    "byte unchanged; compress mode shrinks big tool results in the live zone of a request and\n"
    "keeps the originals in ccr.db under <<ccr:HANDLE>> markers.";

constexpr const char* kFooter =
    "Config: $CAVEMAN_CONFIG or $CAVEMAN_HOME/caveman.yaml (label, mode, listen,\n"
    "providers.<name>.base_url, compat.<name>.{base_url,api_key_env},\n"
    "compress.{min_bytes,budget_tokens,min_saving_tokens}, optimizers.<id>,\n"
    "keepalive.{enabled,oauth,max_pings}, recompact.enabled (cache lifetimes), canary.percent,\n"
    "estimate.record, upstream.{timeout_ms,connect_timeout_ms}, server.{threads,max_queue}).\n"
    "Env: CAVEMAN_MODE, CAVEMAN_LISTEN, CAVEMAN_LABEL, CAVEMAN_RECOVERY=mcp,\n"
    "CAVE_SSRF_ALLOWLIST, CAVE_MAX_REQUEST_BYTES, CAVE_GATEWAY_UPSTREAM_TIMEOUT_MS,\n"
    "CAVEMAN_LOG_LEVEL, CAVEMAN_NATIVE_IDLE_TIMEOUT (a proxy started by `caveman wrap` exits when "
    "idle that long; 30m),\n"
    "HTTPS_PROXY / NO_PROXY (https upstreams through an http:// proxy's CONNECT tunnel),\n"
    "SSL_CERT_FILE / SSL_CERT_DIR (CAs trusted for https upstreams; default: the system's).\n"
    "Exit codes: 0 ok, 1 runtime failure (port taken, store), 2 usage or non-loopback listen.\n"
    "Docs: docs/proxy.md\n";

ToolInfo tool_info() {
  return ToolInfo{kTool, kRunStateSchema, kDescription,
                  {"run_state", "usage_rows", "record_byte_exact", "compress_live_zone",
                   "prefix_cache", "server_side_retrieve", "sse_relay", "native_runtime_v1",
                   "native_hook_bridge_v1", "typed_ccr", "decision_ledger_v1"}};
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
  options.on_event = [lifetimes = rt->lifetimes.get()](const native::NativeRequest& r) {
    if (lifetimes != nullptr && r.event == native::EventType::kSessionEnd)
      lifetimes->on_native_session_end(r.session_id);
  };
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

// The lifetime book on the real clock, or on a manual one for tests (CAVEMAN_TEST_CLOCK=manual).
void start_lifetimes(ProxyRuntime* rt) {
  LifetimeBook::Clock clock = steady_now_ms;
  if (rt->config.test_clock_manual) {
    rt->test_clock = std::make_unique<ManualClock>();
    clock = [c = rt->test_clock.get()] { return c->now(); };
    spdlog::warn(
        "CAVEMAN_TEST_CLOCK=manual: cache lifetimes run on a test clock (POST "
        "/caveman/test/clock)");
  }
  KeepaliveOptions options{rt->config.keepalive_enabled, rt->config.keepalive_oauth,
                           rt->config.keepalive_max_pings};
  rt->lifetimes = std::make_unique<LifetimeBook>(std::move(clock), options);
  rt->lifetimes->set_guard_stopped(
      [rt](std::uint64_t s) { return rt->sessions.stopped(s).has_value(); });
}

// The keepalive runner: pings through the upstream client, rows to the usage writer.
void start_keepalive(ProxyRuntime* rt) {
  PingSender sender = [rt](const PingJob& job, CancelToken* cancel) {
    return send_ping(*rt->upstream, rt->usage.get(), job, rt->clock_headers(), cancel);
  };
  rt->keepalive = std::make_unique<KeepaliveRunner>(rt->lifetimes.get(), std::move(sender),
                                                    rt->test_clock.get());
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
    base::stream_logger(err)->error("caveman-proxy: {}", writer.status().ToString());
    return base::exit_code_for(writer.status());
  }
  rt.usage = std::move(writer).value();
  // The estimate compresses copies only (external recovery): no store needed.
  rt.estimator = std::make_unique<Engine>(nullptr);
  start_lifetimes(&rt);
  rt.ledger = std::make_unique<CostLedger>(&rt.config, rt.estimator.get(), &rt.sessions,
                                           rt.lifetimes.get());
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
  start_keepalive(&rt);
  std::unique_ptr<native::NativeService> native_rt = start_native_runtime(config, &rt);

  ProxyServer server(&rt);
  if (Status s = server.bind(); !s.ok()) {
    base::stream_logger(err)->error("caveman-proxy: {}", s.ToString());
    rt.usage->stop();
    return base::exit_code_for(s);
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
    // The waiter sits in sigwait(SIGTERM): the signal wakes it, it does not end the thread.
    pthread_kill(waiter.native_handle(), SIGTERM);  // NOLINT(bugprone-bad-signal-to-kill-thread)
  }
  waiter.join();
  if (native_rt) native_rt->stop();
  rt.keepalive->stop();
  rt.usage->stop();
  if (Status s = remove_run_state(config.home, server.port(), state.instance_token); !s.ok()) {
    spdlog::warn("run-state file not removed: {}", s.ToString());
  }
  spdlog::info("stopped ({} usage rows written, {} dropped)", rt.usage->written(), rt.usage->dropped());
  return base::exit_code_for(served);
}

// What the command line asked for, filled by CLI11.
struct Flags {
  std::optional<int> port;
  int recent = -1;
  native::NativeFlags native;
};

std::unique_ptr<CLI::App> make_cli(Flags* f) {
  std::unique_ptr<CLI::App> app = base::make_app(tool_info(), kDescription, kFooter);
  app->require_subcommand(0, 1);
  app->add_subcommand("serve", "Serve HTTP on the configured loopback address (the default)");
  app->add_subcommand("status", "The running proxy's run state as JSON")
      ->add_option("--port", f->port, "The proxy on this port (default: the configured one)")
      ->transform(base::decimal());
  app->add_subcommand("stats", "Usage rows from caveman.db")
      ->add_option("--recent", f->recent, "The last N rows instead of the summary")
      ->transform(base::decimal())
      ->check(CLI::Range(1, std::numeric_limits<int>::max()));
  native::add_native_commands(*app, &f->native);
  return app;
}

int status_command(const Config& config, std::optional<int> port_flag, std::ostream& out) {
  const int port = port_flag.value_or(config.listen_port);
  Result<RunState> state = read_run_state(config.home, port);
  // A record whose process is gone (or not ours to signal) is reported as unknown.
  if (!state.ok() || ::kill(state->pid, 0) != 0) {
    out << "{\"owner\":\"unknown\"}\n";
    return base::kExitOk;
  }
  out << state->to_json() << "\n";
  return base::kExitOk;
}

int stats_command(const Config& config, int recent, std::ostream& out, std::ostream& err) {
  Result<std::string> text = recent > 0 ? stats_recent(config.db_path, recent) : stats_summary(config.db_path);
  if (!text.ok()) {
    base::stream_logger(err)->error("caveman-proxy: {}", text.status().ToString());
    return base::kExitError;
  }
  out << *text << "\n";
  return base::kExitOk;
}

}  // namespace

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err) {
  Flags flags;
  std::unique_ptr<CLI::App> app = make_cli(&flags);
  if (auto rc = base::parse_args(*app, tool_info(), args, out, err)) return *rc;
  const std::string verb = app->get_subcommands().empty() ? "serve" : app->get_subcommands().front()->get_name();
  if (verb == "native-hook") return native::run_native_hook_command(flags.native, in, out, err);
  if (verb == "native-why") return native::run_native_why_command(flags.native, out, err);
  Result<Config> config = load_config(process_env());
  if (!config.ok()) {
    base::stream_logger(err)->error("caveman-proxy: {}", config.status().ToString());
    return base::exit_code_for(config.status());
  }
  if (verb == "status") return status_command(*config, flags.port, out);
  if (verb == "stats") return stats_command(*config, flags.recent, out, err);
  return serve(*config, err);
}

}  // namespace caveman::proxy
