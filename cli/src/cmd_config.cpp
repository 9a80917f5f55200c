// `caveman config path | get KEY | set KEY VALUE`: caveman.yaml ($CAVEMAN_CONFIG, else
// $CAVEMAN_HOME/caveman.yaml), edited with yaml-cpp. KEY is a dotted path
// (`providers.openai.base_url`). `set` checks the result with the proxy's own config loader
// and writes nothing when the proxy would refuse it. yaml-cpp does not keep comments.
#include <spdlog/spdlog.h>
#include <yaml-cpp/yaml.h>

#include <ostream>

#include "binaries.h"
#include "caveman/base/atomic_file.h"
#include "caveman/base/codes.h"
#include "caveman/base/paths.h"
#include "config.h"
#include "config_edit.h"
#include "config_journal.h"
#include "context.h"

namespace caveman::cli {
namespace {

constexpr const char* kUsage = "usage: caveman config path | get KEY | set KEY VALUE\n";

std::string config_path(const Environment& env) {
  auto forced = env.get("CAVEMAN_CONFIG");
  if (forced && !forced->empty()) return *forced;
  return caveman_home(env) + "/caveman.yaml";
}

int get(Context& ctx, const YAML::Node& root, const std::string& key) {
  YAML::Node node = YAML::Clone(root);
  for (const auto& part : split_dotted(key)) {
    if (!node.IsMap() || !node[part]) {
      ctx.log->error("caveman config: {} is not set (the default applies)", key);
      return kExitError;
    }
    node = node[part];
  }
  if (node.IsScalar()) {
    *ctx.out << node.Scalar() << "\n";
  } else {
    *ctx.out << YAML::Dump(node) << "\n";
  }
  return kExitOk;
}

int set(Context& ctx, YAML::Node root, const std::string& path, const std::string& key,
        const std::string& value) {
  if (!root.IsMap()) root = YAML::Node(YAML::NodeType::Map);
  std::vector<std::string> parts = split_dotted(key);
  std::vector<YAML::Node> chain{root};
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    YAML::Node next = chain.back()[parts[i]];
    if (!next.IsMap()) next = YAML::Node(YAML::NodeType::Map);
    chain.back()[parts[i]] = next;
    chain.push_back(next);
  }
  chain.back()[parts.back()] = YAML::Load(value);  // numbers and booleans keep their type
  std::string text = YAML::Dump(root) + "\n";
  proxy::EnvLookup lookup = [&ctx](std::string_view name) { return ctx.env.get(name); };
  auto checked = proxy::parse_config(text, lookup, caveman_home(ctx.env), path);
  if (!checked.ok()) {
    ctx.log->error("caveman config: refused, the proxy would not load it: {}",
                   checked.status().ToString());
    return kExitError;
  }
  Status s = base::write_file_atomic(
      path, text, {.io_code = codes::kConfigNotWritable, .keep_existing_mode = true});
  if (!s.ok()) {
    ctx.log->error("caveman config: {}", s.ToString());
    return kExitError;
  }
  *ctx.out << key << " = " << value << " in " << path
           << " (a running proxy reads it at its next start)\n";
  return kExitOk;
}

}  // namespace

int cmd_config(Context& ctx, const Args& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h") {
    (args.empty() ? *ctx.err : *ctx.out) << kUsage;
    return args.empty() ? kExitUsage : kExitOk;
  }
  const std::string path = config_path(ctx.env);
  if (args[0] == "path" && args.size() == 1) {
    *ctx.out << path << "\n";
    return kExitOk;
  }
  bool is_get = args[0] == "get" && args.size() == 2;
  bool is_set = args[0] == "set" && args.size() == 3;
  if (!is_get && !is_set) {
    *ctx.err << kUsage;
    return kExitUsage;
  }
  YAML::Node root;
  try {
    auto text = read_file_bytes(path);
    if (text) root = YAML::Load(*text);
    if (is_get) return get(ctx, root, args[1]);
    return set(ctx, root, path, args[1], args[2]);
  } catch (const YAML::Exception& e) {
    ctx.log->error("caveman config: {}: {}", path, e.what());
    return kExitError;
  }
}

}  // namespace caveman::cli
