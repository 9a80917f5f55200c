#include "caveman/common_flags.h"

#include <spdlog/spdlog.h>

#include "caveman/base/codes.h"
#include "caveman/base/log.h"
#include "caveman/version.h"
#include "json/json.h"

namespace caveman {

void print_version(const ToolInfo& tool, bool json, std::ostream& out) {
  if (!json) {
    out << tool.name << " " << kVersion << "\n";
    return;
  }
  json::Value v = json::Value::object();
  v.add("name", json::Value::string(std::string(tool.name)));
  v.add("version", json::Value::string(kVersion));
  v.add("schema", json::Value::string(std::string(tool.schema)));
  json::Value caps = json::Value::array();
  for (std::string_view c : tool.capabilities) caps.items.push_back(json::Value::string(std::string(c)));
  v.add("capabilities", std::move(caps));
  out << json::to_compact(v) << "\n";
}

std::optional<int> handle_common_flags(const ToolInfo& tool, const std::vector<std::string>& args,
                                       std::ostream& out) {
  if (args.empty()) return std::nullopt;
  const std::string& a = args[0];
  if (a == "--help" || a == "-h" || a == "help") {
    out << tool.usage;
    return 0;
  }
  if (a == "--version") {
    print_version(tool, /*json=*/false, out);
    return 0;
  }
  if (a == "version") {
    print_version(tool, args.size() >= 2 && args[1] == "--json", out);
    return 0;
  }
  return std::nullopt;
}

int not_implemented(std::string_view tool, std::string_view verb, std::ostream& err) {
  base::stream_logger(err)->error("{}: {}: `{}` has not landed yet", tool, codes::kNotImplemented,
                                  verb);
  return 2;
}

}  // namespace caveman
