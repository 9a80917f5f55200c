// The factoring layer: a factored view of any text expands to exactly that text, a view is
// never factored again, and decoding arbitrary bytes never crashes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "compress/factor/expand.h"
#include "compress/factor/line_blocks.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string input(reinterpret_cast<const char*>(data), size);
  (void)caveman::compress::factor::expand_blocks(input);
  std::optional<std::string> view = caveman::compress::factor::factor_text(input);
  if (view) {
    std::optional<std::string> back = caveman::compress::factor::expand_blocks(*view);
    FUZZ_CHECK(back.has_value() && *back == input, "view does not expand to the input");
    FUZZ_CHECK(!caveman::compress::factor::factor_text(*view), "a view was factored again");
  }
  return 0;
}
