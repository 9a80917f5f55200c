// The shape every view layer shares (docs/formats.md): it wraps a type's compressor, keeps
// its registry key and safety class, and chooses between the inner output and its own views
// in compress_with(). One place for the plumbing and for the slack a lossless view is given.
#ifndef CAVEMAN_COMPRESS_FACTOR_DECORATOR_H_
#define CAVEMAN_COMPRESS_FACTOR_DECORATOR_H_

#include <memory>
#include <string_view>

#include "caveman/compressor.h"
#include "caveman/tokens.h"

namespace caveman::compress::factor {

// A lossless view may cost this much more than a view of elided text and still be chosen:
// every line stays in view, so no retrieve is ever needed for it.
inline constexpr double kLosslessSlack = 1.10;

class ViewDecorator : public Compressor {
 public:
  ViewDecorator(std::unique_ptr<Compressor> inner, const tokens::Counter& counter)
      : inner_(std::move(inner)), counter_(&counter) {}

  std::string_view type() const final { return inner_->type(); }
  SafetyClass safety_class() const final { return inner_->safety_class(); }
  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const final {
    return compress_with(input, Request{query, 0});
  }

 protected:
  const Compressor& inner() const { return *inner_; }
  const tokens::Counter& counter() const { return *counter_; }

 private:
  std::unique_ptr<Compressor> inner_;
  const tokens::Counter* counter_;
};

}  // namespace caveman::compress::factor

#endif  // CAVEMAN_COMPRESS_FACTOR_DECORATOR_H_
