#include "caveman/engine.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <future>
#include <optional>
#include <system_error>
#include <variant>
#include <vector>

#include "caveman/base/codes.h"
#include "caveman/base/text.h"
#include "compress/common/indent_blocks.h"
#include "compress/factor/block_syntax.h"
#include "compress/factor/expand.h"
#include "core/detect_rules.h"
#include "core/wrappers.h"
#include "json/json.h"
#include "recovery/retrieve_query.h"
#include "text/utf8.h"
#include "tokens/segment_memo.h"

namespace caveman {
namespace {

bool toon_best_of_from_env() {
  const char* v = std::getenv("CAVE_ENGINE_TOON");
  if (v == nullptr) return false;
  return base::iequals_ascii(v, "best-of");
}

// What a compressor produced, after wrappers were put back; nullopt = pass through.
struct Attempt {
  std::string output;
  std::string compressor;
  SafetyClass safety = SafetyClass::kUnknown;
  std::string method;
  std::optional<bool> lossless;
  std::string metadata;
  std::int64_t tokens_after = 0;  // counted once here, reused by compress and simulate
};

// Inputs this large count their own tokens on a second thread while detection and
// compression run (about a sixth of a large JSON payload's work); smaller ones inline.
constexpr std::size_t kParallelCountBytes = std::size_t{1} << 20;
constexpr std::size_t kMemoMaxBytes = std::size_t{16} << 20;

// Token counts of one compress/simulate call. With o200k the input's line segments are
// memoized, so the output's unchanged lines are not counted a second time (same totals:
// tokens/segment_memo.h). `input` must outlive the CallCounter; only the counting thread
// touches the memo until input_tokens() has joined it.
class CallCounter {
 public:
  explicit CallCounter(const tokens::Counter& counter)
      : counter_(&counter), o200k_(dynamic_cast<const tokens::O200kCounter*>(&counter)) {
    if (o200k_ != nullptr) memo_.emplace(*o200k_);
  }

  void start_input(std::string_view input) {
    // The memo costs ~40 bytes a line; past this size the output is a budget-sized view whose
    // own count is cheap, so memory wins over reuse.
    if (input.size() >= kMemoMaxBytes) memo_.reset();
    if (input.size() >= kParallelCountBytes) {
      try {
        pending_ = std::async(std::launch::async, [this, input] { return count(input, true); });
        return;
      } catch (const std::system_error&) {
        // No thread to be had: count inline.
      }
    }
    before_ = count(input, true);
  }
  std::int64_t input_tokens() {
    if (pending_.valid()) before_ = pending_.get();
    return before_;
  }
  std::int64_t output(std::string_view text) {
    input_tokens();  // the memo is complete (and ours again) once the input is counted
    return count(text, false);
  }

