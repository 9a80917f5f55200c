// caveman/tokens.h — token counting for every ratio, gate and budget Caveman reports.
//
// Counter is an immutable strategy object: count() and encode() are const and safe to call
// from any number of threads at once. default_counter() returns a process-wide o200k_base
// counter (tiktoken-exact, vocabulary embedded in the binary, no file or network access).
// Counting never fails: any byte string, valid UTF-8 or not, has a count. Special tokens such
// as <|endoftext|> are counted as ordinary text (Caveman counts content, not chat framing).
// Invalid UTF-8: each byte that is not part of a well-formed sequence is split like a U+FFFD
// symbol would be, and the byte-level BPE encodes the raw bytes. Character classes follow
// Unicode 15.0 (the tables in engine/src/text). Details: engine/src/tokens/pretokenize.h.
#ifndef CAVEMAN_TOKENS_H_
#define CAVEMAN_TOKENS_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace caveman::tokens {

class Counter {
 public:
  virtual ~Counter() = default;
  // Short stable name reported as `token_count_basis`, e.g. "o200k_base".
  virtual std::string_view name() const = 0;
  // Number of tokens in `text`. Empty input → 0.
  virtual std::size_t count(std::string_view text) const = 0;
};

// Approximation used only where no BPE is wanted: max(1, runes/4), 0 for empty input.
class ApproxCounter final : public Counter {
 public:
  std::string_view name() const override { return "approx-chars/4"; }
  std::size_t count(std::string_view text) const override;
};

// Exact byte-level BPE with tiktoken's o200k_base ranks and split pattern.
class O200kCounter final : public Counter {
 public:
  std::string_view name() const override { return "o200k_base"; }
  std::size_t count(std::string_view text) const override;
  // Token ids, identical to tiktoken's encode_ordinary().
  std::vector<std::uint32_t> encode(std::string_view text) const;
};

// The shared o200k_base instance (constructed on first use, never destroyed).
const O200kCounter& default_counter();

}  // namespace caveman::tokens

#endif  // CAVEMAN_TOKENS_H_
