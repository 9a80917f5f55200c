#include "wrap_session.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "caveman/base/codes.h"
#include "hooks_codex.h"
#include "hooks_gemini.h"
#include "native_hooks.h"

namespace caveman::cli {

std::vector<WrapExtension>& wrap_extensions() {
  static std::vector<WrapExtension> kExtensions = {install_claude_hooks, install_codex_session_hooks,
                                                    install_gemini_session_hooks};
  return kExtensions;
}

Result<WrapSession> WrapSession::create(const Environment& env) {
  std::string tmpl = env.get("TMPDIR").value_or("/tmp") + "/caveman-wrap-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr) {
    return Status::Io(codes::kSessionDir, "cannot create " + tmpl);
  }
  return WrapSession(std::string(buf.data()));
}

WrapSession::WrapSession(WrapSession&& other) noexcept : dir_(std::move(other.dir_)) {
  other.dir_.clear();
}

WrapSession::~WrapSession() {
  if (dir_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

Result<std::string> WrapSession::write_mcp_config(const std::string& mcp_command,
                                                  bool retrieve_only) const {
  nlohmann::ordered_json server;
  server["type"] = "stdio";
  server["command"] = mcp_command;
  server["args"] = nlohmann::ordered_json::array();
  // Every tool schema is re-read on every turn; recovery needs only caveman_retrieve.
  if (retrieve_only) server["args"] = {"--tools", "caveman_retrieve"};
  // Claude Code connects MCP servers in the background and sends its first request without
  // their tools, then adds them: the tool list heads the cached prefix, so that change rewrites
  // the whole prompt cache once per session. `alwaysLoad` makes it wait for this server.
  server["alwaysLoad"] = true;
  nlohmann::ordered_json doc;
  doc["mcpServers"]["caveman"] = server;
  std::string path = dir_ + "/mcp.json";
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << doc.dump(2) << "\n";
  if (!out) return Status::Io(codes::kSessionDir, "cannot write " + path);
  return path;
}

}  // namespace caveman::cli
