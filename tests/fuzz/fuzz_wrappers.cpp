// Read-tool gutter and <file> wrapper: unwrap then rewrap of an unchanged body is the input,
// byte for byte (the listing contract: a gutter that cannot be re-rendered exactly is not
// unwrapped), and the body of a rewrapped text unwraps the same way again.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/wrappers.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  caveman::core::Unwrapped u = caveman::core::unwrap_input(input);
  std::string back = caveman::core::rewrap(u.body, u.layers);
  FUZZ_CHECK(back == input, "unwrap then rewrap changed the text");
  if (!u.layers.empty()) {
    FUZZ_CHECK(caveman::core::unwrap_input(back).body == u.body, "rewrap lost the body");
  }
  return 0;
}
