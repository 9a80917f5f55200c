// browse_cli.h — the direct CLI (docs/browse.md#direct-cli): snapshot, act, eval, recover, close.
//
// Invocations share one detached browser through <home>/browse-session.json: the endpoint
// is CAVEMAN_BROWSE_CDP when set (never closed by us), else the state's endpoint when it
// answers GET /json/version within 500 ms, else a newly launched headless browser on
// 127.0.0.1:<CAVEMAN_BROWSE_PORT, default: any free port> with profile
// CAVEMAN_BROWSE_USER_DATA_DIR or <home>/browse-profile, logging to <home>/browse-chrome.log.
// Results go to stdout, errors to stderr as `caveman-browse: <code>: message`.
// Exit codes: 0 success, 1 failure, 2 usage error.
#ifndef CAVEMAN_BROWSE_BROWSE_CLI_H_
#define CAVEMAN_BROWSE_BROWSE_CLI_H_

#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace caveman::browse {

// Follows every usage error (exit 2), as the short form of --help.
inline constexpr std::string_view kCliSynopsis =
    "usage: caveman-browse snapshot [url] [query…] | act <uid> <action> [text…] | eval <expr…> |\n"
    "       recover <handle> [query…] | close   (add --json for the MCP payload)\n";

// A verb and its arguments, as parsed by caveman-browse's command line (browse_app.h).
struct CliCommand {
  std::string verb;                // snapshot, act, eval, recover or close
  std::vector<std::string> words;  // its positional arguments, in order
  bool json = false;               // print the MCP payload
};

// Runs one verb. Single-threaded (may fork a browser).
int run_cli(const CliCommand& command, std::ostream& out, std::ostream& err);

}  // namespace caveman::browse

#endif  // CAVEMAN_BROWSE_BROWSE_CLI_H_
