// browse_cli.h — the direct CLI (docs/browse.md#direct-cli): snapshot, act, eval, recover, close.
//
// Invocations share one detached browser through <home>/browse-session.json: the endpoint
// is CAVEMAN_BROWSE_CDP when set (never closed by us), else the state's endpoint when it
// answers GET /json/version within 500 ms, else a newly launched headless browser on
// 127.0.0.1:<CAVEMAN_BROWSE_PORT, default: any free port> with profile
// CAVEMAN_BROWSE_USER_DATA_DIR or <home>/browse-profile, logging to <home>/browse-chrome.log.
// Results go to stdout, errors to stderr as `caveman-browse: cave_…: message`.
// Exit codes: 0 success, 1 failure, 2 usage error.
#ifndef CAVEMAN_BROWSE_BROWSE_CLI_H_
#define CAVEMAN_BROWSE_BROWSE_CLI_H_

#include <ostream>
#include <string>
#include <vector>

namespace caveman::browse {

// `args` starts with the verb. Single-threaded (may fork a browser).
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_BROWSE_CLI_H_
