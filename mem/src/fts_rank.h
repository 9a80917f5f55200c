// fts_rank.h — cavemem_bm25(), the FTS5 auxiliary ranking function recall orders by.
//
// It is FTS5's own bm25() with two changes: k1 = 1.5 (the original cavemem's constant) and
// the original's idf (docs/mem.md#recall), ln(1 + (N − df + 0.5) / (df + 0.5)), which is always
// positive. FTS5's built-in idf, ln((N − df + 0.5) / (df + 0.5)), is clamped to ~0 for any term
// found in half the rows or more, so a store of one or two memories could never recall anything
// above a threshold. Usage: `cavemem_bm25(fts_table, keep, skip, w_col0, w_col1, …)` → a score
// ≥ 0, higher is better (unlike bm25(), which is negated). `keep` > 0 promises that only the
// `keep` best rows are used (ORDER BY … DESC LIMIT keep, no filter afterwards): a row whose
// score, bounded with its matched positions as its length, is below the keep-th best exact
// score seen so far gets that bound instead of its exact score (skipping the row-length
// lookup); it still sorts below the cut. 0 ranks every row exactly. The first `skip` phrases of the MATCH
// expression are not scored: recall's pruned queries put a filter group first,
// `(filter…) AND ("a" OR "b" …)`, and only the second group counts. After the column weights
// the caller may pass the document frequency of each scored phrase, when it has already
// counted them; otherwise each is counted here with xQueryPhrase (a walk of its doclist).
// Registered per connection; never throws.
#ifndef CAVEMAN_MEM_FTS_RANK_H_
#define CAVEMAN_MEM_FTS_RANK_H_

#include <string>
#include <vector>

struct sqlite3;

namespace caveman::mem {

inline constexpr double kBm25K1 = 1.5;
inline constexpr double kBm25B = 0.75;

// The index tokens of each of `texts` as memories_fts's tokenizer (`porter unicode61
// remove_diacritics 2`) makes them for a query: "Migrations" → {"migrat"}, "café" → {"cafe"}.
// Recall looks the tokens up in an fts5vocab table. False when FTS5 or the tokenizer is
// missing or fails; never throws.
bool fts_query_tokens(sqlite3* db, const std::vector<std::string>& texts,
                      std::vector<std::vector<std::string>>& out);

// Registers cavemem_bm25 on `db`. Returns an SQLite result code (SQLITE_OK on success;
// SQLITE_ERROR when the library has no FTS5).
int register_rank_function(sqlite3* db);

}  // namespace caveman::mem

#endif  // CAVEMAN_MEM_FTS_RANK_H_
