// The o200k pre-tokenizer: pieces tile the input exactly, and the count of the whole equals
// the sum of the counts of its pieces.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "caveman/tokens.h"
#include "fuzz_util.h"
#include "tokens/pretokenize.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto& counter = caveman::tokens::default_counter();
  std::size_t sum = 0;
  std::string joined;
  for (std::string_view piece : caveman::tokens::pretokenize(text)) {
    FUZZ_CHECK(!piece.empty(), "empty piece");
    joined.append(piece);
    sum += counter.count(piece);
  }
  FUZZ_CHECK(joined == text, "pieces do not tile the input");
  FUZZ_CHECK(sum == counter.count(text), "count != sum of piece counts");
  FUZZ_CHECK(counter.encode(text).size() == sum, "encode length != count");
  return 0;
}
