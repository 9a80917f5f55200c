// The five Caveman engine tools exposed over MCP: caveman_compress, caveman_retrieve,
// caveman_stats, caveman_toon_encode, caveman_toon_decode.
//
// make_engine_tools() builds one session's tool set; the set shares the Engine (and its
// recovery store) but keeps its own session totals and retrieve ledger. Compress fails open
// (incompressible input comes back unchanged with recovery_handle null); unknown handles and
// invalid TOON fail closed with isError and an error code
// (caveman/base/codes.h).
#ifndef CAVEMAN_MCP_ENGINE_TOOLS_H_
#define CAVEMAN_MCP_ENGINE_TOOLS_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "caveman/engine.h"
#include "mcp_server.h"

namespace caveman::mcp {


// `only` (tool names) keeps just those tools, in the usual order; empty keeps all five.
std::vector<Tool> make_engine_tools(std::shared_ptr<const Engine> engine,
                                    const std::vector<std::string>& only = {});

// "a, b" → {"a", "b"}; true when every name is one of the five tools.
std::vector<std::string> split_tool_names(std::string_view list);
bool known_tool_names(const std::vector<std::string>& names);

}  // namespace caveman::mcp

#endif  // CAVEMAN_MCP_ENGINE_TOOLS_H_
