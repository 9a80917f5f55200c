// Helpers shared by `start`, `wrap`, `status`, `enable` and `ensure-proxy` about a proxy and
// MCP evidence.
#ifndef CAVEMAN_CLI_START_SUPPORT_H_
#define CAVEMAN_CLI_START_SUPPORT_H_

#include <string>

#include "context.h"
#include "proxy_address.h"

namespace caveman::cli {

// True when `caveman tools mcp install` left a marker in <home>/mcp/.
bool mcp_install_evidence(const std::string& home);
// One sentence about who holds a busy port.
std::string describe_busy_port(const ProxyAddress& address, const Listener& listener);
// The mode wrap and enabled agents start a proxy in: CAVEMAN_WRAP_MODE, else compress (an
// invalid value warns and gives record).
std::string wrap_mode(Context& ctx);
// A detached caveman-proxy (log run/proxy-<port>.log) on a free port, waited for until ready;
// it keeps running afterwards. `idle_exit`: owner wrap, which stops itself when unused
// (CAVEMAN_NATIVE_IDLE_TIMEOUT); else owner start, which runs until stopped. False after a
// message prefixed with `who`.
bool start_background_proxy(Context& ctx, const ProxyAddress& address, const std::string& mode,
                            bool recovery, std::string_view who, bool idle_exit = true);

}  // namespace caveman::cli

#endif  // CAVEMAN_CLI_START_SUPPORT_H_
