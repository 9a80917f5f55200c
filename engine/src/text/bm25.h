// Deterministic BM25 (docs/spec/ranking.md#bm25) and the query-relevance keep helper
// (docs/spec/compressors.md#query-relevance). Scores are unnormalised and comparable only within
// one call.
#ifndef CAVEMAN_TEXT_BM25_H_
#define CAVEMAN_TEXT_BM25_H_

#include <string>
#include <string_view>
#include <vector>

namespace caveman::text {

// Lowercased terms of ≥ 2 bytes that are not stop-words.
std::vector<std::string> bm25_terms(std::string_view text);

// One score per doc (k1 = 1.5, b = 0.75). Query terms are a set. Empty query or no
// docs → all zeros.
std::vector<double> bm25_scores(const std::vector<std::string_view>& docs, std::string_view query);

// The docs keep_query_relevant would mark, best first (ties by index).
std::vector<std::size_t> query_relevant(const std::vector<std::string_view>& docs,
                                        std::string_view query, const std::vector<bool>& keep,
                                        int limit, double threshold = 0.30);

// docs/spec/compressors.md#query-relevance: when `query` is non-empty and the best score is > 0,
// marks up to `limit` not-yet-kept docs with score/best ≥ `threshold` as kept, best first, ties by
// index. Only ever adds keeps.
void keep_query_relevant(const std::vector<std::string_view>& docs, std::string_view query,
                         std::vector<bool>& keep, int limit, double threshold = 0.30);

}  // namespace caveman::text

#endif  // CAVEMAN_TEXT_BM25_H_
