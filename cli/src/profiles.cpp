#include "profiles.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <nlohmann/json.hpp>

#include "caveman/base/codes.h"
#include "profiles_data.h"

namespace caveman::cli {
namespace {

Status bad(const std::string& why) { return Status::InvalidArgument(codes::kInvalidProfile, why); }

Status read_string_map(const nlohmann::json& doc, const char* key,
                       std::map<std::string, std::string>* out) {
  if (!doc.contains(key)) return Status::Ok();
  if (!doc[key].is_object()) return bad(std::string(key) + " must be an object");
  for (const auto& [k, v] : doc[key].items()) {
    if (!v.is_string()) return bad(std::string(key) + "." + k + " must be a string");
    (*out)[k] = v.get<std::string>();
  }
  return Status::Ok();
}

Status read_string_list(const nlohmann::json& doc, const char* key, std::vector<std::string>* out) {
  if (!doc.contains(key)) return Status::Ok();
  if (!doc[key].is_array()) return bad(std::string(key) + " must be an array");
  for (const auto& v : doc[key]) {
    if (!v.is_string()) return bad(std::string(key) + " must hold strings");
    out->push_back(v.get<std::string>());
  }
  return Status::Ok();
}

std::vector<AgentProfile> load_builtin() {
  std::vector<AgentProfile> out;
  for (std::string_view text : embedded_profile_texts()) {
    auto p = parse_profile(text);
    // The embedded files are checked by a unit test; a broken one is simply left out.
    if (p.ok()) out.push_back(std::move(*p));
  }
  std::sort(out.begin(), out.end(),
            [](const AgentProfile& a, const AgentProfile& b) { return a.id < b.id; });
  return out;
}

// `list` (comma-separated, spaces around items ignored) plus each loopback name it lacks.
std::string with_loopback(std::string list) {
  auto listed = [&](std::string_view host) {
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t end = std::min(list.find(',', start), list.size());
      std::string_view item = std::string_view(list).substr(start, end - start);
      std::size_t first = item.find_first_not_of(' ');
      std::size_t last = item.find_last_not_of(' ');
      if (first != std::string_view::npos && item.substr(first, last - first + 1) == host) return true;
      start = end + 1;
    }
    return false;
  };
  for (std::string_view host : {"127.0.0.1", "localhost", "::1"}) {
    if (!listed(host)) list += (list.empty() ? "" : ",") + std::string(host);
  }
  return list;
}

}  // namespace

Result<AgentProfile> parse_profile(std::string_view json_text) {
  auto doc = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) return bad("profile is not a JSON object");
  AgentProfile p;
  auto str = [&](const char* key, std::string* out, bool required) -> Status {
    if (!doc.contains(key)) return required ? bad(std::string("missing ") + key) : Status::Ok();
    if (!doc[key].is_string()) return bad(std::string(key) + " must be a string");
    *out = doc[key].get<std::string>();
    return Status::Ok();
  };
  CAVEMAN_RETURN_IF_ERROR(str("id", &p.id, true));
  CAVEMAN_RETURN_IF_ERROR(str("name", &p.name, true));
  CAVEMAN_RETURN_IF_ERROR(str("binary", &p.binary, true));
  CAVEMAN_RETURN_IF_ERROR(str("wire", &p.wire, false));
  CAVEMAN_RETURN_IF_ERROR(str("install_hint", &p.install_hint, false));
  if (p.id.empty()) return bad("empty id");
  CAVEMAN_RETURN_IF_ERROR(read_string_map(doc, "env", &p.env));
  CAVEMAN_RETURN_IF_ERROR(read_string_map(doc, "env_if_unset", &p.env_if_unset));
  CAVEMAN_RETURN_IF_ERROR(read_string_list(doc, "unset", &p.unset));
  CAVEMAN_RETURN_IF_ERROR(read_string_list(doc, "args", &p.args));
  std::string mcp = "marker";
  CAVEMAN_RETURN_IF_ERROR(str("mcp", &mcp, false));
  if (mcp == "claude-mcp-config") {
    p.mcp = McpDelivery::kClaudeMcpConfig;
  } else if (mcp == "marker") {
    p.mcp = McpDelivery::kMarker;
  } else if (mcp == "none") {
    p.mcp = McpDelivery::kNone;
  } else {
    return bad("mcp must be claude-mcp-config, marker or none");
  }
  return p;
}

const std::vector<AgentProfile>& builtin_profiles() {
  static const std::vector<AgentProfile> kProfiles = load_builtin();
  return kProfiles;
}

const AgentProfile* find_profile(std::string_view name) {
  if (name.empty() || name == "generic") return nullptr;
  for (const auto& p : builtin_profiles()) {
    if (p.id == "generic") continue;
    if (p.id == name || p.binary == name) return &p;
  }
  return nullptr;
}

const AgentProfile& generic_profile() {
  static const AgentProfile kFallback = [] {
    for (const auto& p : builtin_profiles()) {
      if (p.id == "generic") return p;
    }
    AgentProfile p;
    p.id = "generic";
    p.name = "generic";
    return p;
  }();
  return kFallback;
}

std::string render_template(std::string_view text, std::string_view base_url) {
  static constexpr std::string_view kVar = "{{base_url}}";
  std::string out;
  std::size_t pos = 0;
  while (true) {
    std::size_t hit = text.find(kVar, pos);
    if (hit == std::string_view::npos) break;
    out.append(text.substr(pos, hit - pos));
    out.append(base_url);
    pos = hit + kVar.size();
  }
  out.append(text.substr(pos));
  return out;
}

Environment wrap_environment(const Environment& base, const AgentProfile& profile,
                             std::string_view base_url) {
  Environment env = base;
  const AgentProfile& generic = generic_profile();
  auto apply = [&](const AgentProfile& p) {
    for (const auto& name : p.unset) env.unset(name);
    for (const auto& [k, v] : p.env) {
      std::string value = render_template(v, base_url);
      if (value.empty()) {
        env.unset(k);
      } else {
        env.set(k, value);
      }
    }
    for (const auto& [k, v] : p.env_if_unset) {
      if (!env.get(k)) env.set(k, render_template(v, base_url));
    }
  };
  apply(generic);
  if (profile.id != generic.id) apply(profile);
  bypass_proxy_for_loopback(env);
  return env;
}

void bypass_proxy_for_loopback(Environment& env) {
  bool proxied = false;
  for (const char* name : {"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"}) {
    proxied = proxied || !env.get(name).value_or("").empty();
  }
  if (!proxied) return;
  std::optional<std::string> upper = env.get("NO_PROXY");
  std::optional<std::string> lower = env.get("no_proxy");
  // Each keeps its own list; one that is unset starts from the other's.
  env.set("NO_PROXY", with_loopback(upper ? *upper : lower.value_or("")));
  env.set("no_proxy", with_loopback(lower ? *lower : upper.value_or("")));
}

std::vector<std::string> wrap_args(const AgentProfile& profile, std::string_view base_url) {
  std::vector<std::string> out;
  for (const auto& a : profile.args) out.push_back(render_template(a, base_url));
  return out;
}

}  // namespace caveman::cli
