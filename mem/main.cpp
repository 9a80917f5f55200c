// cavemem: durable agent memory with ranked recall.
#include <exception>
#include <iostream>

#include "mem_lib.h"

int main(int argc, char** argv) {
  try {
    return caveman::mem::run({argv + 1, argv + argc}, std::cin, std::cout, std::cerr);
  } catch (const std::exception& e) {
    std::cerr << "cavemem: cave_internal_error: " << e.what() << "\n";
    return 1;
  }
}
