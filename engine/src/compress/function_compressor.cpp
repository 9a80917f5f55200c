#include <string>
#include <utility>

#include "compress/compressors.h"

namespace caveman::compress {
namespace {

class FunctionCompressor final : public Compressor {
 public:
  FunctionCompressor(std::string_view type, CompressFn compress)
      : type_(type), compress_(std::move(compress)) {}

  std::string_view type() const override { return type_; }

  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const override {
    return compress_(input, query);
  }

 private:
  std::string type_;
  CompressFn compress_;
};

}  // namespace

std::unique_ptr<Compressor> make_compressor(std::string_view type, CompressFn compress) {
  return std::make_unique<FunctionCompressor>(type, std::move(compress));
}

std::unique_ptr<Compressor> make_declining_compressor(std::string_view type) {
  return make_compressor(
      type, [](std::string_view, std::string_view) { return std::optional<CompressorOutput>(); });
}

}  // namespace caveman::compress
