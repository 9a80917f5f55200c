// scan_rank.h — the original cavemem's recall ranking (its full scan; docs/mem.md#recall), kept as
// a reference to measure the FTS5 path against: every recall loads every current memory,
// tokenizes it (lowercase, split on non-letters/digits, 29 stopwords) and scores it with BM25
// (k1 1.5, b 0.75, idf ln(1 + (N − df + 0.5)/(df + 0.5))) in process. Used by bench/mem_bench
// (the speed-up) and the ranking test (the quality comparison); not by cavemem itself.
#ifndef CAVEMAN_MEM_SCAN_RANK_H_
#define CAVEMAN_MEM_SCAN_RANK_H_

#include <string>
#include <string_view>
#include <vector>

#include "store.h"

namespace caveman::mem {

struct ScanHit {
  std::string id;
  double score = 0;
};

// Lowercased (ASCII) letter/digit runs of `text`, original stopwords removed.
std::vector<std::string> scan_tokenize(std::string_view text);

// Ranks `docs` (id, text) for `query`: score ≥ threshold, score desc then id asc, ≤ limit.
std::vector<ScanHit> scan_rank(const std::vector<std::pair<std::string, std::string>>& docs,
                               std::string_view query, int limit, double threshold);

// The original's recall: load every current row from `store`, then scan_rank.
Result<std::vector<ScanHit>> scan_recall(MemStore& store, std::string_view query, int limit,
                                         double threshold);

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_SCAN_RANK_H_
