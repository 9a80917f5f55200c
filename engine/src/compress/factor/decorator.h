// The shape every view layer shares (docs/formats.md): it wraps a type's compressor, keeps
// its registry key and safety class, passes a view through, and otherwise answers with its
// choice between the inner output and its own views. One place for the plumbing and for the
// slack a lossless view is given.
#ifndef CAVEMAN_COMPRESS_FACTOR_DECORATOR_H_
#define CAVEMAN_COMPRESS_FACTOR_DECORATOR_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "caveman/compressor.h"
#include "caveman/tokens.h"
#include "compress/compressors.h"

namespace caveman::compress::factor {

// A lossless view may cost this much more than a view of elided text and still be chosen:
// every line stays in view, so no retrieve is ever needed for it.
inline constexpr double kLosslessSlack = 1.10;

// A view of the whole input, verified to expand back to it: lossless to the model.
inline CompressorOutput lossless_view(std::string bytes, std::string method) {
  CompressorOutput out = output_of(std::move(bytes), std::move(method));
  out.lossless_to_model = true;
  return out;
}

// A view layer's answer for an input that holds no view, from the inner compressor and the
// counter that prices the candidates.
using ChooseView = std::function<std::optional<CompressorOutput>(
    const Compressor& inner, const tokens::Counter& counter, std::string_view input,
    const Request& request)>;

// The view layer over `inner` that answers with `choose`.
std::unique_ptr<Compressor> make_view_layer(std::unique_ptr<Compressor> inner,
                                            const tokens::Counter& counter, ChooseView choose);

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_DECORATOR_H_
