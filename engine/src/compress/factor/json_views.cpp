// The json compressor's view choice (docs/formats.md, "JSON tables"): the inner compressor's
// elided JSON, that output with its tables factored, or the whole input as a lossless table
// view — whichever costs fewest o200k tokens, a lossless view winning within 10%. A view
// never grows a payload: a candidate is only kept when it is smaller than the input.
#include <memory>

#include "compress/compressors.h"
#include "compress/factor/decorator.h"
#include "compress/factor/json_table.h"

namespace caveman::compress {
namespace {

std::optional<CompressorOutput> choose_json_view(const Compressor& inner,
                                                 const tokens::Counter& counter,
                                                 std::string_view input, const Request& request) {
  // The input's count is taken only when a comparison needs it: when the elided output is
  // cheaper by far, the whole-input view loses without it (a large payload's costliest count).
  std::optional<std::size_t> input_count;
  auto input_tokens = [&] {
    if (!input_count) input_count = counter.count(input);
    return *input_count;
  };
  std::optional<CompressorOutput> out = inner.compress_with(input, request);
  std::size_t lossy_tokens = out ? counter.count(out->bytes) : input_tokens();
  if (out) {
    if (std::optional<std::string> v = factor::json_table_view(out->bytes, counter)) {
      std::size_t n = counter.count(*v);
      if (n < lossy_tokens) {
        lossy_tokens = n;
        out->bytes = std::move(*v);
        out->method = (out->method.empty() ? std::string(inner.type()) : out->method) + "+table";
        out->lossless_to_model = false;
      }
    }
  }
  if (std::optional<std::string> whole = factor::json_table_view(input, counter)) {
    std::size_t n = counter.count(*whole);
    if ((!out ||
         static_cast<double>(n) <= factor::kLosslessSlack * static_cast<double>(lossy_tokens)) &&
        n < input_tokens()) {
      return factor::lossless_view(std::move(*whole), "table");
    }
  }
  return out;
}

}  // namespace

std::unique_ptr<Compressor> make_json_views(std::unique_ptr<Compressor> inner,
                                            const tokens::Counter& counter) {
  return factor::make_view_layer(std::move(inner), counter, choose_json_view);
}

}  // namespace caveman::compress
