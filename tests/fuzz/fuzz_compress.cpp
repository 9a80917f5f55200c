// detect + compress for every compressor. Property: never crashes; the output is the input
// (pass-through) or has fewer tokens; a disclosed handle retrieves exactly the input.
// The first byte picks auto-detection or one forced registry type.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_util.h"

namespace {
constexpr std::string_view kTypes[] = {
    "",     "json", "log",   "code",     "diff",   "search-result", "text",      "html",
    "tabular", "config", "toolschema", "toolschema-annotations", "toon", "a11y", "repetition",
    "terminal"};
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const caveman::Engine& engine = caveman::fuzz::memory_engine();
  caveman::Options options;
  options.mode = "compress";
  options.type = std::string(kTypes[data[0] % std::size(kTypes)]);
  std::string_view input(reinterpret_cast<const char*>(data + 1), size - 1);
  caveman::CompressResult r = engine.compress(input, options);
  (void)caveman::detect(input);
  if (r.passed_through()) {
    FUZZ_CHECK(r.output == input, "pass-through changed the bytes");
    return 0;
  }
  FUZZ_CHECK(r.tokens_after < r.tokens_before, "compressed output is not smaller");
  FUZZ_CHECK(!r.recovery_handle.empty(), "transformed output without a handle");
  auto back = engine.retrieve(r.recovery_handle);
  FUZZ_CHECK(back.ok() && back.value() == input, "handle does not retrieve the input");
  // Deterministic: the same call again gives the same bytes.
  FUZZ_CHECK(engine.compress(input, options).output == r.output, "non-deterministic output");
  return 0;
}
