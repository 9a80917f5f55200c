// caveman-shrink: compress tool catalogs and noisy command output, recoverably.
//
// run() is the whole command line (main.cpp only forwards to it): it parses `args` (program
// name excluded), reads `in`, writes results to `out` and diagnostics to `err`, and returns
// the exit code (base/exit_code.h; kExitRunnerFailed when `--` mode fails itself). Recovery-store location: $CAVEMAN_CCR_DB, else $CAVEMAN_HOME/ccr.db, else
// ~/.caveman/ccr.db. Nothing throws out of run() except std::bad_alloc.
#ifndef CAVEMAN_SHRINK_SHRINK_CLI_H_
#define CAVEMAN_SHRINK_SHRINK_CLI_H_

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "caveman/base/exit_code.h"

namespace caveman::shrink {

inline constexpr std::size_t kMaxStdinBytes = 32u << 20;

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_SHRINK_CLI_H_
