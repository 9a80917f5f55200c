// SegmentMemo: o200k_base counts of texts that share most of their lines (a compressor's
// output keeps most input lines verbatim), without counting the shared lines twice.
//
// Why the totals are exact: a text is cut into segments just after every '\n' whose next
// byte is printable ASCII other than '/' (0x21–0x7E). No o200k pre-tokenizer piece crosses
// such a cut: a piece holding that '\n' is either a white-space piece (it ends at the last
// CR/LF of its white-space run, and the run ends at the cut) or a punctuation piece
// `[^\s\p{L}\p{N}]+[\r\n/]*` (whose tail stops at the next byte, neither CR, LF nor '/');
// no other alternative contains a line feed, and matching never looks behind its start.
// So count(text) is the sum of the standalone counts of its segments, and a segment's count
// can be reused wherever the same bytes occur as a segment again.
//
// Not thread-safe (one per call). Remembered segments are views: the texts passed with
// `remember` must outlive the memo.
#ifndef CAVEMAN_TOKENS_SEGMENT_MEMO_H_
#define CAVEMAN_TOKENS_SEGMENT_MEMO_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "caveman/tokens.h"

namespace caveman::tokens {

class SegmentMemo {
 public:
  explicit SegmentMemo(const O200kCounter& counter) : counter_(&counter) {}

  // counter.count(text); with `remember` the segments' counts are kept for later calls.
  std::size_t count(std::string_view text, bool remember);

  // The text cut at the points described above, in order (for tests).
  static std::vector<std::string_view> segments(std::string_view text);

 private:
  struct Slot {
    std::size_t hash = 0;
    const char* data = nullptr;
    std::uint32_t len = 0;
    std::uint32_t count = 0;
    bool used = false;
  };
  const Slot* find(std::string_view seg, std::size_t hash) const;
  void insert(std::string_view seg, std::size_t hash, std::size_t count);
  void grow();

  const O200kCounter* counter_;
  std::vector<Slot> slots_;
  std::size_t used_ = 0;
};

}  // namespace caveman::tokens

#endif  // CAVEMAN_TOKENS_SEGMENT_MEMO_H_
