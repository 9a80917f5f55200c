// caveman-proxy: loopback HTTP proxy in front of the Anthropic, OpenAI and Gemini APIs.
#include <exception>
#include <iostream>

#include "proxy_lib.h"

int main(int argc, char** argv) {
  try {
    return caveman::proxy::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "caveman-proxy: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
