// caveman-mcp JSON-RPC line framing: any line gets no reply or exactly one valid JSON reply.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine_tools.h"
#include "fuzz_util.h"
#include "json/json.h"
#include "mcp_server.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static auto engine = caveman::fuzz::new_memory_engine();
  static caveman::mcp::ServerInfo info{"caveman", "Caveman", "fuzz", ""};
  static caveman::mcp::ServerOptions options;
  static caveman::mcp::Session session(info, options, caveman::mcp::make_engine_tools(engine));
  std::string_view line(reinterpret_cast<const char*>(data), size);
  std::string reply = session.handle_line(line);
  if (!reply.empty()) {
    FUZZ_CHECK(reply.find('\n') == std::string::npos, "reply spans lines");
    FUZZ_CHECK(caveman::json::is_valid(reply), "reply is not JSON");
  }
  return 0;
}
