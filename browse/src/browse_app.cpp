#include "browse_app.h"

#include <spdlog/spdlog.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string_view>

#include "browse_cli.h"
#include "browse_tools.h"
#include "caveman/base/cli.h"
#include "caveman/ccr.h"
#include "caveman/common_flags.h"
#include "caveman/engine.h"
#include "caveman/version.h"
#include "mcp_server.h"

namespace caveman::browse {
namespace {

constexpr std::string_view kTool = "caveman-browse";

constexpr const char* kDescription =
    "caveman-browse: with no command, an MCP server on stdin/stdout (tools browser_snapshot,\n"
    "browser_act, browser_eval, browser_recover); the commands below drive the same browser\n"
    "from a shell. Drives Chrome/Chromium over the DevTools Protocol and returns compact\n"
    "accessibility outlines (`[uid] role \"name\" = \"value\" {states}`) with the raw tree kept\n"
    "under a ccr_ handle.";

constexpr const char* kFooter =
    "environment: CAVEMAN_BROWSE_CHROME (browser binary; default: PATH discovery),\n"
    "CAVEMAN_BROWSE_CDP (attach to http://127.0.0.1:<port> or ws://… instead of launching),\n"
    "CAVEMAN_BROWSE_USER_DATA_DIR (profile; default: a temp dir, deleted), CAVEMAN_BROWSE_HEADFUL=1,\n"
    "CAVEMAN_BROWSE_EPHEMERAL=1 (in-memory recovery store), CAVEMAN_BROWSE_PORT (CLI browser port),\n"
    "CAVEMAN_BROWSE_SNAPSHOT_TIMEOUT_MS / _ACTION_TIMEOUT_MS / _LAUNCH_TIMEOUT_MS,\n"
    "CAVEMAN_BROWSE_CHROME_LOG (browser stderr), CAVEMAN_HOME (state; default ~/.caveman),\n"
    "CAVEMAN_LOG_LEVEL.\n"
    "\n"
    "exit codes: 0 success or EOF, 1 failure, 2 usage error\n";

// The direct CLI's positional arguments: up to two single words, then the rest.
struct Words {
  std::optional<std::string> first;
  std::optional<std::string> second;
  std::vector<std::string> rest;
};

// The direct CLI's verbs (docs/browse.md#direct-cli); each takes --json.
std::unique_ptr<CLI::App> make_cli(const ToolInfo& tool, Words* w, bool* json) {
  std::unique_ptr<CLI::App> app = base::make_app(tool, kDescription, kFooter);
  app->require_subcommand(0, 1);
  auto verb = [&](const char* name, const char* what) {
    CLI::App* sub = app->add_subcommand(name, what);
    sub->add_flag("--json", *json, "Print the MCP tool's JSON payload");
    return sub;
  };
  verb("snapshot", "Outline of the page (after opening url), cut to what matches query")
      ->add_option("url_and_query", w->rest, "[url] [query…]");
  CLI::App* act = verb("act", "click, type, select, scroll or wait on a uid; prints what changed");
  act->add_option("uid", w->first, "A [uid] from the latest snapshot")->required();
  act->add_option("action", w->second, "click | type | select | scroll | wait")->required();
  act->add_option("text", w->rest, "What to type or select");
  verb("eval", "Evaluate a JavaScript expression in the page")
      ->add_option("expression", w->rest, "The expression")
      ->required();
  CLI::App* recover = verb("recover", "The raw tree behind a ccr_ handle (or what matches query)");
  recover->add_option("handle", w->first, "ccr_… handle")->required();
  recover->add_option("query", w->rest, "Only what matches");
  verb("close", "Close the shared browser (or detach from CAVEMAN_BROWSE_CDP)");
  return app;
}

std::shared_ptr<ccr::Store> open_mcp_store() {
  const char* eph = std::getenv("CAVEMAN_BROWSE_EPHEMERAL");
  if (eph == nullptr || std::string(eph) != "1") {
    ccr::OpenOptions options;
    Result<std::string> path = ccr::resolve_store_path(&options);
    Status problem = path.status();
    if (path.ok()) {
      Result<std::unique_ptr<ccr::Store>> s = ccr::open_store(path.value(), options);
      if (s.ok()) return std::move(s).value();
      problem = s.status();
    }
    // Serving without the shared store beats not serving: snapshots still work, handles
    // last for this session only.
    spdlog::warn("shared recovery store unavailable ({}); using an in-memory store for this session",
                 problem.ToString());
  }
  Result<std::unique_ptr<ccr::Store>> mem = ccr::open_store(std::string(ccr::kMemoryPath));
  return mem.ok() ? std::shared_ptr<ccr::Store>(std::move(mem).value()) : nullptr;
}

int serve_mcp() {
  // If the client that started us dies without closing our stdin, go down with it; the
  // keeper then removes the browser (see chrome_launcher.h).
  pid_t parent = ::getppid();
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) return base::kExitOk;
  auto engine = std::make_shared<const Engine>(open_mcp_store());
  BrowseConfig config = BrowseConfig::from_env();
  mcp::ServerOptions options;
  options.request_state_key = mcp::load_request_state_key();
  mcp::Server server(
      mcp::ServerInfo{"caveman-browse", "Caveman Browse", kVersion,
                      "Browse with compact accessibility snapshots: browser_snapshot returns an "
                      "outline whose [uid]s browser_act takes; pass query to see only what matters."},
      [engine, config] { return make_browse_tools(std::make_shared<BrowseSession>(config, engine)); },
      options);
  return server.serve_stdio(STDIN_FILENO, STDOUT_FILENO);
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  ToolInfo tool{kTool, "caveman.browse.version.v1", "",
                {"mcp_browser", "cdp_pipe", "cdp_websocket", "direct_cli"}};
  CliCommand command;
  Words words;
  std::unique_ptr<CLI::App> app = make_cli(tool, &words, &command.json);
  if (auto rc = base::parse_args(*app, tool, args, out, err)) {
    if (*rc == base::kExitUsage) err << kCliSynopsis;
    return *rc;
  }
  if (app->get_subcommands().empty()) return serve_mcp();
  command.verb = app->get_subcommands().front()->get_name();
  for (std::optional<std::string>* one : {&words.first, &words.second}) {
    if (*one) command.words.push_back(**one);
  }
  command.words.insert(command.words.end(), words.rest.begin(), words.rest.end());
  return run_cli(command, out, err);
}

}  // namespace caveman::browse
