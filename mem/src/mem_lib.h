// cavemem: durable agent memory with ranked recall.
// Placeholder until issue 12 lands: only --help / --version / version --json work.
#ifndef CAVEMAN_MEM_LIB_H_
#define CAVEMAN_MEM_LIB_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::mem {

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_LIB_H_
