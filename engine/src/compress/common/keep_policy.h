// The keep rules the unit-eliding compressors share (docs/spec/compressors.md): a unit is a
// line, a table row or a text section. Each compressor adds its own rules (problem words,
// stack frames, …) between KeepPolicy::at_ends() and keep_relevant_and_novel().
#ifndef CAVEMAN_COMPRESS_COMMON_KEEP_POLICY_H_
#define CAVEMAN_COMPRESS_COMMON_KEEP_POLICY_H_

#include <cstddef>
#include <string_view>
#include <vector>

namespace caveman::compress {

// One compressor's numbers, kept together so they read as its policy.
struct KeepPolicy {
  std::size_t min_units = 0;  // fewer units: the input passes through
  std::size_t head = 0;       // the first units, always kept
  std::size_t tail = 0;       // the last units, always kept
  int query_limit = 0;        // at most this many query-relevant units added (0: none)

  // Unit `i` of `n` is among the head or the tail.
  bool at_ends(std::size_t i, std::size_t n) const { return i < head || i + tail >= n; }
};

// Adds to `keep` (seeded by the compressor's own rules) up to policy.query_limit units that
// are relevant to `query`, then every unit the redundancy gate calls novel. In that order: the
// gate's classes are seeded by every unit kept so far.
void keep_relevant_and_novel(const std::vector<std::string_view>& units, std::string_view query,
                             const KeepPolicy& policy, std::vector<bool>& keep);

}  // namespace caveman::compress

#endif  // CAVEMAN_COMPRESS_COMMON_KEEP_POLICY_H_
