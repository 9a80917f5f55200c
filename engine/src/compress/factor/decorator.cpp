#include "compress/factor/decorator.h"

#include "compress/factor/block_syntax.h"

namespace caveman::compress::factor {
namespace {

class ViewLayer final : public Compressor {
 public:
  ViewLayer(std::unique_ptr<Compressor> inner, const tokens::Counter& counter, ChooseView choose)
      : inner_(std::move(inner)), counter_(&counter), choose_(std::move(choose)) {}

  std::string_view type() const override { return inner_->type(); }
  SafetyClass safety_class() const override { return inner_->safety_class(); }
  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const override {
    return compress_with(input, Request{query, 0});
  }
  std::optional<CompressorOutput> compress_with(std::string_view input,
                                                const Request& request) const override {
    // A view is final: compressing it again changes nothing (idempotence).
    if (contains_block(input)) return std::nullopt;
    return choose_(*inner_, *counter_, input, request);
  }

 private:
  std::unique_ptr<Compressor> inner_;
  const tokens::Counter* counter_;
  ChooseView choose_;
};

}  // namespace

std::unique_ptr<Compressor> make_view_layer(std::unique_ptr<Compressor> inner,
                                            const tokens::Counter& counter, ChooseView choose) {
  return std::make_unique<ViewLayer>(std::move(inner), counter, std::move(choose));
}

}  // namespace caveman::compress::factor
