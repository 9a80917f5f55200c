// cli.h — the cavemem command line (docs/mem.md#cli).
//
// run() dispatches one invocation and returns the process exit code (base/exit_code.h): 0 success, 1 refused or
// failed (stderr names an error code), 2 usage error (unknown verb or flag: nothing is
// opened or created), 65 memory text over 256 KiB. With no verb, or `mcp`, it serves MCP on
// stdin/stdout until EOF. Results are JSON with 2-space indent on `out`, except `recover`
// (the exact original bytes) and `export` (JSONL).
#ifndef CAVEMAN_MEM_CLI_H_
#define CAVEMAN_MEM_CLI_H_

#include <iosfwd>
#include <string>
#include <vector>

#include "caveman/base/exit_code.h"

namespace caveman::mem {

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out, std::ostream& err);

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_CLI_H_
