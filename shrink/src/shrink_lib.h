// caveman-shrink: compress tool catalogs and noisy command output, recoverably.
// Placeholder until issue 10 lands: only --help / --version / version --json work.
#ifndef CAVEMAN_SHRINK_LIB_H_
#define CAVEMAN_SHRINK_LIB_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::shrink {

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace caveman::shrink

#endif  // CAVEMAN_SHRINK_LIB_H_
