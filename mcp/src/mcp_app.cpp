#include "mcp_app.h"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cstdlib>
#include <limits>
#include <memory>
#include <optional>
#include <ostream>
#include <string_view>

#include "caveman/base/cli.h"
#include "caveman/base/codes.h"
#include "caveman/base/log.h"
#include "caveman/base/net.h"
#include "caveman/ccr.h"
#include "caveman/common_flags.h"
#include "caveman/engine.h"
#include "caveman/version.h"
#include "engine_tools.h"
#include "http_transport.h"

namespace caveman::mcp {
namespace {

constexpr std::string_view kTool = "caveman-mcp";

// What --help says before the options; the tool list is engine_tools.h's.
constexpr const char* kDescription =
    "caveman-mcp: MCP server with five tools: caveman_compress, caveman_retrieve, caveman_stats,\n"
    "caveman_toon_encode, caveman_toon_decode. Newline-delimited JSON-RPC on stdin/stdout until\n"
    "EOF, or Streamable HTTP on a loopback address with --http (POST /mcp).";

constexpr const char* kFooter =
    "recovery store: CAVEMAN_MCP_EPHEMERAL=1 -> in memory; else $CAVEMAN_CCR_DB, else\n"
    "$CAVEMAN_HOME/ccr.db, else ~/.caveman/ccr.db (shared with caveman-proxy, so handles the\n"
    "proxy disclosed resolve here).\n"
    "\n"
    "exit codes: 0 EOF or shutdown, 1 cannot serve, 2 usage error\n"
    "environment: CAVEMAN_MCP_EPHEMERAL, CAVEMAN_CCR_DB, CAVEMAN_HOME, CAVEMAN_LOG_LEVEL\n";

// What the command line asked for, filled by CLI11.
struct Flags {
  std::string http;
  std::optional<std::size_t> max_line_bytes;
  std::optional<std::string> tools;
};

std::unique_ptr<CLI::App> make_cli(const ToolInfo& tool, Flags* f) {
  std::unique_ptr<CLI::App> app = base::make_app(tool, kDescription, kFooter);
  app->add_option("--http", f->http, "Serve Streamable HTTP on this loopback address")
      ->type_name("HOST:PORT");
  app->add_option("--max-line-bytes", f->max_line_bytes, "Longest JSON-RPC line accepted on stdin")
      ->transform(base::decimal())
      ->check(CLI::Range(std::size_t{1}, std::numeric_limits<std::size_t>::max()));
  app->add_option("--tools", f->tools,
                  "Serve only these tools (e.g. caveman_retrieve: what `caveman wrap` gives an "
                  "agent, since every tool schema is re-read on every turn)")
      ->type_name("NAME,...");
  return app;
}

struct StoreChoice {
  std::shared_ptr<ccr::Store> store;
  std::string problem;  // why the shared store is not used
};

StoreChoice open_store() {
  StoreChoice c;
  const char* eph = std::getenv("CAVEMAN_MCP_EPHEMERAL");
  bool ephemeral = eph != nullptr && std::string(eph) == "1";
  if (!ephemeral) {
    ccr::OpenOptions options;
    Result<std::string> path = ccr::resolve_store_path(&options);
    if (path.ok()) {
      Result<std::unique_ptr<ccr::Store>> s = ccr::open_store(path.value(), options);
      if (s.ok()) {
        c.store = std::move(s).value();
        return c;
      }
      c.problem = s.status().ToString();
    } else {
      c.problem = path.status().ToString();
    }
    // A dead MCP server is worse than one without the shared store: keep serving.
    spdlog::warn("shared recovery store unavailable ({}); using an in-memory store for this session",
                 c.problem);
  }
  Result<std::unique_ptr<ccr::Store>> mem = ccr::open_store(std::string(ccr::kMemoryPath));
  if (mem.ok()) c.store = std::move(mem).value();
  return c;
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  ToolInfo tool{kTool, "caveman.mcp.version.v1", "",
                {"mcp_recovery", "build_stamped_version", "streamable_http", "tool_selection"}};
  Flags flags;
  std::unique_ptr<CLI::App> app = make_cli(tool, &flags);
  if (auto rc = base::parse_args(*app, tool, args, out, err)) return *rc;
  ServerOptions options;
  if (flags.max_line_bytes) options.max_line_bytes = *flags.max_line_bytes;
  std::vector<std::string> only_tools;
  if (flags.tools) {
    only_tools = split_tool_names(*flags.tools);
    if (!known_tool_names(only_tools)) {
      return base::usage_error(kTool,
                               "--tools takes names from: caveman_compress, caveman_retrieve, "
                               "caveman_stats, caveman_toon_encode, caveman_toon_decode",
                               err);
    }
  }
  const std::string& http = flags.http;
  std::string host;
  int port = 0;
  if (!http.empty()) {
    Result<base::ListenAddress> listen =
        base::parse_loopback_listen(http, codes::kInvalidArguments);
    if (!listen.ok()) {
      base::stream_logger(err)->error("{}: {}", kTool, listen.status().ToString());
      return base::kExitUsage;
    }
    host = listen->host;
    port = listen->port;
  }

  options.request_state_key = load_request_state_key();
  StoreChoice store = open_store();
  auto engine = std::make_shared<const Engine>(store.store);
  Server server(ServerInfo{"caveman", "Caveman", kVersion,
                           "Caveman shrinks large tool outputs and keeps exact originals. "
                           "Elision markers state verified facts; use caveman_retrieve only "
                           "when they cannot answer."},
                [engine, only_tools] { return make_engine_tools(engine, only_tools); }, options);
  if (http.empty()) return server.serve_stdio(STDIN_FILENO, STDOUT_FILENO);
  Status s = serve_http(server, host, port);
  if (!s.ok()) {
    base::stream_logger(err)->error("{}: {}", kTool, s.ToString());
    return base::kExitError;
  }
  return base::kExitOk;
}

}  // namespace caveman::mcp
