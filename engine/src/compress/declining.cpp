#include <string>

#include "compress/compressors.h"

namespace caveman::compress {
namespace {

class DecliningCompressor final : public Compressor {
 public:
  explicit DecliningCompressor(std::string_view type) : type_(type) {}
  std::string_view type() const override { return type_; }
  std::optional<CompressorOutput> compress(std::string_view, std::string_view) const override {
    return std::nullopt;
  }

 private:
  std::string type_;
};

}  // namespace

std::unique_ptr<Compressor> make_declining_compressor(std::string_view type) {
  return std::make_unique<DecliningCompressor>(type);
}

}  // namespace caveman::compress
