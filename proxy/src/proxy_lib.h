// caveman-proxy: loopback HTTP proxy in front of the Anthropic, OpenAI and Gemini APIs.
// Placeholder until issue 8 lands: only --help / --version / version --json work.
#ifndef CAVEMAN_PROXY_LIB_H_
#define CAVEMAN_PROXY_LIB_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace caveman::proxy {

int run(const std::vector<std::string>& args, std::istream& in, std::ostream& out,
        std::ostream& err);

}  // namespace caveman::proxy

#endif  // CAVEMAN_PROXY_LIB_H_
