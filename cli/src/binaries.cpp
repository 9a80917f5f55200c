#include "binaries.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "caveman/base/codes.h"
#include "caveman/base/paths.h"

namespace caveman::cli {

const std::vector<BinarySpec>& binary_specs() {
  static const std::vector<BinarySpec> kSpecs = {
      {"caveman-proxy", "CAVEMAN_PROXY_BIN", true, "run_state", "start, wrap, stats"},
      {"caveman-engine", "CAVEMAN_ENGINE_BIN", true, "", "compress, retrieve, toon, evals"},
      {"caveman-mcp", "CAVEMAN_MCP_BIN", true, "mcp_recovery", "tools mcp, wrap recovery"},
      {"cavemem", "CAVEMEM_BIN", true, "", "mem"},
      {"caveman-shrink", "CAVEMAN_SHRINK_BIN", false, "", "shrink"},
      {"caveman-browse", "CAVEMAN_BROWSE_BIN", false, "", "browse"},
  };
  return kSpecs;
}

const BinarySpec* find_binary_spec(std::string_view name) {
  for (const auto& s : binary_specs()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

std::string caveman_home(const Environment& env) {
  return base::caveman_home([&env](std::string_view name) { return env.get(name); }).value_or("");
}

BinaryLocation locate_binary(const BinarySpec& spec, const Environment& env,
                             const std::string& self_dir) {
  BinaryLocation loc{std::string(spec.name), "", "missing"};
  // An explicit override is final: pointing it at nothing is how a binary is switched off.
  if (auto v = env.get(spec.env_var)) {
    if (is_executable_file(*v)) {
      loc.path = *v;
      loc.source = "env";
    }
    return loc;
  }
  if (auto p = find_on_path(spec.name, env.get("PATH").value_or(""))) {
    loc.path = *p;
    loc.source = "path";
    return loc;
  }
  std::string home = caveman_home(env);
  if (!home.empty() && is_executable_file(home + "/bin/" + std::string(spec.name))) {
    loc.path = home + "/bin/" + std::string(spec.name);
    loc.source = "home";
    return loc;
  }
  if (!self_dir.empty() && is_executable_file(self_dir + "/" + std::string(spec.name))) {
    loc.path = self_dir + "/" + std::string(spec.name);
    loc.source = "sibling";
  }
  return loc;
}

int probe_timeout_ms(const Environment& env) {
  int ms = 2000;
  if (auto v = env.get("CAVE_BINARY_PROBE_TIMEOUT_MS")) {
    try {
      ms = std::stoi(*v);
    } catch (const std::exception&) {
      ms = 2000;
    }
  }
  return std::clamp(ms, 100, 30000);
}

BinaryProbe probe_binary(const BinarySpec& spec, const BinaryLocation& where,
                         const Environment& env) {
  BinaryProbe probe;
  if (!where.found()) {
    probe.error = codes::kBinaryMissing;
    return probe;
  }
  auto run = run_captured({where.path, "version", "--json"}, env, probe_timeout_ms(env));
  if (!run.ok() || run->timed_out || run->exit_code != 0) {
    probe.error = codes::kBinaryProbeFailed;
    return probe;
  }
  auto doc = nlohmann::json::parse(run->out, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("version") ||
      !doc["version"].is_string()) {
    probe.error = codes::kBinaryProbeFailed;
    return probe;
  }
  probe.version = doc["version"].get<std::string>();
  if (doc.contains("capabilities") && doc["capabilities"].is_array()) {
    for (const auto& c : doc["capabilities"]) {
      if (c.is_string()) probe.capabilities.push_back(c.get<std::string>());
    }
  }
  if (doc.contains("name") && doc["name"].is_string() && doc["name"].get<std::string>() != spec.name) {
    probe.error = codes::kBinaryProbeFailed;
    return probe;
  }
  if (!spec.capability.empty() && !probe.has_capability(spec.capability)) {
    probe.error = codes::kBinaryStale;
    return probe;
  }
  probe.ok = true;
  return probe;
}

}  // namespace caveman::cli
