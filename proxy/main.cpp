// caveman-proxy: loopback HTTP proxy in front of the Anthropic, OpenAI and Gemini APIs.
// Everything lives in caveman_proxy_lib (proxy/src/proxy_app.h); this is the thin entry point.
#include <exception>
#include <iostream>

#include "proxy_app.h"

int main(int argc, char** argv) {
  try {
    return caveman::proxy::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "caveman-proxy: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
