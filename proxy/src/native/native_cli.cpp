#include "native/native_cli.h"

#include <limits.h>
#include <unistd.h>

#include <cstdlib>
#include <optional>
#include <nlohmann/json.hpp>
#include <ostream>

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

}  // namespace

namespace {

constexpr const char* kHookUsage =
    "caveman-proxy: usage: caveman-proxy native-hook <agent> [--adapter claude|codex|gemini] | "
    "native-hook print-settings [--agent claude|codex|gemini] [--command CMD]\n";

// `--name V` or `--name=V` at args[*i]; advances *i past a separate value.
std::optional<std::string> flag_value(const std::vector<std::string>& args, std::size_t* i,
                                      const std::string& name) {
  if (args[*i] == name && *i + 1 < args.size()) return args[++*i];
  if (args[*i].rfind(name + "=", 0) == 0) return args[*i].substr(name.size() + 1);
  return std::nullopt;
}

}  // namespace

int run_native_hook_command(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
                            std::ostream& err) {
  if (args.empty()) {
    err << kHookUsage;
    return 2;
  }
  const bool print = args[0] == "print-settings";
  std::string adapter = print ? "claude" : args[0];
  std::string command;
  for (std::size_t i = 1; i < args.size(); ++i) {
    if (auto v = flag_value(args, &i, print ? "--agent" : "--adapter")) {
      adapter = *v;
    } else if (auto c = print ? flag_value(args, &i, "--command") : std::nullopt) {
      command = *c;
    } else {
      err << kHookUsage;
      return 2;
    }
  }
  const HostAdapter* host = find_host(adapter);
  if (print) {
    if (host == nullptr) {
      err << kHookUsage;
      return 2;
    }
    if (command.empty()) command = shell_quote(self_exe()) + " native-hook " + std::string(host->id);
    out << host_hook_settings(*host, command) << "\n";
    return 0;
  }
  // An agent without a dialect of its own speaks Claude Code's (the same core fields).
  return run_hook(host != nullptr ? *host : claude_host(), args[0], caveman_home_from_env(), in, out);
}

int run_native_why_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string id;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--decision" && i + 1 < args.size()) {
      id = args[++i];
    } else if (args[i].rfind("--decision=", 0) == 0) {
      id = args[i].substr(11);
    } else if (id.empty() && args[i].rfind("--", 0) != 0) {
      id = args[i];
    }
  }
  if (id.empty()) {
    err << "caveman-proxy: usage: caveman-proxy native-why --decision <id>\n";
    return 2;
  }
  ccr::OpenOptions options;
  Result<std::string> path = ccr::resolve_store_path(&options);
  Result<std::unique_ptr<ccr::Store>> store =
      path.ok() ? ccr::open_store(*path, options) : Result<std::unique_ptr<ccr::Store>>(path.status());
  if (!store.ok()) {
    err << "caveman-proxy: " << store.status().ToString() << "\n";
    return 1;
  }
  Result<std::optional<ccr::TypedObject>> found = (*store)->find_task_decision(id);
  if (!found.ok()) {
    err << "caveman-proxy: " << found.status().ToString() << "\n";
    return 1;
  }
  if (!found->has_value()) {
    err << "caveman-proxy: cave_unknown_decision: no decision " << id << " in the ledger\n";
    return 1;
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
  return 0;
}

}  // namespace caveman::proxy::native
