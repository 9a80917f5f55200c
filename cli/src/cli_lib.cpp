#include "cli_lib.h"

#include <algorithm>
#include <functional>
#include <ostream>

#include "caveman/common_flags.h"
#include "context.h"
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

int tools_group(Context& ctx, const Args& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    *ctx.out << "usage: caveman tools <verb> [args…]\n"
                "  mcp install|uninstall [claude|codex|gemini|opencode|qwen] [--server S]\n"
                "      [--scope user|project|local] [--print]\n"
                "  compress, retrieve, toon, evals, shrink, browse, mem, stats (same as the bare verbs)\n";
    return args.empty() ? 2 : 0;
  }
  Args rest(args.begin() + 1, args.end());
  if (args[0] == "mcp") return cmd_mcp(ctx, rest);
  const Verb* v = find_verb(args[0]);
  if (v != nullptr && v->name != "tools") return v->handler(ctx, rest);
  *ctx.err << "caveman tools: unknown verb \"" << args[0] << "\"\n";
  return 2;
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

std::string usage_text() {
  std::string text =
      "usage: caveman <verb> [args…]    caveman <agent> [args…]    caveman version [--json]\n"
      "\n"
      "Caveman shrinks coding agents' tool outputs and keeps the exact originals under ccr_\n"
      "handles. Verbs:\n";
  for (const auto& v : verbs()) {
    if (!v.listed) continue;
    std::string name = v.name;
    name.resize(std::max<std::size_t>(name.size(), 10), ' ');
    text += "  " + name + v.summary + "\n";
  }
  text += "\nAgents (caveman <agent>: the enabled install if `caveman enable <agent>` ran, else\n"
          "caveman wrap <agent>):";
  for (const auto& p : builtin_profiles()) {
    if (p.id != "generic") text += " " + p.id;
  }
  text +=
      "\n\nState: $CAVEMAN_HOME (default ~/.caveman). Proxy address: $CAVEMAN_LISTEN, else\n"
      "`listen` in caveman.yaml, else 127.0.0.1:8787. Exit codes: 0 ok, 1 failure, 2 usage,\n"
      "127 agent not installed; wrap exits with the agent's code.\n";
  return text;
}

int run(const std::vector<std::string>& args, const Environment& env, std::ostream& out,
        std::ostream& err) {
  static const std::string kUsage = usage_text();
  ToolInfo tool{"caveman", "caveman.cli.version.v1", kUsage,
                {"start", "wrap", "agent_profiles", "mcp_install", "status", "stats", "install", "enable",
                 "verify", "doctor_agent", "config"}};
  if (auto rc = handle_common_flags(tool, args, out)) return *rc;
  if (args.empty()) {
    err << kUsage;
    return 2;
  }
  std::string self = self_executable();
  std::size_t slash = self.rfind('/');
  Context ctx{env, &out, &err, slash == std::string::npos ? "" : self.substr(0, slash)};
  Args rest(args.begin() + 1, args.end());
  if (const Verb* v = find_verb(args[0])) return v->handler(ctx, rest);
  if (const AgentProfile* p = find_profile(args[0])) {  // agent shortcut
    if (agent_enabled(ctx, p->id)) return run_enabled_agent(ctx, p->id, rest);
    return cmd_wrap(ctx, args);
  }
  std::string hint = suggest(args[0], known_words());
  err << "caveman: unknown command \"" << args[0] << "\"";
  if (!hint.empty()) err << " — did you mean \"" << hint << "\"?";
  err << " (caveman --help lists the verbs)\n";
  return 2;
}

}  // namespace caveman::cli
