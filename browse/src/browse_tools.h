// browse_tools.h — the MCP tool catalog of caveman-browse: browser_snapshot, browser_act,
// browser_eval, browser_recover, all bound to one BrowseSession (docs/browse.md#tools).
// Handlers validate arguments first (no browser is started for a bad call) and return
// errors as {"error":<code>,"message":…} tool results. Not thread-safe across sessions'
// shared state: each call of the factory builds its own BrowseSession.
#ifndef CAVEMAN_BROWSE_BROWSE_TOOLS_H_
#define CAVEMAN_BROWSE_BROWSE_TOOLS_H_

#include <memory>
#include <vector>

#include "browse_session.h"
#include "mcp_server.h"

namespace caveman::browse {

std::vector<mcp::Tool> make_browse_tools(std::shared_ptr<BrowseSession> session);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_BROWSE_TOOLS_H_
