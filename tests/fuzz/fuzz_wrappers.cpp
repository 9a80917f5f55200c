// Read-tool gutter and <file> wrapper: unwrap then rewrap of an unchanged body is the input.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/wrappers.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  caveman::core::Unwrapped u = caveman::core::unwrap_input(input);
  std::string back = caveman::core::rewrap(u.body, u.layers);
  if (u.layers.empty()) {
    FUZZ_CHECK(back == input, "no layer but rewrap changed the text");
  } else {
    // Restored gutters are normalised, so compare the text under them.
    FUZZ_CHECK(caveman::core::unwrap_input(back).body == u.body, "rewrap lost the body");
  }
  return 0;
}
