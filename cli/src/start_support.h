// Helpers shared by `start`, `wrap` and `status` about an existing proxy and MCP evidence.
#ifndef CAVEMAN_CLI_START_SUPPORT_H_
#define CAVEMAN_CLI_START_SUPPORT_H_

#include <string>

#include "proxy_address.h"

namespace caveman::cli {

// True when `caveman tools mcp install` left a marker in <home>/mcp/.
bool mcp_install_evidence(const std::string& home);
// One sentence about who holds a busy port.
std::string describe_busy_port(const ProxyAddress& address, const Listener& listener);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_START_SUPPORT_H_
