// Read-tool gutter and <file> wrapper: unwrap then rewrap of an unchanged body is the input,
// byte for byte (the listing contract: a gutter that cannot be re-rendered exactly is not
// unwrapped), and the body of a rewrapped text unwraps the same way again. A sparse gutter
// over the unchanged text of a consecutively numbered listing reads back to every number.
#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

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
  for (const caveman::core::Layer& layer : u.layers) {
    const auto* l = std::get_if<caveman::core::Listing>(&layer);
    if (l == nullptr || !caveman::core::numbers_consecutive(*l) || !l->last_empty.empty()) continue;
    std::string sparse =
        caveman::core::restore_gutter(l->source, *l, caveman::core::GutterStyle::kSparse);
    // Count as a reader: a line opening with digits then the separator (or digits alone)
    // sets the number; any other line is one more than the line above.
    std::int64_t n = 0;
    std::size_t i = 0;
    // Bare blank lines after the last numbered one repeat its number: nothing to count there.
    std::size_t counted = l->numbers.size();
    while (counted > 1 && l->numbers[counted - 1] == l->numbers[counted - 2]) --counted;
    for (std::size_t pos = 0; pos < sparse.size() && i < counted; ++i) {
      std::size_t end = sparse.find('\n', pos);
      std::string_view line(sparse.data() + pos,
                            (end == std::string::npos ? sparse.size() : end) - pos);
      std::size_t digits = line.find_first_not_of("0123456789");
      std::string_view rest =
          digits == std::string_view::npos ? std::string_view() : line.substr(digits);
      std::size_t width = digits == std::string_view::npos ? line.size() : digits;
      bool numbered = width > 0 && width <= 12 &&  // a gutter's number has 1 to 12 digits
                      (rest.empty() || rest == "\r" || rest.starts_with(l->separator));
      n = numbered ? std::stoll(std::string(line.substr(0, width))) : n + 1;
      FUZZ_CHECK(n == l->numbers[i], "a sparse gutter misnumbers a line");
      pos = end == std::string::npos ? sparse.size() : end + 1;
    }
  }
  return 0;
}
