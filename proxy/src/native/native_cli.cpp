#include "native/native_cli.h"

#include <limits.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <optional>
#include <ostream>
#include <string_view>

#include "caveman/base/cli.h"
#include "caveman/base/codes.h"
#include "caveman/base/log.h"
#include "caveman/ccr.h"
#include "native/hook_client.h"
#include "native/host_formats.h"

namespace caveman::proxy::native {
namespace {

using Json = nlohmann::json;

std::string self_exe() {
  char buf[PATH_MAX];
  ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string("caveman-proxy");
}

// Single-quotes `s` for the shell Claude Code runs hook commands with.
std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

constexpr std::string_view kTool = "caveman-proxy";

}  // namespace

void add_native_commands(CLI::App& app, NativeFlags* f) {
  // Neither reads caveman.yaml: a hook must stay silent and fast.
  CLI::App* hook = app.add_subcommand("native-hook", "The agent hook bridge: <agent> | print-settings");
  hook->require_subcommand(0, 1);
  hook->add_option("AGENT", f->agent,
                   "Read a hook payload on stdin, answer in this agent's dialect");
  hook->add_option("--adapter", f->adapter, "Answer in this dialect instead (claude, codex, gemini)");
  CLI::App* print = hook->add_subcommand("print-settings", "An agent's hooks document running this binary");
  print->add_option("--agent", f->print_agent, "claude (default), codex or gemini");
  print->add_option("--command", f->command, "The hook command (default: this binary's native-hook A)");
  print->callback([f] { f->print_settings = true; });
  CLI::App* why = app.add_subcommand("native-why", "Why a block was compressed or kept, as JSON");
  why->add_option("--decision,decision", f->decision, "The Decision Ledger id")->required();
}

int run_native_hook_command(const NativeFlags& f, std::istream& in, std::ostream& out,
                            std::ostream& err) {
  const bool print = f.print_settings;
  if (print == f.agent.has_value() || (print && f.adapter)) {
    return base::usage_error(kTool, "native-hook takes an agent or print-settings, one of them", err);
  }
  const std::string adapter = print ? f.print_agent : f.adapter.value_or(*f.agent);
  std::string command = f.command;
  const HostAdapter* host = find_host(adapter);
  if (print) {
    if (host == nullptr) return base::usage_error(kTool, "unknown agent: " + adapter, err);
    if (command.empty()) command = shell_quote(self_exe()) + " native-hook " + std::string(host->id);
    out << host_hook_settings(*host, command) << "\n";
    return base::kExitOk;
  }
  // An agent without a dialect of its own speaks Claude Code's (the same core fields).
  return run_hook(host != nullptr ? *host : claude_host(), *f.agent, caveman_home_from_env(), in, out);
}

int run_native_why_command(const NativeFlags& f, std::ostream& out, std::ostream& err) {
  const std::string& id = *f.decision;
  ccr::OpenOptions options;
  Result<std::string> path = ccr::resolve_store_path(&options);
  Result<std::unique_ptr<ccr::Store>> store =
      path.ok() ? ccr::open_store(*path, options) : Result<std::unique_ptr<ccr::Store>>(path.status());
  if (!store.ok()) {
    base::stream_logger(err)->error("caveman-proxy: {}", store.status().ToString());
    return base::kExitError;
  }
  Result<std::optional<ccr::TypedObject>> found = (*store)->find_task_decision(id);
  if (!found.ok()) {
    base::stream_logger(err)->error("caveman-proxy: {}", found.status().ToString());
    return base::kExitError;
  }
  if (!found->has_value()) {
    base::stream_logger(err)->error("caveman-proxy: {}: no decision {} in the ledger",
                                    codes::kUnknownDecision, id);
    return base::kExitError;
  }
  const ccr::TypedObject& o = **found;
  Json data = Json::parse(o.data, nullptr, false);
  Json why = {{"decision_id", id},
              {"object_id", o.object_id},
              {"session_id", o.session_id},
              {"created_at", o.created_at},
              {"currentness", o.currentness},
              {"lifecycle", o.lifecycle},
              {"depends_on", o.dependencies},
              {"decision", data.is_discarded() ? Json(o.data) : data}};
  out << why.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  return base::kExitOk;
}

}  // namespace caveman::proxy::native
