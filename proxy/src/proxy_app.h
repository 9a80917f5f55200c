// caveman-proxy's command line (docs/spec/proxy.md#command-line) and serve startup sequence
// (docs/spec/proxy.md#startup).
//
// run() dispatches: no arguments or `serve` runs the server in the foreground until
// SIGINT/SIGTERM; `status [--port N]`, `stats [--recent N]` read local state; `--help`,
// `--version`, `version [--json]` are the shared flags. Exit codes: 0 success or clean
// shutdown; 1 runtime failure (bad caveman.yaml, a store that cannot open, port taken);
// 2 usage error or a non-loopback listen address (codes::kListenNotLoopback). Logs go to
// stderr only and never contain a credential.
#ifndef CAVEMAN_PROXY_PROXY_APP_H_
#define CAVEMAN_PROXY_PROXY_APP_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::proxy {

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_PROXY_APP_H_
