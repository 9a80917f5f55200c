#include "browse_app.h"

#include <csignal>
#include <cstdlib>
#include <sys/prctl.h>
#include <unistd.h>

#include "browse_cli.h"
#include "browse_tools.h"
#include "caveman/ccr.h"
#include "caveman/common_flags.h"
#include "caveman/engine.h"
#include "caveman/version.h"
#include "mcp_server.h"

namespace caveman::browse {
namespace {

constexpr const char* kUsage =
    "usage: caveman-browse                      MCP server on stdin/stdout\n"
    "       caveman-browse snapshot [url] [query…] [--json]\n"
    "       caveman-browse act <uid> <click|type|select|scroll|wait> [text…]\n"
    "       caveman-browse eval <expression…>\n"
    "       caveman-browse recover <handle> [query…]\n"
    "       caveman-browse close\n"
    "       caveman-browse version [--json] | --version | --help\n"
    "\n"
    "Drives Chrome/Chromium over the DevTools Protocol and returns compact accessibility\n"
    "outlines (`[uid] role \"name\" = \"value\" {states}`) with the raw tree kept under a ccr_\n"
    "handle. MCP tools: browser_snapshot, browser_act, browser_eval, browser_recover.\n"
    "\n"
    "environment: CAVEMAN_BROWSE_CHROME (browser binary; default: PATH discovery),\n"
    "CAVEMAN_BROWSE_CDP (attach to http://127.0.0.1:<port> or ws://… instead of launching),\n"
    "CAVEMAN_BROWSE_USER_DATA_DIR (profile; default: a temp dir, deleted), CAVEMAN_BROWSE_HEADFUL=1,\n"
    "CAVEMAN_BROWSE_EPHEMERAL=1 (in-memory recovery store), CAVEMAN_BROWSE_PORT (CLI browser port),\n"
    "CAVEMAN_BROWSE_SNAPSHOT_TIMEOUT_MS / _ACTION_TIMEOUT_MS / _LAUNCH_TIMEOUT_MS,\n"
    "CAVEMAN_BROWSE_CHROME_LOG (browser stderr), CAVEMAN_HOME (state; default ~/.caveman).\n"
    "\n"
    "exit codes: 0 success or EOF, 1 failure, 2 usage error\n";

std::shared_ptr<ccr::Store> open_mcp_store(std::ostream& err) {
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
    err << "caveman-browse: warning: shared recovery store unavailable (" << problem.ToString()
        << "); using an in-memory store for this session\n";
  }
  Result<std::unique_ptr<ccr::Store>> mem = ccr::open_store(std::string(ccr::kMemoryPath));
  return mem.ok() ? std::shared_ptr<ccr::Store>(std::move(mem).value()) : nullptr;
}

int serve_mcp(std::ostream& err) {
  // If the client that started us dies without closing our stdin, go down with it; the
  // keeper then removes the browser (see chrome_launcher.h).
  pid_t parent = ::getppid();
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != parent) return 0;
  auto engine = std::make_shared<const Engine>(open_mcp_store(err));
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
  ToolInfo tool{"caveman-browse", "caveman.browse.version.v1", kUsage,
                {"mcp_browser", "cdp_pipe", "cdp_websocket", "direct_cli"}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;
  if (args.empty()) return serve_mcp(err);
  return run_cli(args, out, err);
}

}  // namespace caveman::browse
