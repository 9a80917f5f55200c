#include "mcp_app.h"

#include <cstdlib>
#include <ostream>
#include <unistd.h>

#include "caveman/base/net.h"
#include "caveman/ccr.h"
#include "caveman/common_flags.h"
#include "caveman/engine.h"
#include "caveman/version.h"
#include "engine_tools.h"
#include "http_transport.h"

namespace caveman::mcp {
namespace {

constexpr const char* kUsage =
    "usage: caveman-mcp [--http HOST:PORT] [--max-line-bytes N] [--tools NAME,...]\n"
    "       caveman-mcp version [--json] | --version | --help\n"
    "\n"
    "MCP server with five tools: caveman_compress, caveman_retrieve, caveman_stats,\n"
    "caveman_toon_encode, caveman_toon_decode. Serves newline-delimited JSON-RPC on\n"
    "stdin/stdout until EOF, or Streamable HTTP on a loopback address with --http\n"
    "(POST /mcp).\n"
    "\n"
    "--tools NAME,...  serve only these tools (e.g. caveman_retrieve: what `caveman wrap`\n"
    "                  gives an agent, since every tool schema is re-read on every turn)\n"
    "\n"
    "recovery store: CAVEMAN_MCP_EPHEMERAL=1 → in memory; else $CAVEMAN_CCR_DB, else\n"
    "$CAVEMAN_HOME/ccr.db, else ~/.caveman/ccr.db (shared with caveman-proxy, so handles the\n"
    "proxy disclosed resolve here).\n"
    "\n"
    "exit codes: 0 EOF or shutdown, 1 cannot serve, 2 usage error\n";

struct StoreChoice {
  std::shared_ptr<ccr::Store> store;
  std::string problem;  // why the shared store is not used
};

StoreChoice open_store(std::ostream& err) {
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
    err << "caveman-mcp: warning: shared recovery store unavailable (" << c.problem
        << "); using an in-memory store for this session\n";
  }
  Result<std::unique_ptr<ccr::Store>> mem = ccr::open_store(std::string(ccr::kMemoryPath));
  if (mem.ok()) c.store = std::move(mem).value();
  return c;
}

}  // namespace

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  ToolInfo tool{"caveman-mcp", "caveman.mcp.version.v1", kUsage,
                {"mcp_recovery", "build_stamped_version", "streamable_http", "tool_selection"}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;

  std::string http;
  std::vector<std::string> only_tools;
  ServerOptions options;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if ((a == "--http" || a == "--max-line-bytes" || a == "--tools") && i + 1 < args.size()) {
      const std::string& v = args[++i];
      if (a == "--http") {
        http = v;
      } else if (a == "--tools") {
        only_tools = split_tool_names(v);
        if (!known_tool_names(only_tools)) {
          err << "caveman-mcp: cave_invalid_arguments: --tools takes names from: "
                 "caveman_compress, caveman_retrieve, caveman_stats, caveman_toon_encode, "
                 "caveman_toon_decode\n";
          return 2;
        }
      } else {
        char* end = nullptr;
        unsigned long long n = std::strtoull(v.c_str(), &end, 10);
        if (*end != '\0' || n == 0) {
          err << "caveman-mcp: cave_invalid_arguments: --max-line-bytes needs a positive integer\n";
          return 2;
        }
        options.max_line_bytes = n;
      }
    } else {
      err << "caveman-mcp: cave_invalid_arguments: unknown argument \"" << a << "\"\n" << kUsage;
      return 2;
    }
  }

  std::string host;
  int port = 0;
  if (!http.empty()) {
    Result<base::ListenAddress> listen = base::parse_loopback_listen(http, "cave_invalid_arguments");
    if (!listen.ok()) {
      err << "caveman-mcp: " << listen.status().ToString() << "\n";
      return 2;
    }
    host = listen->host;
    port = listen->port;
  }

  options.request_state_key = load_request_state_key(err);
  StoreChoice store = open_store(err);
  auto engine = std::make_shared<const Engine>(store.store);
  Server server(ServerInfo{"caveman", "Caveman", kVersion,
                           "Caveman shrinks large tool outputs and keeps exact originals. "
                           "Elision markers state verified facts; use caveman_retrieve only "
                           "when they cannot answer."},
                [engine, only_tools] { return make_engine_tools(engine, only_tools); }, options);
  if (http.empty()) return server.serve_stdio(STDIN_FILENO, STDOUT_FILENO);
  Status s = serve_http(server, host, port);
  if (!s.ok()) {
    err << "caveman-mcp: " << s.ToString() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace caveman::mcp
