#include "cli_lib.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <ostream>

#include "caveman/base/cli.h"
#include "caveman/base/codes.h"
#include "caveman/common_flags.h"
#include "context.h"
#include "flags.h"
#include "profiles.h"

namespace caveman::cli {
namespace {

using Handler = std::function<int(Context&, const Args&)>;

struct Verb {
  std::string name;
  std::string summary;
  Handler handler;
  bool listed = true;  // shown in --help
};

Handler delegate(std::string_view binary, Args prefix) {
  return [binary, prefix](Context& ctx, const Args& args) {
    return cmd_delegate(ctx, binary, prefix, args);
  };
}

int tools_group(Context& ctx, const Args& args);

const std::vector<Verb>& verbs() {
  static const std::vector<Verb> kVerbs = {
      {"start", "run caveman-proxy in the foreground (--port --host --config --mode)", cmd_start},
      {"wrap", "launch an agent through the proxy: caveman wrap <agent> [args…] (or caveman <agent>)",
       cmd_wrap},
      {"run", "same as wrap", cmd_wrap, false},
      {"install", "copy the built binaries into ~/.caveman/bin (--from DIR)", cmd_install},
      {"status", "what works and what does not: binaries, proxy, stores, MCP registration (--json)",
       cmd_status},
      {"doctor", "doctor <agent>: what is installed, what is broken, what to run (no agent: status)",
       cmd_doctor},
      {"enable", "enable claude|codex|gemini|opencode|qwen: via Caveman in every session (--no-mcp --no-hooks)",
       cmd_enable},
      {"disable", "disable <agent>: undo enable (files back byte for byte)", cmd_disable},
      {"verify", "verify [--agent A] [--since 15m] [--wait N]: a fresh usage row from the agent",
       cmd_verify},
      {"config", "config path | get KEY | set KEY VALUE (caveman.yaml)", cmd_config},
      {"ensure-proxy", "start the proxy in the background unless it runs", cmd_ensure_proxy, false},
      {"stats", "savings by content type, agent and provider (--json | --csv, --since 24h)",
       cmd_stats},
      {"tools", "tools mcp install|uninstall [agent] [--server S] [--print]; tools <verb> = <verb>",
       tools_group},
      {"compress", "compress stdin with caveman-engine", delegate("caveman-engine", {"compress"})},
      {"retrieve", "print the exact original behind a ccr_ handle (caveman-engine)",
       delegate("caveman-engine", {"retrieve"})},
      {"toon", "toon encode|decode (caveman-engine)", delegate("caveman-engine", {"toon"})},
      {"evals", "evals run: the engine's quality gate (caveman-engine)",
       delegate("caveman-engine", {"evals"})},
      {"shrink", "tool-catalog and command-output compression (caveman-shrink)",
       delegate("caveman-shrink", {})},
      {"browse", "compact browser snapshots (caveman-browse)", delegate("caveman-browse", {})},
      {"mem", "durable memory: remember, recall, … (cavemem)", delegate("cavemem", {})},
  };
  return kVerbs;
}

const Verb* find_verb(std::string_view name) {
  for (const auto& v : verbs()) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

// A subcommand listed in the help; its own parser (the verb's, or a delegated binary's) reads
// the words after it, so run() dispatches a known first word before CLI11 sees the line.
void pass_through(CLI::App& app, const std::string& name, const std::string& summary,
                  const std::string& group = "Subcommands") {
  app.add_subcommand(name, summary)->prefix_command()->group(group);
}

int tools_group(Context& ctx, const Args& args) {
  if (!args.empty()) {
    Args rest(args.begin() + 1, args.end());
    if (args[0] == "mcp") return cmd_mcp(ctx, rest);
    const Verb* v = find_verb(args[0]);
    if (v != nullptr && v->name != "tools") return v->handler(ctx, rest);
  }
  CLI::App app{"Tool verbs: tools mcp install|uninstall …; tools <verb> is the same as caveman <verb>.",
               "tools"};
  app.require_subcommand(1);
  pass_through(app, "mcp",
               "install|uninstall [claude|codex|gemini|opencode|qwen] [--server S] "
               "[--scope user|project|local] [--print]");
  for (const auto& v : verbs()) {
    if (v.listed && v.name != "tools") pass_through(app, v.name, v.summary);
  }
  if (auto rc = parse_flags(app, args, *ctx.out, *ctx.err)) return *rc;
  return kExitUsage;  // unreachable: a known first word was dispatched above
}

std::vector<std::string> known_words() {
  std::vector<std::string> words;
  for (const auto& v : verbs()) words.push_back(v.name);
  words.push_back("version");
  words.push_back("help");
  for (const auto& p : builtin_profiles()) {
    if (p.id != "generic") words.push_back(p.id);
  }
  return words;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: a swap of two neighbours ("stauts") costs 1, like a typo does.
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::string suggest(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = 4;
  for (const auto& c : candidates) {  // first of equal distance wins: deterministic
    std::size_t d = edit_distance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

namespace {

constexpr const char* kDescription =
    "caveman: Caveman shrinks coding agents' tool outputs and keeps the exact originals under\n"
    "ccr_ handles. caveman <verb> [args…] | caveman <agent> [args…] (the enabled install if\n"
    "`caveman enable <agent>` ran, else caveman wrap <agent>).";

constexpr const char* kFooter =
    "State: $CAVEMAN_HOME (default ~/.caveman). Proxy address: $CAVEMAN_LISTEN, else\n"
    "`listen` in caveman.yaml, else 127.0.0.1:8787. Exit codes: 0 ok, 1 failure, 2 usage,\n"
    "127 agent not installed; wrap exits with the agent's code.\n";

// The help lists every verb and agent; each parses its own words.
std::unique_ptr<CLI::App> make_cli(const ToolInfo& tool) {
  std::unique_ptr<CLI::App> app = base::make_app(tool, kDescription, kFooter);
  app->require_subcommand(0, 1);
  for (const auto& v : verbs()) pass_through(*app, v.name, v.summary, v.listed ? "Subcommands" : "");
  for (const auto& p : builtin_profiles()) {
    if (p.id != "generic") pass_through(*app, p.id, "caveman wrap " + p.id + " (or its enabled install)", "Agents");
  }
  return app;
}

}  // namespace

int run(const std::vector<std::string>& args, const Environment& env, std::ostream& out,
        std::ostream& err) {
  ToolInfo tool{"caveman", "caveman.cli.version.v1", "",
                {"start", "wrap", "agent_profiles", "mcp_install", "status", "stats", "install", "enable",
                 "verify", "doctor_agent", "config"}};
  std::shared_ptr<spdlog::logger> log = base::stream_logger(err, base::map_env(env.vars()));
  const Verb* verb = args.empty() ? nullptr : find_verb(args[0]);
  const AgentProfile* agent = args.empty() ? nullptr : find_profile(args[0]);
  if (verb == nullptr && agent == nullptr) {
    std::unique_ptr<CLI::App> app = make_cli(tool);
    if (args.empty()) {
      err << app->help();
      return kExitUsage;
    }
    if (!args[0].starts_with("-") && args[0] != "version" && args[0] != "help") {
      std::string hint = suggest(args[0], known_words());
      log->error("caveman: {}: unknown command \"{}\"{} (see caveman --help)",
                 codes::kUnknownCommand, args[0],
                 hint.empty() ? "" : " — did you mean \"" + hint + "\"?");
      return kExitUsage;
    }
    if (auto rc = base::parse_args(*app, tool, args, out, err)) return *rc;
    return base::usage_error("caveman", "missing command", err);
  }
  std::string self = self_executable();
  std::size_t slash = self.rfind('/');
  Context ctx{env, &out, &err, slash == std::string::npos ? "" : self.substr(0, slash), log};
  Args rest(args.begin() + 1, args.end());
  if (verb != nullptr) return verb->handler(ctx, rest);
  if (agent_enabled(ctx, agent->id)) return run_enabled_agent(ctx, agent->id, rest);  // agent shortcut
  return cmd_wrap(ctx, args);
}

}  // namespace caveman::cli
