#include "agent_enable.h"

#include <nlohmann/json.hpp>

#include "agent_mcp.h"
#include "caveman/base/codes.h"
#include "hooks_codex.h"
#include "hooks_gemini.h"
#include "native_hooks.h"

namespace caveman::cli {
namespace {

using Json = nlohmann::ordered_json;

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string url_for(const EnableInputs& in, std::string_view agent) {
  return in.gateway + "/w/" + std::string(agent);
}

ConfigEntry json_key(std::string table, std::string name, const Json& value) {
  return {ConfigFormat::kJson, std::move(table), std::move(name), value.dump()};
}

// A hook group running the proxy starter at session start; `timeout` in the agent's unit.
ConfigEntry session_start_hook(const EnableInputs& in, int timeout) {
  Json hook = {{"type", "command"}, {"command", ensure_proxy_command(in)}, {"timeout", timeout}};
  Json group = {{"hooks", Json::array({hook})}};
  return {ConfigFormat::kJsonItem, "hooks.SessionStart", "caveman-ensure-proxy", group.dump()};
}

std::string claude_settings_path(const Environment& env) {
  auto dir = env.get("CLAUDE_CONFIG_DIR");
  if (dir && !dir->empty()) return *dir + "/settings.json";
  auto home = env.get("HOME");
  return home && !home->empty() ? *home + "/.claude/settings.json" : "";
}

Status no_home() { return Status::InvalidArgument(codes::kNoHome, "HOME is not set"); }

// Claude Code applies settings.json `env` to its own process, and its SessionStart hooks run
// before the first request: the hook starts the proxy when it is down.
Status claude_base_url(const EnableInputs& in, std::vector<FileEdit>* edits) {
  std::string path = claude_settings_path(in.env);
  if (path.empty()) return no_home();
  FileEdit e{path, "", {json_key("env", "ANTHROPIC_BASE_URL", url_for(in, "claude"))}};
  e.entries.push_back(session_start_hook(in, 30));  // seconds
  edits->push_back(std::move(e));
  return Status::Ok();
}

// The hooks `caveman wrap claude` gives one session, made permanent: every group of the
// document caveman-proxy prints becomes one item of settings.json hooks.<Event>.
Status claude_hooks(const EnableInputs& in, std::vector<FileEdit>* edits) {
  CAVEMAN_ASSIGN_OR_RETURN(std::string text, fetch_hooks_document(in.proxy_path, in.env, "claude", "PostToolUse"));
  Json doc = Json::parse(text);
  FileEdit e{claude_settings_path(in.env), "", {}};
  // The hook processes find the proxy's socket under CAVEMAN_HOME.
  if (in.env.get("CAVEMAN_HOME")) e.entries.push_back(json_key("env", "CAVEMAN_HOME", in.home));
  for (const auto& [event, groups] : doc["hooks"].items()) {
    for (const auto& group : groups) {
      e.entries.push_back({ConfigFormat::kJsonItem, "hooks." + event, "caveman", group.dump()});
    }
  }
  edits->push_back(std::move(e));
  return Status::Ok();
}

// Codex reads the provider from config.toml. Its provider `auth` command runs before the
// first request: it starts the proxy if needed and prints the key Codex would have sent.
Status codex_base_url(const EnableInputs& in, std::vector<FileEdit>* edits) {
  std::string path = agent_config_path("codex", in.env);
  if (path.empty()) return no_home();
  std::vector<std::string> argv = ensure_proxy_argv(in);
  std::vector<std::string> args(argv.begin() + 1, argv.end());
  args.push_back("--print-env");
  args.push_back("OPENAI_API_KEY");
  std::string body = "name = \"Caveman\"\nbase_url = " + Json(url_for(in, "codex") + "/v1").dump() +
                     "\nwire_api = \"responses\"\n\n[model_providers.caveman.auth]\n" +
                     toml_server_body(argv[0], args);
  FileEdit e{path, "", {}};
  e.entries.push_back({ConfigFormat::kTomlKey, "", "model_provider", "\"caveman\""});
  e.entries.push_back({ConfigFormat::kToml, "model_providers", "caveman", body});
  edits->push_back(std::move(e));
  return Status::Ok();
}

// Gemini CLI takes its base URL from the environment only; it loads ~/.gemini/.env (when no
// project .env is closer) and runs SessionStart hooks before the first request.
Status gemini_base_url(const EnableInputs& in, std::vector<FileEdit>* edits) {
  auto home = in.env.get("HOME");
  if (!home || home->empty()) return no_home();
  edits->push_back({*home + "/.gemini/.env", "",
                    {{ConfigFormat::kEnvLine, "", "GOOGLE_GEMINI_BASE_URL", url_for(in, "gemini")}}});
  edits->push_back({agent_config_path("gemini", in.env), "", {session_start_hook(in, 30000)}});  // ms
  return Status::Ok();
}

// Qwen Code (a Gemini CLI fork) also reads the base URL from settings.json, below
// OPENAI_BASE_URL in precedence, and runs SessionStart hooks like Gemini CLI.
Status qwen_base_url(const EnableInputs& in, std::vector<FileEdit>* edits) {
  std::string path = agent_config_path("qwen", in.env);
  if (path.empty()) return no_home();
  FileEdit e{path, "{\n  \"$version\": 4\n}\n", {}};  // Qwen Code adds $version itself
  e.entries.push_back(json_key("security.auth", "baseUrl", url_for(in, "qwen") + "/v1"));
  e.entries.push_back(session_start_hook(in, 30000));  // ms
  edits->push_back(std::move(e));
  return Status::Ok();
}

// opencode: provider options in opencode.json; every *.js in its plugin/ dir is imported at
// start-up, so a plugin file of ours starts the proxy first.
Status opencode_base_url(const EnableInputs& in, std::vector<FileEdit>* edits) {
  std::string path = agent_config_path("opencode", in.env);
  if (path.empty()) return no_home();
  std::string url = url_for(in, "opencode") + "/v1";
  FileEdit e{path, "{\n  \"$schema\": \"https://opencode.ai/config.json\"\n}\n", {}};
  e.entries.push_back(json_key("provider.openai.options", "baseURL", url));
  e.entries.push_back(json_key("provider.anthropic.options", "baseURL", url));
  edits->push_back(std::move(e));
  std::vector<std::string> argv = ensure_proxy_argv(in);
  Json args(std::vector<std::string>(argv.begin() + 1, argv.end()));
  std::string plugin =
      "// Written by `caveman enable opencode`; `caveman disable opencode` removes it.\n"
      "// Starts the Caveman proxy (when it is not running) before opencode sends a request.\n"
      "import { spawnSync } from \"node:child_process\";\n"
      "spawnSync(" + Json(argv[0]).dump() + ", " + args.dump() +
      ", { stdio: \"ignore\", timeout: 30000 });\n"
      "export const CavemanProxy = async () => ({});\n";
  std::string dir = path.substr(0, path.rfind('/'));
  edits->push_back({dir + "/plugin/caveman-proxy.js", "",
                    {{ConfigFormat::kFile, "", "caveman-proxy.js", plugin}}});
  return Status::Ok();
}

// Agents whose hooks are installed by their own journaled installer, or have none.
Status no_hooks(const EnableInputs&, std::vector<FileEdit>*) { return Status::Ok(); }

void merge(std::vector<FileEdit>* into, std::vector<FileEdit> more) {
  for (auto& e : more) {
    auto it = into->begin();
    while (it != into->end() && it->path != e.path) ++it;
    if (it == into->end()) {
      into->push_back(std::move(e));
      continue;
    }
    it->entries.insert(it->entries.end(), e.entries.begin(), e.entries.end());
  }
}

}  // namespace

const std::vector<AgentIntegration>& agent_integrations() {
  static const std::vector<AgentIntegration> kAgents = {
      {"claude", claude_base_url, claude_hooks,
       "~/.claude/settings.json: env.ANTHROPIC_BASE_URL, SessionStart hook starts the proxy, "
       "native hooks"},
      {"codex", codex_base_url, no_hooks,
       "~/.codex/config.toml: model_provider \"caveman\"; its auth command starts the proxy; "
       "native hooks in hooks.json (trusted in config.toml)",
       install_codex_hooks, uninstall_codex_hooks},
      {"gemini", gemini_base_url, no_hooks,
       "~/.gemini/.env GOOGLE_GEMINI_BASE_URL; settings.json SessionStart hook starts the proxy; "
       "native hooks in settings.json",
       install_gemini_hooks, uninstall_gemini_hooks},
      {"opencode", opencode_base_url, no_hooks,
       "opencode.json provider baseURL; plugin/caveman-proxy.js starts the proxy"},
      {"qwen", qwen_base_url, no_hooks,
       "~/.qwen/settings.json security.auth.baseUrl; SessionStart hook starts the proxy"},
  };
  return kAgents;
}

const AgentIntegration* find_integration(std::string_view agent) {
  for (const auto& a : agent_integrations()) {
    if (a.id == agent) return &a;
  }
  return nullptr;
}

std::vector<std::string> ensure_proxy_argv(const EnableInputs& in) {
  return {in.caveman, "ensure-proxy", "--listen", in.listen, "--home", in.home};
}

std::string ensure_proxy_command(const EnableInputs& in) {
  std::string cmd;
  for (const auto& a : ensure_proxy_argv(in)) cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
  return cmd;
}

Result<EnablePlan> plan_enable(const AgentIntegration& agent, const EnableInputs& in,
                               bool with_hooks) {
  EnablePlan plan;
  CAVEMAN_RETURN_IF_ERROR(agent.base_url(in, &plan.edits));
  if (!with_hooks) return plan;
  std::vector<FileEdit> hooks;
  if (Status s = agent.install_hooks(in, &hooks); !s.ok()) {
    plan.warnings.push_back("native hooks left out: " + s.ToString());
    return plan;
  }
  plan.hooks = !hooks.empty();
  merge(&plan.edits, std::move(hooks));
  return plan;
}

}  // namespace caveman::cli
