// The factoring layer over a line-oriented compressor (docs/formats.md): whatever the inner
// compressor keeps — or the whole input when it declines — is written as a factored view
// when that costs fewer o200k tokens. Elision markers stay literal lines outside blocks.
#include <memory>

#include "compress/compressors.h"
#include "compress/factor/block_syntax.h"
#include "compress/factor/budget.h"
#include "compress/factor/line_blocks.h"

namespace caveman::compress {
namespace {

// Every elision marker the compressors write names the project in parentheses.
constexpr std::string_view kMarkerNeedle = "(caveman)";

// A lossless view may cost this much more than a view of the elided text and still be chosen.
constexpr double kLosslessSlack = 1.10;

struct Candidate {
  std::optional<std::string> view;  // nullopt: the text itself
  std::size_t tokens = 0;           // of the view, else of the text
  bool lossless = false;            // expands to the caller's input
};

class FactoredCompressor final : public Compressor {
 public:
  FactoredCompressor(std::unique_ptr<Compressor> inner, const tokens::Counter& counter)
      : inner_(std::move(inner)), counter_(&counter) {}

  std::string_view type() const override { return inner_->type(); }
  SafetyClass safety_class() const override { return inner_->safety_class(); }

  std::optional<CompressorOutput> compress(std::string_view input,
                                           std::string_view query) const override {
    return compress_with(input, Request{query, 0});
  }

  std::optional<CompressorOutput> compress_with(std::string_view input,
                                                const Request& request) const override {
    // A view is final: compressing it again changes nothing (idempotence).
    if (factor::contains_block(input)) return std::nullopt;
    std::optional<CompressorOutput> out = inner_->compress(input, request.query);
    std::string_view base = out ? std::string_view(out->bytes) : input;
    std::size_t base_tokens = counter_->count(base);
    Candidate best = factored(base, !out.has_value(), base_tokens);
    if (out) {
      // The input itself factored keeps every line in view: preferred over the elided text's
      // view unless that is clearly cheaper.
      Candidate whole = factored(input, true, counter_->count(input));
      if (whole.view && static_cast<double>(whole.tokens) <=
                            kLosslessSlack * static_cast<double>(std::min(best.tokens, base_tokens))) {
        best = std::move(whole);
      }
    }
    if (request.budget_tokens > 0 &&
        best.tokens > static_cast<std::size_t>(request.budget_tokens)) {
      std::optional<factor::Fitted> fitted = factor::fit_budget(
          base, request.query, request.budget_tokens, kMarkerNeedle, *counter_);
      if (fitted && fitted->tokens < best.tokens) {
        best = Candidate{std::move(fitted->view), fitted->tokens, false};
      }
    }
    std::optional<std::string> view = std::move(best.view);
    bool elided = !best.lossless;
    if (!view) return out;
    CompressorOutput result;
    if (out) result = std::move(*out);
    result.method = result.method.empty() ? std::string(inner_->type()) : result.method;
    result.method += "+factored";
    // Lossless exactly when nothing was elided: the view then expands to the input.
    result.lossless_to_model = !elided;
    result.bytes = std::move(*view);
    return result;
  }

 private:
  // `text` factored when that costs fewer tokens than `text_tokens`.
  Candidate factored(std::string_view text, bool lossless, std::size_t text_tokens) const {
    std::optional<std::string> view = factor::factor_text(text, kMarkerNeedle);
    if (view) {
      std::size_t tokens = counter_->count(*view);
      if (tokens < text_tokens) return Candidate{std::move(view), tokens, lossless};
    }
    return Candidate{std::nullopt, text_tokens, false};
  }

  std::unique_ptr<Compressor> inner_;
  const tokens::Counter* counter_;
};

}  // namespace

std::unique_ptr<Compressor> make_factored(std::unique_ptr<Compressor> inner,
                                          const tokens::Counter& counter) {
  return std::make_unique<FactoredCompressor>(std::move(inner), counter);
}

}  // namespace caveman::compress
