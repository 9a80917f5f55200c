// The factoring layer over a line-oriented compressor (docs/formats.md): whatever the inner
// compressor keeps — or the whole input when it declines — is written as a factored view
// when that costs fewer o200k tokens. Elision markers stay literal lines outside blocks.
#include <algorithm>
#include <functional>
#include <memory>

#include "compress/common/problem_lines.h"
#include "compress/compressors.h"
#include "compress/factor/block_syntax.h"
#include "compress/factor/budget.h"
#include "compress/factor/decorator.h"
#include "compress/factor/grep_view.h"
#include "compress/factor/json_table.h"
#include "compress/factor/line_blocks.h"
#include "compress/factor/prose_view.h"

namespace caveman::compress {
namespace {

// Every elision marker the compressors write names the project in parentheses.
constexpr std::string_view kMarkerNeedle = "(caveman)";

// Markers and problem lines stay verbatim lines of a view.
bool verbatim(std::string_view line) {
  return line.find(kMarkerNeedle) != std::string_view::npos || names_a_problem(line);
}

// Byte sizes this far apart decide a comparison without counting tokens: a view that drops
// whole repeated runs of text drops its tokens with them.
constexpr double kClearlyApart = 0.85;
// An inner compressor's output at least this share of the input's bytes counts as a small
// elision.
constexpr double kSmallElision = 0.90;

// One possible output: a view, or the text itself; its o200k count only when asked.
class Option {
 public:
  Option(std::string_view text, std::optional<std::string> view, bool lossless)
      : text_(text), view_(std::move(view)), lossless_(lossless) {}
  std::string_view bytes() const { return view_ ? std::string_view(*view_) : text_; }
  std::size_t tokens(const tokens::Counter& counter) const {
    if (!tokens_) tokens_ = counter.count(bytes());
    return *tokens_;
  }
  bool has_view() const { return view_.has_value(); }
  bool lossless() const { return lossless_; }
  std::string take_view() { return std::move(*view_); }

