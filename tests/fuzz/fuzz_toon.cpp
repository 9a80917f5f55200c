// TOON: decode never crashes; whatever decodes re-encodes and decodes to the same JSON; and
// for JSON input, decode(encode(x)) is stable under a second round trip.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "caveman/toon.h"
#include "fuzz_util.h"
#include "json/json.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  auto decoded = caveman::toon::toon_decode(input);
  if (decoded.ok()) {
    FUZZ_CHECK(caveman::json::is_valid(decoded.value()), "decode produced invalid JSON");
    auto again = caveman::toon::toon_encode(decoded.value());
    FUZZ_CHECK(again.ok(), "decoded JSON does not re-encode");
    auto twice = caveman::toon::toon_decode(again.value());
    FUZZ_CHECK(twice.ok() && twice.value() == decoded.value(), "decode(encode(x)) != x");
  }
  auto encoded = caveman::toon::toon_encode(input);
  if (encoded.ok()) {
    auto round = caveman::toon::toon_decode(encoded.value());
    FUZZ_CHECK(round.ok(), "encoder output does not decode");
    auto second = caveman::toon::toon_encode(round.value());
    FUZZ_CHECK(second.ok() && second.value() == encoded.value(), "round trip is not stable");
  }
  return 0;
}