 private:
  std::int64_t count(std::string_view text, bool remember) {
    return static_cast<std::int64_t>(memo_ ? memo_->count(text, remember) : counter_->count(text));
  }
  const tokens::Counter* counter_;
  const tokens::O200kCounter* o200k_;
  std::optional<tokens::SegmentMemo> memo_;
  std::future<std::int64_t> pending_;
  std::int64_t before_ = 0;
};

}  // namespace

Engine::Engine(std::shared_ptr<ccr::Store> store, const tokens::Counter& counter)
    : Engine(std::move(store), counter,
             Registry::default_registry(counter, toon_best_of_from_env())) {}

Engine::Engine(std::shared_ptr<ccr::Store> store, const tokens::Counter& counter,
               Registry registry)
    : store_(std::move(store)), counter_(&counter), registry_(std::move(registry)) {}

namespace {

bool has_listing(const std::vector<core::Layer>& layers) {
  return std::any_of(layers.begin(), layers.end(),
                     [](const core::Layer& l) { return std::holds_alternative<core::Listing>(l); });
}

// True when every gutter numbers its lines consecutively, as a Read does: the numbers follow
// from the order of the lines and the offset the reader asked for. `grep -n` numbers are not
// implied by anything, so a view that drops them leaves out content.
bool numbers_implied(const std::vector<core::Layer>& layers) {
  return std::all_of(layers.begin(), layers.end(), [](const core::Layer& l) {
    const auto* listing = std::get_if<core::Listing>(&l);
    return listing == nullptr || core::numbers_consecutive(*listing);
  });
}

// Whether every gutter starts at line 1: the read began at the top of the file.
bool listing_from_first_line(const std::vector<core::Layer>& layers) {
  return std::all_of(layers.begin(), layers.end(), [](const core::Layer& l) {
    const auto* listing = std::get_if<core::Listing>(&l);
    return listing == nullptr || (!listing->numbers.empty() && listing->numbers.front() == 1);
  });
}

std::vector<core::Layer> without_listings(std::vector<core::Layer> layers) {
  std::erase_if(layers, [](const core::Layer& l) { return std::holds_alternative<core::Listing>(l); });
  return layers;
}

// How a view's gutters are drawn again: sparse, dropped (a limited Read of JSON), or as a
// file read's, which declines a line that is not the file's own (core::rewrap_file_read).
enum class GutterPlan { kSparse, kDropped, kFileRead };

// Steps 8–11 for one compressor output: rewrap it, count it, keep it only when it is shorter
// than `reference` tokens (the input, or the view that keeps all of it) and, if it leaves
// content out, when what it saves beyond that pays (lossy_view_pays).
std::optional<Attempt> weigh(const Compressor& c, CompressorOutput out,
                             const std::vector<core::Layer>& layers, GutterPlan plan,
                             std::int64_t reference, CallCounter& counter, const Options& options) {
  SafetyInfo safety = safety_info(c.safety_class());
  Attempt a;
  if (plan == GutterPlan::kFileRead) {
    std::optional<std::string> shown = core::rewrap_file_read(std::move(out.bytes), layers);
    if (!shown) return std::nullopt;
    a.output = std::move(*shown);
  } else {
    a.output = plan == GutterPlan::kDropped
                   ? core::rewrap(std::move(out.bytes), without_listings(layers))
                   : core::rewrap(std::move(out.bytes), layers, core::GutterStyle::kSparse);
  }
  a.tokens_after = counter.output(a.output);
  if (a.tokens_after >= reference) return std::nullopt;
  // Content the model reads in full (a factored view, even under a Read gutter whose numbers
  // it drops) never needs a retrieve, so only a view that leaves content out is weighed
  // against one.
  bool content_lossless =
      out.lossless_to_model.value_or(safety.reversible) && numbers_implied(layers);
  bool lossless = content_lossless && layers.empty();
  std::int64_t saved = reference - a.tokens_after;
  if (!content_lossless && saved < options.min_lossy_saving_tokens) return std::nullopt;
  // A factored view loses nothing, yet its lines are not the input's: a model that looks for
  // a line by its exact text (agents quote what they act on) asks for the original. So in a
  // prompt of known size it must pay like a view that leaves content out.
  if (options.context_tokens > 0 &&
      (!content_lossless || compress::factor::contains_block(a.output)) &&
      !lossy_view_pays(saved, a.tokens_after, options.context_tokens, options.context_cached)) {
    return std::nullopt;
  }
  a.compressor = std::string(c.type());
  a.safety = c.safety_class();
  a.method = out.method.empty() ? a.compressor : out.method;
  // Under a gutter or <file> wrapper the view no longer expands to the caller's bytes.
  a.lossless = lossless;
  a.metadata = std::move(out.recovery_metadata);
  return a;
}

// Steps 1–2 and 6–11 of the pipeline (docs/spec/pipeline.md#order), shared by compress and
// simulate. `ct` receives the content type even when the attempt fails.
std::optional<Attempt> attempt(const Registry& registry, CallCounter& counter,
                               std::string_view input, const Options& options,
                               bool store_available, std::string* ct) {
  core::Unwrapped u = core::unwrap_input(input);
  // Without a wrapper the body is the input: drop the copy so it does not sit beside the
  // compressor's working set.
  std::string_view body = u.body;
  if (u.layers.empty()) {
    std::string().swap(u.body);
    body = input;
  }
  std::string forced = options.type == "auto" ? "" : options.type;
  *ct = forced.empty() ? core::detect_body(body, options.source_path) : forced;
  // A limited Read of pretty-printed JSON is no JSON document, so the json compressor cannot
  // take it; its line numbers (about two tokens a line) go at least, as they do when a whole
  // document is minified. The handle keeps the listing.
  bool drop_gutter = has_listing(u.layers) && core::looks_json_fragment(body) &&
                     (*ct != "json" || !json::is_valid(text::trim_space(body)));
  if (options.mode != "compress") return std::nullopt;
  const Compressor* c = registry.find(*ct);
  if (c == nullptr) return std::nullopt;
  SafetyInfo safety = safety_info(c->safety_class());
  if (!safety.valid) return std::nullopt;
  if (safety.requires_ccr && !store_available) return std::nullopt;
  // A file read is edit-safe unless the caller asks otherwise (Options::file_read_lossy): every
  // line shown is the file's own and every line hidden sits behind a marker that names its
  // range and the re-read that shows it; that re-read (a window of the file) comes back whole.
  // docs/engine.md#the-listing-contract-read-tool-gutters.
  bool file_read = has_listing(u.layers) && numbers_implied(u.layers) && !options.file_read_lossy;
  // A log or a table read from the top is read for what it says, not edited line by line: its
  // lossless factored blocks are allowed (they expand to the exact lines).
  bool read_to_edit = file_read && *ct != "log" && *ct != "tabular";
  std::optional<CompressorOutput> out;
  if (file_read && drop_gutter) {
    out = CompressorOutput{std::string(body), "gutter", std::nullopt, ""};
  } else if (!file_read || listing_from_first_line(u.layers)) {
    try {
      out = c->compress_with(body,
                             Request{options.query, options.budget_tokens, options.context_tokens,
                                     options.context_cached, read_to_edit, options.page_text});
    } catch (const std::exception&) {
      out.reset();  // a library threw inside a compressor: its output is dropped (fail open)
    }
  }
  if (!out && drop_gutter) out = CompressorOutput{std::string(body), "gutter", std::nullopt, ""};
  // A Read's numbers alone thin out (near a third of its tokens) with every byte of the text
  // kept: that view is the one a compressor's output must beat, and the answer when none does.
  std::optional<Attempt> thinned;
  if (!drop_gutter && has_listing(u.layers) && numbers_implied(u.layers)) {
    thinned = weigh(*c, CompressorOutput{std::string(body), "gutter", true, ""}, u.layers,
                    GutterPlan::kSparse, counter.input_tokens(), counter, options);
  }
  std::int64_t reference = thinned ? thinned->tokens_after : counter.input_tokens();
  GutterPlan plan = drop_gutter    ? GutterPlan::kDropped
                    : read_to_edit ? GutterPlan::kFileRead
                                   : GutterPlan::kSparse;
  std::optional<Attempt> a;
  if (out) a = weigh(*c, std::move(*out), u.layers, plan, reference, counter, options);
  // Nested data read as a file: its innermost blocks hidden behind markers that state their
  // lines, when that beats the compressor's view (docs/formats.md#indented-blocks).
  if (plan == GutterPlan::kFileRead && listing_from_first_line(u.layers) &&
      (*ct == "json" || *ct == "config")) {
    if (std::optional<std::string> view = compress::elide_indented_blocks(body, options.query)) {
      std::optional<Attempt> b =
          weigh(*c, CompressorOutput{std::move(*view), *ct + "+blocks", false, ""}, u.layers,
                GutterPlan::kFileRead, reference, counter, options);
      if (b && (!a || b->tokens_after < a->tokens_after)) a = std::move(b);
    }
  }
  return a ? a : thinned;
}

}  // namespace

CompressResult Engine::compress(std::string_view input, const Options& options) const {
  CompressResult r;
  CallCounter counter(*counter_);
  counter.start_input(input);
  r.token_count_basis = std::string(counter_->name());

  bool store_available = store_ != nullptr || options.external_recovery;
  std::optional<Attempt> a =
      attempt(registry_, counter, input, options, store_available, &r.content_type);
  r.tokens_before = counter.input_tokens();
  r.tokens_after = r.tokens_before;
  // The pass-through copy is made only when it is the answer: made up front, it would sit
  // beside the compressor's working set (a 64 MiB input held twice more).
  if (!a) {
    r.output = std::string(input);
    return r;
  }

  std::int64_t after = a->tokens_after;
  bool needs_store = safety_info(a->safety).requires_ccr && !options.external_recovery;
  if (needs_store) {
    Result<std::string> handle = [&] {
      ccr::Record rec{r.content_type, a->compressor, r.tokens_before, after,
                      std::string(input), a->metadata};
      return store_->put(rec);
    }();  // the record's copy of the input is gone before the output is moved in
    if (!handle.ok()) {
      r.error = handle.status().code() == Code::kResourceExhausted ? codes::kCcrBudgetExceeded
                                                                   : codes::kCcrUnavailable;
      r.output = std::string(input);
      return r;  // fail open: the caller forwards the original bytes
    }
    r.recovery_handle = std::move(handle).value();
  }
  r.output = std::move(a->output);
  r.tokens_after = after;
  r.ratio = r.tokens_before > 0
                ? static_cast<double>(r.tokens_before - after) / static_cast<double>(r.tokens_before)
                : 0.0;
  r.method = std::move(a->method);
  r.lossless_to_model = a->lossless;
  return r;
}

SimResult Engine::simulate(std::string_view input, const Options& options) const {
  SimResult s;
  CallCounter counter(*counter_);
  counter.start_input(input);
  s.token_count_basis = std::string(counter_->name());
  std::optional<Attempt> a = attempt(registry_, counter, input, options, true, &s.content_type);
  s.tokens_before = counter.input_tokens();
  s.tokens_after = s.tokens_before;
  if (!a) return s;
  SafetyInfo safety = safety_info(a->safety);
  s.compressor = a->compressor;
  s.safety_class = std::string(safety_name(a->safety));
  s.tokens_after = a->tokens_after;
  s.ratio = s.tokens_before > 0 ? static_cast<double>(s.tokens_before - s.tokens_after) /
                                      static_cast<double>(s.tokens_before)
                                : 0.0;
  s.requires_ccr = safety.requires_ccr;
  s.recoverable = !safety.requires_ccr || store_ != nullptr;
  s.method = a->method;
  s.lossless_to_model = a->lossless;
  return s;
}

Result<std::string> expand_view(std::string_view view) {
  std::optional<std::string> out = compress::factor::expand_blocks(view);
  if (!out) {
    return Status::InvalidArgument(
        codes::kInvalidView, "a factored block is cut short (fewer rows than its header states)");
  }
  return std::move(*out);
}

Result<std::string> Engine::retrieve(std::string_view handle) const {
  if (store_ == nullptr) {
    return Status::Unavailable(codes::kCcrUnavailable, "no recovery store is open");
  }
  return store_->get(handle);
}

Result<std::string> Engine::retrieve_query(std::string_view handle, std::string_view query) const {
  Result<std::string> original = retrieve(handle);
  if (!original.ok()) return original;
  return recovery::narrow_to_query(original.value(), query);
}

Result<std::string> Engine::retrieve_metadata(std::string_view handle) const {
  if (store_ == nullptr) {
    return Status::Unavailable(codes::kCcrUnavailable, "no recovery store is open");
  }
  return store_->get_metadata(handle);
}

Result<ccr::StoreStats> Engine::stats() const {
  if (store_ == nullptr) return ccr::StoreStats{};
  return store_->stats();
}

}  // namespace caveman
