// CAVE_ENGINE_TOON=best-of (docs/spec/compressors.md#best-of-json): the json registry key becomes a
// selector between lossless TOON and lossy JSON elision, measured in the engine's own tokens.
#include "compress/json/best_of_json.h"

#include <utility>

#include "compress/compressors.h"

namespace caveman::compress {
namespace {

class BestOfJsonCompressor final : public Compressor {
 public:
  BestOfJsonCompressor(const tokens::Counter& counter, std::unique_ptr<Compressor> toon,
                       std::unique_ptr<Compressor> elision)
      : counter_(counter), toon_(std::move(toon)), elision_(std::move(elision)) {}

  std::string_view type() const override { return "json"; }

  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const override {
    std::size_t best_tokens = counter_.count(input);
    std::optional<CompressorOutput> best;
    if (std::optional<CompressorOutput> toon = toon_->compress(input, {})) {
      std::size_t n = counter_.count(toon->bytes);
      if (n < best_tokens) {
        best_tokens = n;
        best = std::move(toon);
      }
    }
    if (std::optional<CompressorOutput> elided = elision_->compress(input, query)) {
      if (counter_.count(elided->bytes) < best_tokens) best = std::move(elided);
    }
    return best;
  }

 private:
  const tokens::Counter& counter_;
  std::unique_ptr<Compressor> toon_;
  std::unique_ptr<Compressor> elision_;
};

}  // namespace

std::unique_ptr<Compressor> make_best_of_compressor(const tokens::Counter& counter,
                                                    std::unique_ptr<Compressor> toon,
                                                    std::unique_ptr<Compressor> elision) {
  return std::make_unique<BestOfJsonCompressor>(counter, std::move(toon), std::move(elision));
}

std::unique_ptr<Compressor> make_best_of_json_compressor(const tokens::Counter& counter) {
  return make_best_of_compressor(counter, make_toon_compressor(), make_json_compressor());
}

}  // namespace caveman::compress