 private:
  std::string_view text_;
  std::optional<std::string> view_;
  bool lossless_;
  mutable std::optional<std::size_t> tokens_;
};

// cost(a) ≤ slack × cost(b) in o200k tokens, counted only when the byte sizes are close —
// or always when `exact` (unwrapped prose drops bytes of whitespace, not tokens).
bool costs_at_most(const Option& a, const Option& b, double slack, const tokens::Counter& c,
                   bool exact) {
  if (exact) return static_cast<double>(a.tokens(c)) <= slack * static_cast<double>(b.tokens(c));
  double ab = static_cast<double>(a.bytes().size()), bb = static_cast<double>(b.bytes().size());
  if (ab <= kClearlyApart * slack * bb) return true;
  if (ab * kClearlyApart >= slack * bb) return false;
  return static_cast<double>(a.tokens(c)) <= slack * static_cast<double>(b.tokens(c));
}

// `text` factored when that is cheaper than `text`, else `text` itself (lossy: a view of
// an elided text, or no view at all, is not the caller's input in full).
Option cheaper_view(std::string_view text, bool lossless, const tokens::Counter& counter,
                    FactorViews views) {
  Option best(text, std::nullopt, false);
  // Unwrapped unindented prose saves tokens but no bytes, so with prose only tokens count.
  auto consider = [&](std::optional<std::string> v) {
    Option view(text, std::move(v), lossless);
    if (!view.has_view()) return;
    if (views.prose
            ? view.tokens(counter) < best.tokens(counter)
            : view.bytes().size() < text.size() && costs_at_most(view, best, 1.0, counter, false)) {
      best = std::move(view);
    }
  };
  if (views.grep) consider(factor::grep_view(text, verbatim));
  consider(factor::json_lines_view(text, verbatim, counter));
  if (views.prose) consider(factor::unwrap_view(text));
  consider(factor::factor_text(text, verbatim, views.sections));
  return best;
}

// The cheapest view: of the input (lossless), or of the inner compressor's `elided` text.
// The input's view is preferred unless the elided one is clearly cheaper, and it is the only
// candidate when the elision took off little (factoring then runs once).
Option best_view(std::string_view input, const std::string* elided, const tokens::Counter& counter,
                 FactorViews views) {
  if (elided == nullptr) return cheaper_view(input, true, counter, views);
  bool small =
      static_cast<double>(elided->size()) >= kSmallElision * static_cast<double>(input.size());
  Option whole = cheaper_view(input, true, counter, views);
  // Unwrapped prose saves a little on every line, elided or not, so both views are measured.
  if (small && whole.has_view() && !views.prose) return whole;
  Option cut = cheaper_view(*elided, false, counter, views);
  if (whole.has_view() && costs_at_most(whole, cut, factor::kLosslessSlack, counter, views.prose)) {
    return whole;
  }
  return cut;
}

// An output that elides content, in a prompt the caller knows, gives way to the input's
// lossless view (or to no output) unless its saving over that pays for the retrieves it may
// cause (lossy_view_pays): a factored log the model reads in full beats a cut one that saves
// a little more.
// The input's own factored view as the output (nullopt when factoring does not pay).
std::optional<CompressorOutput> lossless_output(Option whole, const Compressor& inner) {
  if (!whole.has_view()) return std::nullopt;
  CompressorOutput result;
  result.method = std::string(inner.type()) + "+factored";
  result.lossless_to_model = true;
  result.bytes = whole.take_view();
  return result;
}

std::optional<CompressorOutput> lossless_unless_lossy_pays(
    std::optional<CompressorOutput> out, FactorViews views, const Compressor& inner,
    const tokens::Counter& counter, std::string_view input, const Request& request) {
  if (!out || out->lossless_to_model.value_or(false) || request.context_tokens <= 0) return out;
  Option whole = cheaper_view(input, true, counter, views);
  auto lossy = static_cast<std::int64_t>(counter.count(out->bytes));
  auto full = static_cast<std::int64_t>(whole.tokens(counter));
  if (lossy_view_pays(full - lossy, lossy, request.context_tokens, request.context_cached))
    return out;
  return lossless_output(std::move(whole), inner);
}

std::optional<CompressorOutput> choose_factored(FactorViews views, const Compressor& inner,
                                                const tokens::Counter& counter,
                                                std::string_view input, const Request& request) {
  if (views.lossless_only) return lossless_output(cheaper_view(input, true, counter, views), inner);
  std::optional<CompressorOutput> out = inner.compress(input, request.query);
  if (request.literal_lines) return out;
  std::string_view base = out ? std::string_view(out->bytes) : input;
  Option best = best_view(input, out ? &out->bytes : nullptr, counter, views);
  const auto budget = static_cast<std::size_t>(std::max<std::int64_t>(request.budget_tokens, 0));
  // A token is at least one byte: a view no longer than the budget in bytes fits it.
  if (budget > 0 && best.bytes().size() > budget && best.tokens(counter) > budget) {
    std::optional<factor::Fitted> fitted =
        factor::fit_budget(base, request.query, request.budget_tokens, kMarkerNeedle, counter);
    if (fitted && fitted->tokens < best.tokens(counter)) {
      best = Option(base, std::move(fitted->view), false);
    }
  }
  if (!best.has_view())
    return lossless_unless_lossy_pays(std::move(out), views, inner, counter, input, request);
  CompressorOutput result;
  if (out) result = std::move(*out);
  result.method = result.method.empty() ? std::string(inner.type()) : result.method;
  result.method += "+factored";
  // Lossless exactly when nothing was elided: the view then expands to the input.
  result.lossless_to_model = best.lossless();
  result.bytes = best.take_view();
  return lossless_unless_lossy_pays(std::move(result), views, inner, counter, input, request);
}

}  // namespace

std::unique_ptr<Compressor> make_factored(std::unique_ptr<Compressor> inner,
                                          const tokens::Counter& counter, FactorViews views) {
  return factor::make_view_layer(std::move(inner), counter,
                                 std::bind_front(choose_factored, views));
}

std::unique_ptr<Compressor> make_lossless_factored(std::string_view type,
                                                   const tokens::Counter& counter,
                                                   FactorViews views) {
  views.lossless_only = true;
  return make_factored(make_declining_compressor(type), counter, views);
}

}  // namespace caveman::compress
