// caveman-shrink: compress tool catalogs and noisy command output, recoverably.
//
// run() is the whole command line (main.cpp only forwards to it): it parses `args` (program
// name excluded), reads `in`, writes results to `out` and diagnostics to `err`, and returns
// the exit code. Recovery-store location: $CAVEMAN_CCR_DB, else $CAVEMAN_HOME/ccr.db, else
// ~/.caveman/ccr.db. Nothing throws out of run() except std::bad_alloc.
#ifndef CAVEMAN_SHRINK_SHRINK_CLI_H_
#define CAVEMAN_SHRINK_SHRINK_CLI_H_

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::shrink {

inline constexpr int kExitOk = 0;
inline constexpr int kExitError = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitShrinkFailed = 125;  // `--` mode: caveman-shrink itself failed
inline constexpr std::size_t kMaxStdinBytes = 32u << 20;

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_SHRINK_CLI_H_
