// Factories for the shipped compressors (docs/spec/compressors.md). Each lives in its own file.
#ifndef CAVEMAN_COMPRESS_COMPRESSORS_H_
#define CAVEMAN_COMPRESS_COMPRESSORS_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "caveman/compressor.h"
#include "caveman/tokens.h"

namespace caveman::compress {

// One compressor's whole algorithm: a pure function of the input and the query hint, safe to
// call concurrently (Compressor's contract).
using CompressFn =
    std::function<std::optional<CompressorOutput>(std::string_view input, std::string_view query)>;

// A compressor of registry key `type` (safety class S4, no token budget) that runs `compress`:
// the class every compressor shares, so that each compressor file holds only its algorithm.
std::unique_ptr<Compressor> make_compressor(std::string_view type, CompressFn compress);

// `bytes` under `method` (empty: the compressor's type), as lossless as the safety class says.
inline CompressorOutput output_of(std::string bytes, std::string method = {}) {
  CompressorOutput out;
  out.bytes = std::move(bytes);
  out.method = std::move(method);
  return out;
}

std::unique_ptr<Compressor> make_json_compressor();
std::unique_ptr<Compressor> make_log_compressor();
// `needle_safe` (the registry's): a body is elided only when none of its lines is rare or a
// failure signal (selector.h). false elides every body the rules pick: for tests of those rules.
std::unique_ptr<Compressor> make_code_compressor(bool needle_safe = true);
// `counter` prices a word-diff line against the removed/added pair it replaces.
std::unique_ptr<Compressor> make_diff_compressor(const tokens::Counter& counter = tokens::default_counter());
std::unique_ptr<Compressor> make_search_result_compressor();
std::unique_ptr<Compressor> make_text_compressor();
std::unique_ptr<Compressor> make_html_compressor();
std::unique_ptr<Compressor> make_tabular_compressor();
std::unique_ptr<Compressor> make_config_compressor();
std::unique_ptr<Compressor> make_toolschema_compressor();
std::unique_ptr<Compressor> make_toolschema_annotations_compressor();
std::unique_ptr<Compressor> make_toon_compressor();
// `counter` measures the view against a request's budget (over it: the outline, a11y_outline.h).
std::unique_ptr<Compressor> make_a11y_compressor(const tokens::Counter& counter = tokens::default_counter());
std::unique_ptr<Compressor> make_repetition_compressor();
std::unique_ptr<Compressor> make_terminal_compressor();
// CAVE_ENGINE_TOON=best-of: TOON when it has fewer tokens, else JSON elision
// (docs/spec/compressors.md#best-of-json).
std::unique_ptr<Compressor> make_best_of_json_compressor(const tokens::Counter& counter);

// The factoring layer (docs/formats.md) over a line-oriented compressor: its output, or the
// input when it declines, as a factored view when that costs fewer tokens of `counter`.
// Line templates are always tried; `views` adds the views of one kind of payload.
struct FactorViews {
  bool grep = false;   // grep output grouped by file (search results)
  bool prose = false;  // hard-wrapped paragraphs unwrapped (text)
  bool sections = false;  // repeated config sections as one table (config)
  // Lossless views only: the inner compressor's output is not used and no token budget cuts
  // the view (types whose lines are all facts: xml, records, diagnostics).
  bool lossless_only = false;
};
std::unique_ptr<Compressor> make_factored(std::unique_ptr<Compressor> inner,
                                          const tokens::Counter& counter,
                                          FactorViews views = {});

// The json view choice (docs/formats.md, "JSON tables"): `inner`'s output, that output with
// its tables factored, or a lossless table view of the input, whichever has fewest tokens.
std::unique_ptr<Compressor> make_json_views(std::unique_ptr<Compressor> inner,
                                            const tokens::Counter& counter);

// The tabular view choice (docs/formats.md, "Aligned tables", "CSV columns"): `inner`'s
// output, or a lossless aligned-table or CSV-columns view of the input when it costs fewer
// tokens than the input (and at most 10% more than `inner`'s output).
std::unique_ptr<Compressor> make_tabular_views(std::unique_ptr<Compressor> inner,
                                               const tokens::Counter& counter);

// Lossless-only types (docs/engine.md): the input as a factored view when that costs fewer
// tokens, else a pass-through. Nothing is elided.
std::unique_ptr<Compressor> make_lossless_factored(std::string_view type,
                                                   const tokens::Counter& counter,
                                                   FactorViews views = {});

// A compressor that always declines; used for types whose implementation has not landed.
std::unique_ptr<Compressor> make_declining_compressor(std::string_view type);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMPRESSORS_H_
