// caveman/compressor.h — the compressor contract, the safety ladder and the registry.
//
// A Compressor is a pure, deterministic function of (input bytes, query): same arguments,
// same output bytes, in every process. It never counts tokens, never touches the recovery
// store and never uses the network; the Engine does those. "Failing" (returning nullopt)
// is normal and means "forward the original bytes". Compressors are immutable after
// construction and safe to call concurrently. The Registry owns its compressors.
#ifndef CAVEMAN_COMPRESSOR_H_
#define CAVEMAN_COMPRESSOR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace caveman {

namespace tokens {
class Counter;
}

// The safety ladder (docs/spec/pipeline.md#safety). Every shipped compressor is S4 (lossy, needs
// CCR).
enum class SafetyClass { kS0, kS1, kS2, kS3, kS4, kUnknown };

struct SafetyInfo {
  bool valid;
  bool byte_safe;
  bool requires_ccr;
  bool reversible;  // default lossless_to_model
};

SafetyInfo safety_info(SafetyClass c);
std::string_view safety_name(SafetyClass c);  // "S0".."S4", "S?" for unknown

struct CompressorOutput {
  std::string bytes;
  std::string method;                      // empty → the compressor's type
  std::optional<bool> lossless_to_model;   // empty → the safety class default
  std::string recovery_metadata;           // stored beside the handle (a11y uid map)
};

// What a caller asks of one compression beyond the bytes.
struct Request {
  std::string_view query;          // relevance hint; empty = query-agnostic
  std::int64_t budget_tokens = 0;  // > 0: a view still larger is cut to about this size
  // The prompt the output joins (0 = unknown) and whether the provider caches it: a view that
  // elides content is preferred over a lossless one only when lossy_view_pays.
  std::int64_t context_tokens = 0;
  bool context_cached = true;
  // A file read kept edit-safe (docs/engine.md#the-listing-contract-read-tool-gutters): every
  // line shown is the file's own, so no factored blocks; hidden lines sit behind markers only.
  bool literal_lines = false;
  // A page fetched from the web (WebFetch, a browser): HTML may be read as its page text.
  // Otherwise HTML is a file the agent may edit and gets lossless views only.
  bool page_text = false;
};

// Whether a lossy view that saves `saved` tokens and keeps `view` pays for itself in a prompt
// of `context` tokens (docs/spec/pipeline.md, step 9). A model may need what the view elides
// (a body of the source file it opened, a line of the grep it ran); assumed for one view in
// four, such a retrieve costs a re-read of the whole prompt (a tenth of its price when cached)
// and keeps the view in the history beside the original. A token kept or saved is worth twice
// its price in a cached session (written once, read on the turns after) and three times in an
// uncached one (sent again on each later turn).
inline bool lossy_view_pays(std::int64_t saved, std::int64_t view, std::int64_t context,
                            bool cached) {
  std::int64_t weight = cached ? 2 : 3;
  std::int64_t reread = cached ? context / 10 : context;
  return 3 * weight * saved >= weight * view + reread;
}

class Compressor {
 public:
  virtual ~Compressor() = default;
  // Registry key, e.g. "json", "toolschema-annotations".
  virtual std::string_view type() const = 0;
  virtual SafetyClass safety_class() const { return SafetyClass::kS4; }
  // Compress `input`. `query` is a relevance hint; empty means query-agnostic and must
  // behave exactly like no query. nullopt = cannot improve this input (pass through).
  virtual std::optional<CompressorOutput> compress(std::string_view input,
                                                   std::string_view query) const = 0;
  // The same with every request field; compressors that honour a token budget override it.
  virtual std::optional<CompressorOutput> compress_with(std::string_view input,
                                                        const Request& request) const {
    return compress(input, request.query);
  }
};

// Maps registry keys to compressors. Iteration order (types()) is sorted by key.
class Registry {
 public:
  Registry() = default;
  Registry(Registry&&) = default;
  Registry& operator=(Registry&&) = default;

  // Adds or replaces the compressor for its type().
  void add(std::unique_ptr<Compressor> compressor);
  const Compressor* find(std::string_view type) const;
  std::vector<std::string> types() const;

  // The 18 shipped compressors. `counter` is used only by the best-of JSON selector
  // (CAVE_ENGINE_TOON=best-of, read by the caller and passed as `toon_best_of`).
  static Registry default_registry(const tokens::Counter& counter, bool toon_best_of = false);

  // Capability manifest (docs/spec/pipeline.md#manifest), compact JSON without trailing newline:
  // {"schema_version":1,"registry_sha256":…,"capabilities":[…]} — always describes the
  // default registry, one entry per type except toolschema-annotations.
  static std::string capability_manifest_json();

 private:
  std::map<std::string, std::unique_ptr<Compressor>, std::less<>> by_type_;
};

}  // namespace caveman

#endif  // CAVEMAN_COMPRESSOR_H_
