// caveman/engine.h — the compression engine: detect, compress, retrieve, stats.
//
// Start here. An Engine pairs a compressor Registry with a token Counter and an optional
// recovery Store. compress() never fails: every problem ends in a pass-through result whose
// output is the caller's exact bytes (fail open); a store error is reported in
// CompressResult::error. All methods are const and thread-safe when the store is.
// The Engine does not own the counter (it must outlive the engine); it shares the store.
#ifndef CAVEMAN_ENGINE_H_
#define CAVEMAN_ENGINE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "caveman/ccr.h"
#include "caveman/compressor.h"
#include "caveman/status.h"
#include "caveman/tokens.h"

namespace caveman {

// The 15 content types, and the registry keys reachable only by forcing `type`.
inline constexpr std::string_view kContentTypes[] = {
    "json", "log",  "code", "diff",     "search-result", "text",
    "toon", "html", "a11y", "terminal", "tabular",       "config",
    "xml",  "diagnostics", "records"};
inline constexpr std::string_view kBasisInferred = "inferred";
inline constexpr std::int64_t kDefaultBudgetTokens = 25000;

struct Options {
  std::string mode;   // "compress" transforms; anything else (incl. empty) = record
  std::string type;   // forced registry key; empty (or "auto") = detect
  std::string query;  // relevance hint; empty = query-agnostic
  bool external_recovery = false;  // caller stored the original: run S4 without a store
  // A line-oriented view still over this many o200k tokens after factoring is cut by eliding
  // its most repetitive lines behind markers (docs/formats.md, "budget"); 0 = no budget.
  std::int64_t budget_tokens = kDefaultBudgetTokens;
  // A lossy view (one that needs a retrieve to see everything) must save at least this many
  // tokens, or the input passes through: a small saving does not pay for one retrieve.
  // Lossless views are always allowed. 0 = any saving (the CLI's default).
  std::int64_t min_lossy_saving_tokens = 0;
  // The prompt this payload joins (a proxy knows it; 0 = unknown: no such rule), and whether
  // the provider caches it. A lossy view is then kept only when it pays for the retrieves it
  // may cause (lossy_view_pays).
  std::int64_t context_tokens = 0;
  bool context_cached = true;
  // A file read (a Read-tool or `cat -n` listing, numbered consecutively) is read to be
  // edited: every line must be the file's line. false (the default): its view is the listing
  // with its gutter thinned and nothing else — no compressor rewrites or elides its lines
  // (markup stays byte for byte) — except a log's, whose hidden lines sit behind markers that
  // name their range. true: compressors may give any file read such a view.
  bool file_read_lossy = false;
  // The input is a page the agent fetched from the web (WebFetch, a browser): HTML may be
  // given as its page text. false (the default): HTML gets lossless views only.
  bool page_text = false;
  // The file the input shows, when the tool that produced it names one (a Read's file_path,
  // the one file a `cat`/`head`/`sed -n` command prints). Its extension is a hint detection
  // weighs against the content (docs/spec/detect.md#hints), never proof on its own.
  std::string source_path;
};

struct CompressResult {
  std::string output;  // compressed bytes, or the exact input on pass-through
  std::string content_type;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  std::string token_count_basis;
  double ratio = 0;  // (before − after) / before; exactly 0 on pass-through
  std::string basis{kBasisInferred};
  std::string recovery_handle;  // empty on pass-through and with external recovery
  std::string method;           // empty on pass-through
  std::optional<bool> lossless_to_model;
  std::string error;  // codes::kCcrBudgetExceeded / codes::kCcrUnavailable when the store failed

  bool passed_through() const { return recovery_handle.empty() && method.empty() && ratio == 0; }
  // One compact JSON object (no output, no newline): content_type, tokens_before,
  // tokens_after, token_count_basis, ratio, basis, recovery_handle?, method?,
  // lossless_to_model?, error?.
  std::string report_json() const;
};

struct SimResult {
  std::string content_type;
  std::string compressor;
  std::string safety_class;
  std::int64_t tokens_before = 0;
  std::int64_t tokens_after = 0;
  std::string token_count_basis;
  double ratio = 0;
  bool requires_ccr = false;
  bool recoverable = true;
  std::string method;
  std::optional<bool> lossless_to_model;
  std::string to_json() const;
};

// Content type of `input` (docs/spec/detect.md): one of the thirteen auto-detectable types.
// Deterministic; never consults a registry. Line-number gutters and <file> wrappers are
// looked through.
std::string detect(std::string_view input);
// The same, with the name of the file the input shows (Options::source_path).
std::string detect(std::string_view input, std::string_view source_path);

// Decodes a factored view (docs/formats.md) into the exact bytes it stands for, without the
// recovery store; text without factored blocks comes back unchanged and elision markers
// stay as they are. kInvalidArgument (codes::kInvalidView) when a block is cut short.
Result<std::string> expand_view(std::string_view view);

class Engine {
 public:
  // `store` may be null: then S4 compressors run only with external_recovery.
  explicit Engine(std::shared_ptr<ccr::Store> store,
                  const tokens::Counter& counter = tokens::default_counter());
  Engine(std::shared_ptr<ccr::Store> store, const tokens::Counter& counter, Registry registry);

  CompressResult compress(std::string_view input, const Options& options) const;
  // Dry run of compress(): never writes the store, ignores the no-store gate.
  SimResult simulate(std::string_view input, const Options& options) const;

  // Exact original bytes behind a blob handle or typed-object id.
  // Errors: kNotFound (codes::kUnknownHandle), kUnavailable when there is no store.
  Result<std::string> retrieve(std::string_view handle) const;
  // Query-narrowed view of the original (whole records only, docs/spec/ccr.md#query-views); the
  // exact original when the query is blank or no smaller view exists.
  Result<std::string> retrieve_query(std::string_view handle, std::string_view query) const;
  Result<std::string> retrieve_metadata(std::string_view handle) const;

  Result<ccr::StoreStats> stats() const;

  const tokens::Counter& counter() const { return *counter_; }
  const Registry& registry() const { return registry_; }
  ccr::Store* store() const { return store_.get(); }

 private:
  std::shared_ptr<ccr::Store> store_;
  const tokens::Counter* counter_;
  Registry registry_;
};

}  // namespace caveman

#endif  // CAVEMAN_ENGINE_H_
