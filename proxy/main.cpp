// caveman-proxy: loopback HTTP proxy in front of the Anthropic, OpenAI and Gemini APIs.
// Everything lives in caveman_proxy_lib (proxy/src/proxy_app.h); this is the thin entry point.
#include <iostream>

#include "caveman/base/log.h"
#include "proxy_app.h"

int main(int argc, char** argv) {
  return caveman::base::guarded_main("caveman-proxy", [&] {
    return caveman::proxy::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  });
}
