// toolschema — tool catalogs (MCP `inputSchema`, Anthropic `input_schema`, OpenAI
// `parameters`), forced only. The same shrinker as caveman-shrink (caveman/toolschema.h,
// docs/engine.md "Tool catalogs"); a bare JSON Schema object is shrunk as one tool's schema.
// Output is compact JSON in the input's member order; the exact original is recoverable from
// the store like every compressor's.
#include <optional>
#include <string>
#include <string_view>

#include "caveman/toolschema.h"
#include "compress/compressors.h"
#include "compress/toolschema/catalog_shrink.h"

namespace caveman::compress {
namespace {

std::optional<CompressorOutput> compress_toolschema(std::string_view input,
                                                    std::string_view /*query*/) {
  toolschema::CatalogShrink catalog = toolschema::shrink_catalog(input);
  std::optional<std::string> out;
  if (catalog.shrunk) {
    out = std::move(catalog.output);
  } else if (catalog.shape == "none") {
    out = toolschema::shrink_bare_schema(input);
  }
  if (!out) return std::nullopt;
  return CompressorOutput{std::move(*out), "toolschema", std::nullopt, {}};
}

}  // namespace

std::unique_ptr<Compressor> make_toolschema_compressor() {
  return make_compressor("toolschema", compress_toolschema);
}

}  // namespace caveman::compress
