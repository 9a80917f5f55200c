// The toon compressor (docs/spec/compressors.md#toon): forced only (Detect never answers "toon").
// JSON in, TOON v3.3 out (caveman/toon.h), lossless to the model: the JSON comes back from the TOON
// exactly, numbers by value. Fails on anything toon_encode rejects (invalid JSON, duplicate
// keys, trailing data, lone surrogates, …). The query is ignored.
#include "caveman/toon.h"

#include "compress/compressors.h"

namespace caveman::compress {
namespace {

std::optional<CompressorOutput> compress_toon(std::string_view input, std::string_view /*query*/) {
  Result<std::string> toon = toon::toon_encode(input);
  // An empty object encodes to an empty document, which would read as "no output".
  if (!toon.ok() || toon.value().empty()) return std::nullopt;
  CompressorOutput out;
  out.bytes = std::move(toon).value();
  out.method = "toon";
  out.lossless_to_model = true;
  return out;
}

}  // namespace

std::unique_ptr<Compressor> make_toon_compressor() {
  return make_compressor("toon", compress_toon);
}

}  // namespace caveman::compress
