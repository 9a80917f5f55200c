// browse_app.h — caveman-browse's entry point: the MCP server (no arguments), the direct CLI
// verbs (browse_cli.h), and the common --help / --version / version --json flags.
// Exit codes: 0 success or EOF, 1 failure, 2 usage error.
#ifndef CAVEMAN_BROWSE_BROWSE_APP_H_
#define CAVEMAN_BROWSE_BROWSE_APP_H_

#include <ostream>
#include <string>
#include <vector>

namespace caveman::browse {

int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_BROWSE_APP_H_
